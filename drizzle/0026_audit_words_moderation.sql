ALTER TABLE "audit_logs" ADD COLUMN "resource_label" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "realm_uid" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "realm_name" text;--> statement-breakpoint
ALTER TABLE "realm_users" ADD COLUMN "moderation_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_logs_realm_idx" ON "audit_logs" USING btree ("realm_uid","at" DESC NULLS LAST);--> statement-breakpoint
-- Moderated sign-ups already waiting: inactive since their sign-up in a moderated realm, never changed by an administrator.
UPDATE "realm_users" "u" SET "moderation_pending" = true
WHERE "u"."active" = false AND "u"."confirmation_pending" = false AND "u"."updated_at" = "u"."created_at"
  AND EXISTS (SELECT 1 FROM "business_events" "e" WHERE "e"."user_id" = "u"."id" AND "e"."type" = 'user_signup_log'
    AND "e"."properties"->>'activation_mode' = 'moderated' AND NOT ("e"."properties" ? 'invited'));
