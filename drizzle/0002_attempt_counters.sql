CREATE TABLE "attempt_counters" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"failures" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "attempt_counters_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "failed_sign_ins";--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "realm_users" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "realm_users" DROP COLUMN "locked_until";