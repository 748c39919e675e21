-- Live updates announced by the server right after a money call commits, instead of by the triggers
-- inside it (migration 0011). A transaction that has called NOTIFY holds one lock for the whole database
-- from just before its commit until the commit is flushed to disk, so every such commit waits for the one
-- before it to reach the disk: with a NOTIFY in each, bets and deposits could not commit together (no group
-- commit), whatever the database's speed. The one-statement money calls set casino.announce to
-- 'by_server' for their own transaction, the triggers then stay quiet, and the function returns the same
-- payloads, which the server announces once the call has committed (a statement of its own that writes
-- nothing and so waits for no disk). A call that fails or is rolled back announces nothing, as before.
-- (The money functions this migration defined live in server/db/schema/ today.)
CREATE OR REPLACE FUNCTION announce_wallet_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('casino.announce', true) = 'by_server' THEN
    RETURN NULL;
  END IF;
  -- Named by the player, not the wallet: a transaction that moves several of their wallets (a selection
  -- unselects one and selects another) announces them once, since the stream sends the whole list.
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', 'wallets', 'id', NEW.user_id)::text);
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('casino.announce', true) = 'by_server' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', TG_ARGV[0], 'id', NEW.id)::text);
  RETURN NULL;
END;
$$;
