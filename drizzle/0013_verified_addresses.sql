ALTER TABLE "realm_users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written data update (keep apart from the generated DDL above): existing users whose address was proven.
-- An administrator's user has no sign-up of its own; an invited or provider-made user's sign-up says so; an
-- activation link, a sign-in code or a password reset link used is in the user's events. The earliest proof counts.
-- A `direct` sign-up, or an `otp` one whose code was never used, stays unverified.
UPDATE "realm_users" SET "email_verified_at" = "proof"."at"
FROM (
  SELECT "id", min("at") AS "at" FROM (
    SELECT "u"."id", "u"."created_at" AS "at" FROM "realm_users" "u"
      WHERE NOT EXISTS (SELECT 1 FROM "business_events" "e" WHERE "e"."user_id" = "u"."id" AND "e"."type" = 'user_signup_log')
    UNION ALL
    SELECT "e"."user_id", "e"."created_at" FROM "business_events" "e"
      WHERE "e"."user_id" IS NOT NULL AND (
        ("e"."type" = 'user_signup_log' AND ("e"."properties"->>'invited' = 'true' OR "e"."properties"->>'identity_provider' IS NOT NULL))
        OR ("e"."type" = 'user_login_log' AND "e"."properties"->>'method' = 'activation_link')
        OR "e"."type" IN ('user_otp_login_log', 'user_password_reset_log')
      )
  ) "proofs" GROUP BY "id"
) "proof"
WHERE "realm_users"."id" = "proof"."id";
