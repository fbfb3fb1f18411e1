-- Back-channel logout when a user is deleted: the deletion first ends the user's sessions (src/realms/users.ts), which
-- queues the tasks, and the rows then go with the user. The task can no longer read the session or the user, so the
-- trigger now puts in the payload what the logout token names: the session's hash (its sid), the user's uuid (its sub)
-- and the realm. Tasks queued before this migration carry only the ids and are read as before.
CREATE OR REPLACE FUNCTION atrium_realm_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO queue_tasks (queue, payload, run_at, created_at)
  SELECT 'oidc-backchannel-logout',
    jsonb_build_object('session_id', NEW.id, 'client_id', c.id, 'session_hash', NEW.session_hash, 'user_uuid', u.uuid, 'realm_id', NEW.realm_id),
    NEW.revoked_at, NEW.revoked_at
  FROM oauth_clients c JOIN realm_users u ON u.id = NEW.user_id
  WHERE c.backchannel_logout_uri IS NOT NULL
    AND (EXISTS (SELECT 1 FROM oauth_access_tokens t WHERE t.session_id = NEW.id AND t.client_id = c.id)
      OR EXISTS (SELECT 1 FROM oauth_refresh_tokens r WHERE r.session_id = NEW.id AND r.client_id = c.id));
  RETURN NEW;
END $$;
