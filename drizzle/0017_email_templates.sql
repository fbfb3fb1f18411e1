CREATE TABLE "email_template_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer,
	"kind" text NOT NULL,
	"content" jsonb,
	"admin_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer,
	"kind" text NOT NULL,
	"content" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realm_users" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "email_template_versions" ADD CONSTRAINT "email_template_versions_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_template_versions" ADD CONSTRAINT "email_template_versions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_template_versions_kind_idx" ON "email_template_versions" USING btree ("kind","realm_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_account_key" ON "email_templates" USING btree ("kind") WHERE "email_templates"."realm_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_realm_key" ON "email_templates" USING btree ("realm_id","kind") WHERE "email_templates"."realm_id" is not null;