-- The check (reference_missing), unless the statement's writer vouches for its rows (the batch functions).
-- Planned once per connection like any plpgsql statement, and never as a scan of the referred table (a
-- plan made while a table is small would otherwise keep scanning it once it is large): each row is looked
-- up by its key in a subquery of its own, which LIMIT keeps from being merged into a join.
CREATE OR REPLACE FUNCTION game_rounds_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.session_id INTO v_missing
  FROM (SELECT DISTINCT w.session_id FROM written w) n
  LEFT JOIN LATERAL (SELECT s.id FROM game_sessions s WHERE s.id = n.session_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_session_id_fkey', 'session_id', v_missing.session_id, 'game_sessions');
  END IF;
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
