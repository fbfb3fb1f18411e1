DROP INDEX "realm_signing_keys_in_use_key";--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "id_token_signed_response_alg" text DEFAULT 'RS256' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "custom_fields_claim" text;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "signing_key_rotation_days" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "realm_signing_keys_in_use_key" ON "realm_signing_keys" USING btree ("realm_id","alg") WHERE "realm_signing_keys"."retired_at" is null;