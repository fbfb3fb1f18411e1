CREATE TABLE "queue_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "queue_tasks_due" ON "queue_tasks" USING btree ("run_at") WHERE failed_at is null;--> statement-breakpoint
-- Wakes the workers of every server process when work is written (queue/signal.ts): NOTIFY is sent on
-- commit, and once per transaction however many rows were written (a statement that changed no row sends nothing).
CREATE FUNCTION atrium_wake_workers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atrium_work', TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER queue_tasks_wake AFTER INSERT ON "queue_tasks" FOR EACH ROW EXECUTE FUNCTION atrium_wake_workers('tasks');
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_wake AFTER INSERT OR UPDATE OF "next_attempt_at" ON "webhook_deliveries" FOR EACH ROW EXECUTE FUNCTION atrium_wake_workers('webhooks');
--> statement-breakpoint
CREATE TRIGGER campaign_deliveries_wake AFTER INSERT OR UPDATE OF "status", "starts_at" ON "campaign_deliveries" FOR EACH ROW EXECUTE FUNCTION atrium_wake_workers('campaigns');
