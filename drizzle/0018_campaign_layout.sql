ALTER TABLE "campaign_deliveries" ADD COLUMN "layout" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "use_layout" boolean DEFAULT false NOT NULL;