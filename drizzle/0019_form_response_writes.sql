ALTER TABLE "form_token_uses" DROP CONSTRAINT "form_token_uses_form_id_forms_id_fk";
--> statement-breakpoint
DROP INDEX "form_responses_user_idx";--> statement-breakpoint
CREATE INDEX "form_responses_user_idx" ON "form_responses" USING btree ("user_id") WHERE "form_responses"."user_id" is not null;