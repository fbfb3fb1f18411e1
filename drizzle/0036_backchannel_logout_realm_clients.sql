-- The session-ended trigger looks at the session's own realm's clients only: a session's tokens are of its realm's
-- clients, and each ended session probed the tokens of every client with a back-channel logout URI in every realm.
CREATE OR REPLACE FUNCTION atrium_realm_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO queue_tasks (queue, payload, run_at, created_at)
  SELECT 'oidc-backchannel-logout',
    jsonb_build_object('session_id', NEW.id, 'client_id', c.id, 'session_hash', NEW.session_hash, 'user_uuid', u.uuid, 'realm_id', NEW.realm_id),
    NEW.revoked_at, NEW.revoked_at
  FROM oauth_clients c JOIN realm_users u ON u.id = NEW.user_id
  WHERE c.realm_id = NEW.realm_id AND c.backchannel_logout_uri IS NOT NULL
    AND (EXISTS (SELECT 1 FROM oauth_access_tokens t WHERE t.session_id = NEW.id AND t.client_id = c.id)
      OR EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.session_id = NEW.id AND r.client_id = c.id));
  RETURN NEW;
END $$;
