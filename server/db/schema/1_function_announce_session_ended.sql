-- A session that ends (logout, the account made inactive, a password changed) is announced on the live
-- channel (announce_row), so that an event stream opened with it ends at once, on whichever server
-- instance holds it (server/http/events.ts). The stream checks its own session on hearing it; `id` is 0
-- (the message names the player, the stream knows its session).
CREATE OR REPLACE FUNCTION announce_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', 'session', 'id', 0)::text);
  RETURN NULL;
END;
$$;
