CREATE TABLE "business_event_counts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"impersonated" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"subject" text PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"subject" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"url" text,
	"sent_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "zendesk_integrations" (
	"realm_id" integer PRIMARY KEY NOT NULL,
	"subdomain" text NOT NULL,
	"key_id" text NOT NULL,
	"sealed_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "impersonation_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"admin_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_events" RENAME COLUMN "data" TO "properties";--> statement-breakpoint
DROP INDEX "business_events_user_idx";--> statement-breakpoint
DROP INDEX "business_events_realm_idx";--> statement-breakpoint
ALTER TABLE "business_events" ADD COLUMN "impersonated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Events recorded before: the flag from the impersonator, the admin id kept only while the admin exists, the counts.
UPDATE "business_events" SET "impersonated" = true WHERE "impersonator_id" IS NOT NULL;--> statement-breakpoint
UPDATE "business_events" SET "impersonator_id" = NULL WHERE "impersonator_id" IS NOT NULL AND "impersonator_id" NOT IN (SELECT "id" FROM "admins");--> statement-breakpoint
INSERT INTO "business_event_counts" ("user_id", "total", "impersonated")
  SELECT "user_id", count(*), count(*) FILTER (WHERE "impersonated") FROM "business_events" WHERE "user_id" IS NOT NULL GROUP BY "user_id";--> statement-breakpoint
ALTER TABLE "business_event_counts" ADD CONSTRAINT "business_event_counts_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zendesk_integrations" ADD CONSTRAINT "zendesk_integrations_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impersonation_links" ADD CONSTRAINT "impersonation_links_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impersonation_links" ADD CONSTRAINT "impersonation_links_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impersonation_links" ADD CONSTRAINT "impersonation_links_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_inbox_idx" ON "notifications" USING btree ("user_id",("opened_at" is not null),"sent_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "impersonation_links_token_key" ON "impersonation_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "impersonation_links_user_idx" ON "impersonation_links" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "business_events" ADD CONSTRAINT "business_events_impersonator_id_admins_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_events_user_idx" ON "business_events" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"impersonated","type");--> statement-breakpoint
CREATE INDEX "business_events_realm_idx" ON "business_events" USING btree ("realm_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);