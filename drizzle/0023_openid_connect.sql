CREATE TABLE "realm_signing_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"realm_id" integer NOT NULL,
	"kid" text NOT NULL,
	"alg" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"sealed_private_jwk" text NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD COLUMN "nonce" text;--> statement-breakpoint
ALTER TABLE "realm_sessions" ADD COLUMN "auth_methods" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "openid_connect_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "realm_signing_keys" ADD CONSTRAINT "realm_signing_keys_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "realm_signing_keys_kid_key" ON "realm_signing_keys" USING btree ("kid");--> statement-breakpoint
CREATE UNIQUE INDEX "realm_signing_keys_in_use_key" ON "realm_signing_keys" USING btree ("realm_id") WHERE "realm_signing_keys"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "realm_signing_keys_realm_idx" ON "realm_signing_keys" USING btree ("realm_id");