CREATE INDEX "campaign_segments_segment_idx" ON "campaign_segments" USING btree ("segment_id");--> statement-breakpoint
CREATE INDEX "message_deliveries_user_idx" ON "message_deliveries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_deliveries_notification_idx" ON "message_deliveries" USING btree ("notification_id") WHERE "message_deliveries"."notification_id" is not null;--> statement-breakpoint
CREATE INDEX "authorization_codes_session_idx" ON "authorization_codes" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "oauth_access_tokens_code_idx" ON "oauth_access_tokens" USING btree ("code_id") WHERE "oauth_access_tokens"."code_id" is not null;--> statement-breakpoint
CREATE INDEX "answer_attachments_question_idx" ON "answer_attachments" USING btree ("question_id") WHERE "answer_attachments"."question_id" is not null;