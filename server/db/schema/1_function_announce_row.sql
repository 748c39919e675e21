-- The players' live updates (GET /user/events): a change a player should see at once is announced on the
-- channel `casino_events` when its transaction commits (NOTIFY is transactional: a rolled-back change
-- announces nothing), with a small JSON payload naming the player, the kind and the row:
--   {"u": user id, "k": "wallets" | "deposit" | "withdrawal" | "notification" | "session", "id": row id}
-- ("id" is the user's for wallets, 0 for a session). Every server instance LISTENs and tells the streams
-- it holds; each reads the row itself, so a payload never nears NOTIFY's 8000-byte limit. Identical
-- payloads within one transaction are delivered once. A transaction with casino.announce 'by_server'
-- (the one-statement money calls and their batches) announces its changes itself once committed, and
-- the triggers stay quiet.
CREATE OR REPLACE FUNCTION announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('casino.announce', true) = 'by_server' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', TG_ARGV[0], 'id', NEW.id)::text);
  RETURN NULL;
END;
$$;
