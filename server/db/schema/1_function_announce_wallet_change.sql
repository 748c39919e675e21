-- A wallet's change, announced on the live channel (announce_row) unless the transaction announces it
-- itself. The money calls set casino.announce to 'by_server' for their own transaction and return the
-- payloads, which the server announces once the call has committed, in a statement of its own that writes
-- nothing: a transaction that has called NOTIFY holds one lock for the whole database from just before
-- its commit until the commit is flushed to disk, so a NOTIFY in each money call would make every commit
-- wait for the one before it (no group commit). A call that fails or is rolled back announces nothing.
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
