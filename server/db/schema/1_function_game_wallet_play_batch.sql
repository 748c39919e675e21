-- Game wallet calls of many players in one database transaction: game_wallet_play applied to each call in
-- turn, so a batch is the calls' one implementation run several times under one commit, not a second copy
-- of it. The server gathers calls while earlier ones are on their way (one per wallet, one per round); the
-- wallets are locked first, in the order of their ids (the order every writer of several wallets takes
-- them in). Each call answers as it would alone ('done', 'replayed', 'refused' with its code, 'changed'),
-- having written nothing when it did not move; anything raised fails the batch, and the server runs each
-- call of it alone.
CREATE OR REPLACE FUNCTION game_wallet_play_batch(
  p_action text[],
  p_wallet_id bigint[],
  p_user_id bigint[],
  p_currency_id integer[],
  p_limits_apply boolean[],
  p_provider_id integer[],
  p_session_id text[],
  p_game_id bigint[],
  p_game_identifier text[],
  p_round_id text[],
  p_transaction_id text[],
  p_amount numeric[],
  p_request_hash text[],
  p_ledger_public_id uuid[],
  p_ledger_scope text[],
  p_ledger_key text[],
  p_wallet_secret text[],
  p_reference_id text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_code text, out_action_id bigint, out_ledger_public_id uuid, out_available numeric,
  out_bonus numeric, out_announce text[], out_amount numeric, out_bonus_amount numeric, out_reference_id text, out_created_at timestamptz)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_action), 0);
BEGIN
  IF (SELECT count(DISTINCT w) FROM unnest(p_wallet_id) w) <> v_calls
    OR (SELECT count(DISTINCT (p, r)) FROM unnest(p_provider_id, p_round_id) AS x(p, r)) <> v_calls THEN
    RAISE EXCEPTION 'a batch takes one call per wallet and per round';
  END IF;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (p_wallet_id) ORDER BY w.id FOR UPDATE;
  FOR i IN 1 .. v_calls LOOP
    RETURN QUERY SELECT i, g.* FROM game_wallet_play(p_action[i], p_wallet_id[i], p_user_id[i], p_currency_id[i], p_limits_apply[i],
      p_provider_id[i], p_session_id[i], p_game_id[i], p_game_identifier[i], p_round_id[i], p_transaction_id[i], p_amount[i], p_request_hash[i],
      p_ledger_public_id[i], p_ledger_scope[i], p_ledger_key[i], p_at, p_wallet_secret[i], p_reference_id[i]) g;
  END LOOP;
END
$$;
