CREATE TABLE "business_event_type_counts" (
	"user_id" integer NOT NULL,
	"realm_id" integer NOT NULL,
	"type" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "business_event_type_counts_user_id_type_pk" PRIMARY KEY("user_id","type")
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"filters_summary" text NOT NULL,
	"matches_count" integer DEFAULT 0 NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	"temporary" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" integer NOT NULL,
	"realm_id" integer NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"segment_ids" integer[],
	"segment_list" text NOT NULL,
	"status" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"rate_per_second" integer,
	"next_claim_at" timestamp with time zone,
	"recipients_cursor" integer DEFAULT 0 NOT NULL,
	"recipients_done" boolean DEFAULT false NOT NULL,
	"reach" integer DEFAULT -1 NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"in_doubt_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_segments" (
	"campaign_id" integer NOT NULL,
	"segment_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "campaign_segments_campaign_id_segment_id_pk" PRIMARY KEY("campaign_id","segment_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"realm_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"segments_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"worker" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"failure_reason" text,
	"notification_id" integer
);
--> statement-breakpoint
CREATE TABLE "messaging_unsubscribes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_event_type_counts" ADD CONSTRAINT "business_event_type_counts_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_event_type_counts" ADD CONSTRAINT "business_event_type_counts_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_deliveries" ADD CONSTRAINT "campaign_deliveries_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_deliveries" ADD CONSTRAINT "campaign_deliveries_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_segments" ADD CONSTRAINT "campaign_segments_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_segments" ADD CONSTRAINT "campaign_segments_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_delivery_id_campaign_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."campaign_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_unsubscribes" ADD CONSTRAINT "messaging_unsubscribes_user_id_realm_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."realm_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_event_type_counts_count_idx" ON "business_event_type_counts" USING btree ("realm_id","type","count","user_id");--> statement-breakpoint
CREATE INDEX "business_event_type_counts_last_idx" ON "business_event_type_counts" USING btree ("realm_id","type","last_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "segments_uuid_key" ON "segments" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "segments_realm_idx" ON "segments" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "segments_listed_idx" ON "segments" USING btree ("updated_at") WHERE not "segments"."temporary";--> statement-breakpoint
CREATE INDEX "segments_expiry_idx" ON "segments" USING btree ("expires_at") WHERE "segments"."temporary";--> statement-breakpoint
CREATE INDEX "campaign_deliveries_campaign_idx" ON "campaign_deliveries" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE INDEX "campaign_deliveries_due_idx" ON "campaign_deliveries" USING btree ("status","starts_at");--> statement-breakpoint
CREATE INDEX "campaigns_realm_idx" ON "campaigns" USING btree ("realm_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "message_deliveries_recipient_idx" ON "message_deliveries" USING btree ("delivery_id","user_id");--> statement-breakpoint
CREATE INDEX "message_deliveries_pending_idx" ON "message_deliveries" USING btree ("delivery_id","id") WHERE "message_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "message_deliveries_leased_idx" ON "message_deliveries" USING btree ("lease_until","delivery_id") WHERE "message_deliveries"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "message_deliveries_campaign_idx" ON "message_deliveries" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE INDEX "realm_users_custom_fields_idx" ON "realm_users" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "business_events_realm_type_idx" ON "business_events" USING btree ("realm_id","type","created_at","user_id");--> statement-breakpoint
INSERT INTO "business_event_type_counts" ("user_id", "realm_id", "type", "count", "last_at")
SELECT "user_id", min("realm_id"), "type", count(*), max("created_at") FROM "business_events" WHERE "user_id" IS NOT NULL
GROUP BY "user_id", "type" ON CONFLICT ("user_id", "type") DO NOTHING;
