CREATE TABLE "delegated_tokens" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"sealed_access_token" text NOT NULL,
	"access_token_expires_at" timestamp with time zone,
	"sealed_refresh_token" text,
	"refresh_claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_providers" (
	"realm_id" integer PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"sealed_client_secret" text NOT NULL,
	"scopes" text[] NOT NULL,
	"button_label" text NOT NULL,
	"claim_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realm_user_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_delegation_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delegated_tokens" ADD CONSTRAINT "delegated_tokens_session_id_realm_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."realm_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegated_tokens" ADD CONSTRAINT "delegated_tokens_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_user_identities" ADD CONSTRAINT "realm_user_identities_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_user_identities" ADD CONSTRAINT "realm_user_identities_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegated_tokens_realm_idx" ON "delegated_tokens" USING btree ("realm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "realm_user_identities_subject_key" ON "realm_user_identities" USING btree ("realm_id","issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "realm_user_identities_user_key" ON "realm_user_identities" USING btree ("user_id","issuer");--> statement-breakpoint
CREATE INDEX "used_delegation_states_expires_idx" ON "used_delegation_states" USING btree ("expires_at");