ALTER TABLE "oauth_clients" ADD COLUMN "post_logout_redirect_uris" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "backchannel_logout_uri" text;--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_session_idx" ON "oauth_refresh_tokens" USING btree ("session_id");--> statement-breakpoint
-- OpenID Connect back-channel logout: whatever ends a realm session (sign-out, an admin, a password reset, a refresh
-- token's reuse), each client holding a token of it that registered a back-channel logout URI gets a queued task
-- (src/oauth/backchannel-logout.ts), in the same transaction as the session's end.
CREATE FUNCTION atrium_realm_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO queue_tasks (queue, payload, run_at, created_at)
  SELECT 'oidc-backchannel-logout', jsonb_build_object('session_id', NEW.id, 'client_id', c.id), NEW.revoked_at, NEW.revoked_at
  FROM oauth_clients c
  WHERE c.backchannel_logout_uri IS NOT NULL
    AND (EXISTS (SELECT 1 FROM oauth_access_tokens t WHERE t.session_id = NEW.id AND t.client_id = c.id)
      OR EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.session_id = NEW.id AND r.client_id = c.id));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER realm_sessions_ended AFTER UPDATE OF revoked_at ON "realm_sessions" FOR EACH ROW
  WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION atrium_realm_session_ended();
