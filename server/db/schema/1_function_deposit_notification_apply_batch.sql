-- Deposit notifications of many transfers in one database transaction: deposit_notification_apply applied
-- to each in turn, so a batch is the notifications' one implementation run several times under one
-- commit, not a second copy of it. The server gathers notifications while earlier ones are on their way
-- (one per transfer, one per deposit address, so one per wallet). The locks are taken first, in the order
-- every writer takes them: the deposit rows the notifications name, then the deposit-limit locks of the
-- players whose wallet is in the limits' currency, then the wallets, each in the order of its id. Each
-- notification answers as it would alone (a refusal having written nothing); anything raised fails the
-- batch, and the server runs each notification of it alone.
CREATE OR REPLACE FUNCTION deposit_notification_apply_batch(
  p_provider text,
  p_tx_id text[],
  p_address text[],
  p_currency_code text[],
  p_amount numeric[],
  p_confirmations integer[],
  p_limits_currency text,
  p_ledger_scope text,
  p_ledger_key text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_field text, out_code text, out_confirmations integer, out_required integer,
  out_changed boolean, out_announce text[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_tx_id), 0);
  v_wallet bigint[];
  v_user bigint;
BEGIN
  v_wallet := ARRAY(SELECT (SELECT d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = x) FROM unnest(p_address) x);
  IF (SELECT count(DISTINCT x) FROM unnest(p_tx_id) x) <> v_calls OR (SELECT count(DISTINCT x) FROM unnest(p_address) x) <> v_calls
    OR (SELECT count(DISTINCT w) <> count(w) FROM unnest(v_wallet) w) THEN
    RAISE EXCEPTION 'a batch takes one notification per transfer and per wallet';
  END IF;
  PERFORM 1 FROM deposits d
  WHERE d.id = ANY (ARRAY(SELECT (SELECT d.id FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = x) FROM unnest(p_tx_id) x))
  ORDER BY d.id FOR UPDATE;
  FOR v_user IN
    SELECT DISTINCT w.user_id FROM wallets w WHERE w.id = ANY (v_wallet)
      AND (SELECT c.code FROM currencies c WHERE c.id = w.currency_id) = p_limits_currency
    ORDER BY w.user_id
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('deposit-limits:' || v_user, 0));
  END LOOP;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (v_wallet) ORDER BY w.id FOR UPDATE;
  FOR i IN 1 .. v_calls LOOP
    RETURN QUERY SELECT i, a.* FROM deposit_notification_apply(p_provider, p_tx_id[i], p_address[i], p_currency_code[i], p_amount[i],
      p_confirmations[i], p_limits_currency, p_ledger_scope, p_ledger_key[i], p_at) a;
  END LOOP;
END
$$;
