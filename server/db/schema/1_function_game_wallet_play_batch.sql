-- Bets and wins of many players in one database transaction: game_wallet_play applied to each call in
-- turn, so a batch is the calls' one implementation run several times under one commit, not a second
-- copy of it. The server gathers calls while earlier ones are on their way (one per wallet, one per
-- round); the wallets are locked first, in the order of their ids (the order every writer of several
-- wallets takes them in). A call game_wallet_play leaves to the general path ('general', GW001, or a
-- ledger key reused, LG002) or refuses for a changed session ('changed', GW002) is undone alone (its own
-- subtransaction) and answered so; the others stay. Anything else raises, and the server runs each call
-- of the batch alone.
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
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_action_id bigint, out_ledger_id bigint, out_available numeric, out_bonus numeric,
  out_announce text[], out_amount numeric)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_action), 0);
  v_played record;
BEGIN
  IF (SELECT count(DISTINCT w) FROM unnest(p_wallet_id) w) <> v_calls
    OR (SELECT count(DISTINCT (p, r)) FROM unnest(p_provider_id, p_round_id) AS x(p, r)) <> v_calls THEN
    RAISE EXCEPTION 'a batch takes one call per wallet and per round';
  END IF;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (p_wallet_id) ORDER BY w.id FOR UPDATE;
  FOR i IN 1 .. v_calls LOOP
    out_n := i;
    BEGIN
      SELECT * INTO v_played FROM game_wallet_play(p_action[i], p_wallet_id[i], p_user_id[i], p_currency_id[i], p_limits_apply[i],
        p_provider_id[i], p_session_id[i], p_game_id[i], p_game_identifier[i], p_round_id[i], p_transaction_id[i], p_amount[i], p_request_hash[i],
        p_ledger_public_id[i], p_ledger_scope[i], p_ledger_key[i], p_at, p_wallet_secret[i], NULL);
      out_status := 'done';
      out_action_id := v_played.out_action_id;
      out_ledger_id := v_played.out_ledger_id;
      out_available := v_played.out_available;
      out_bonus := v_played.out_bonus;
      out_announce := v_played.out_announce;
      out_amount := v_played.out_amount;
    EXCEPTION WHEN SQLSTATE 'GW001' OR SQLSTATE 'LG002' OR SQLSTATE 'GW002' THEN
      out_status := CASE SQLSTATE WHEN 'GW002' THEN 'changed' ELSE 'general' END;
      out_action_id := NULL;
      out_ledger_id := NULL;
      out_available := NULL;
      out_bonus := NULL;
      out_announce := ARRAY[]::text[];
      out_amount := NULL;
    END;
    RETURN NEXT;
  END LOOP;
END
$$;
