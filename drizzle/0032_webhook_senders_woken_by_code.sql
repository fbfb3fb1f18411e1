-- Webhook deliveries are written on the request path of every change an endpoint subscribes to. A NOTIFY in the
-- writing transaction makes PostgreSQL hold a database-wide lock from the transaction's pre-commit to its end, so
-- those writers committed one at a time (a realm-user PUT 25% slower with one endpoint subscribed). The outbox now
-- wakes the senders after the commit, from a statement of its own (src/webhooks/outbox.ts, src/queue/signal.ts).
DROP TRIGGER IF EXISTS webhook_deliveries_wake ON "webhook_deliveries";
