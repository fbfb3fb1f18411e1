CREATE TABLE "oauth_refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"family" integer NOT NULL,
	"client_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"scope" text NOT NULL,
	"family_expires_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_access_tokens" ADD COLUMN "refresh_family" integer;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "refresh_absolute_seconds" integer DEFAULT 2592000 NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "refresh_idle_seconds" integer DEFAULT 1209600 NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "oauth_refresh_tokens_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "oauth_refresh_tokens_session_id_realm_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."realm_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_refresh_tokens_hash_key" ON "oauth_refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_family_idx" ON "oauth_refresh_tokens" USING btree ("family");--> statement-breakpoint
CREATE INDEX "oauth_access_tokens_refresh_family_idx" ON "oauth_access_tokens" USING btree ("refresh_family") WHERE "oauth_access_tokens"."refresh_family" is not null;