CREATE TABLE "answer_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"question_id" integer,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "origination_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "origination_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"origination_id" integer NOT NULL,
	"step_position" integer NOT NULL,
	"step_name" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"content" text
);
--> statement-breakpoint
CREATE TABLE "originations" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"name" text NOT NULL,
	"deadline_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviewer_group_members" (
	"group_id" integer NOT NULL,
	"admin_id" integer NOT NULL,
	CONSTRAINT "reviewer_group_members_group_id_admin_id_pk" PRIMARY KEY("group_id","admin_id")
);
--> statement-breakpoint
CREATE TABLE "reviewer_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_tasks" (
	"submission_id" integer NOT NULL,
	"task_uid" uuid NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"completed_by_admin_id" integer,
	CONSTRAINT "submission_tasks_submission_id_task_uid_pk" PRIMARY KEY("submission_id","task_uid")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"origination_id" integer NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"cancellation_reason" text,
	"deadline_at" timestamp with time zone,
	"extension_days" integer DEFAULT 0 NOT NULL,
	"assignee_group_id" integer,
	"assignee_admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "branding_logo_url" text;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "branding_primary_color" text;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "branding_page_title" text;--> statement-breakpoint
ALTER TABLE "answer_attachments" ADD CONSTRAINT "answer_attachments_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_attachments" ADD CONSTRAINT "answer_attachments_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_attachments" ADD CONSTRAINT "answer_attachments_question_id_origination_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."origination_questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "origination_questions" ADD CONSTRAINT "origination_questions_task_id_origination_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."origination_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "origination_tasks" ADD CONSTRAINT "origination_tasks_origination_id_originations_id_fk" FOREIGN KEY ("origination_id") REFERENCES "public"."originations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "originations" ADD CONSTRAINT "originations_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_group_members" ADD CONSTRAINT "reviewer_group_members_group_id_reviewer_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."reviewer_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_group_members" ADD CONSTRAINT "reviewer_group_members_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_groups" ADD CONSTRAINT "reviewer_groups_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_tasks" ADD CONSTRAINT "submission_tasks_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_tasks" ADD CONSTRAINT "submission_tasks_completed_by_admin_id_admins_id_fk" FOREIGN KEY ("completed_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_origination_id_originations_id_fk" FOREIGN KEY ("origination_id") REFERENCES "public"."originations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_assignee_group_id_reviewer_groups_id_fk" FOREIGN KEY ("assignee_group_id") REFERENCES "public"."reviewer_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_assignee_admin_id_admins_id_fk" FOREIGN KEY ("assignee_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answer_attachments_uuid_key" ON "answer_attachments" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "answer_attachments_user_idx" ON "answer_attachments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "origination_questions_task_idx" ON "origination_questions" USING btree ("task_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "origination_tasks_uid_key" ON "origination_tasks" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "origination_tasks_order_idx" ON "origination_tasks" USING btree ("origination_id","step_position","position");--> statement-breakpoint
CREATE UNIQUE INDEX "originations_uuid_key" ON "originations" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "originations_realm_idx" ON "originations" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "reviewer_group_members_admin_idx" ON "reviewer_group_members" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reviewer_groups_name_key" ON "reviewer_groups" USING btree ("realm_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_uuid_key" ON "submissions" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "submissions_user_idx" ON "submissions" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "submissions_origination_idx" ON "submissions" USING btree ("origination_id");--> statement-breakpoint
CREATE UNIQUE INDEX "admins_uuid_key" ON "admins" USING btree ("uuid");--> statement-breakpoint
UPDATE "roles" SET "permissions" = "permissions" || ARRAY['realm.originations.read'] WHERE ("key" IN ('account_user', 'realm_viewer') OR 'realm.originations.manage' = ANY("permissions")) AND NOT ('realm.originations.read' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = "permissions" || ARRAY['realm.originations.review'] WHERE 'realm.originations.manage' = ANY("permissions") AND NOT ('realm.originations.review' = ANY("permissions"));
--> statement-breakpoint
UPDATE "roles" SET "permissions" = "permissions" || ARRAY['realm.users.impersonate'] WHERE "key" = 'realm_admin' AND NOT ('realm.users.impersonate' = ANY("permissions"));
