CREATE TABLE "content_assets" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"space_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"title" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"space_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"publish_at" timestamp with time zone,
	"unpublish_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_entry_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"entry_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"locale" text NOT NULL,
	"state" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"fields" jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"category" text,
	"private" boolean DEFAULT false NOT NULL,
	"segment_uuids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"published_at" timestamp with time zone,
	"unpublished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_spaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"default_locale" text NOT NULL,
	"locales" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"space_id" integer NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"fields" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realm_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "realm_sessions" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_assets" ADD CONSTRAINT "content_assets_space_id_content_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."content_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_entries" ADD CONSTRAINT "content_entries_space_id_content_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."content_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_entries" ADD CONSTRAINT "content_entries_type_id_content_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."content_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_entry_versions" ADD CONSTRAINT "content_entry_versions_entry_id_content_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."content_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_entry_versions" ADD CONSTRAINT "content_entry_versions_type_id_content_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."content_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_types" ADD CONSTRAINT "content_types_space_id_content_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."content_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_assets_uuid_key" ON "content_assets" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "content_assets_space_idx" ON "content_assets" USING btree ("space_id");--> statement-breakpoint
CREATE UNIQUE INDEX "content_entries_uuid_key" ON "content_entries" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "content_entries_type_idx" ON "content_entries" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "content_entries_publish_due_idx" ON "content_entries" USING btree ("publish_at") WHERE "content_entries"."publish_at" is not null;--> statement-breakpoint
CREATE INDEX "content_entries_unpublish_due_idx" ON "content_entries" USING btree ("unpublish_at") WHERE "content_entries"."unpublish_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "content_entry_versions_entry_key" ON "content_entry_versions" USING btree ("entry_id","locale","state");--> statement-breakpoint
CREATE UNIQUE INDEX "content_entry_versions_slug_key" ON "content_entry_versions" USING btree ("type_id","locale","state","slug");--> statement-breakpoint
CREATE INDEX "content_entry_versions_listed_idx" ON "content_entry_versions" USING btree ("type_id","locale","published_at" DESC NULLS LAST) WHERE "content_entry_versions"."state" = 'published';--> statement-breakpoint
CREATE INDEX "content_entry_versions_tags_idx" ON "content_entry_versions" USING gin ("tags") WHERE "content_entry_versions"."state" = 'published';--> statement-breakpoint
CREATE UNIQUE INDEX "content_spaces_uid_key" ON "content_spaces" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "content_types_space_uid_key" ON "content_types" USING btree ("space_id","uid");