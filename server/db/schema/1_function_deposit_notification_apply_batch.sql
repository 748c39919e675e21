-- Deposit notifications of many transfers in one database transaction: deposit_notification_apply applied
-- to each in turn, so a batch is the notifications' one implementation run several times under one
-- commit, not a second copy of it. The server gathers notifications while earlier ones are on their way
-- (one per transfer, one per deposit address, so one per wallet). The deposit rows they name are locked
-- first, then their wallets, each in the order of their ids: every other writer of a deposit takes its row
-- before its wallet. A notification deposit_notification_apply leaves to the general path ('general',
-- GW001, or a ledger key reused, LG002) or refuses for changed settings ('changed', GW002) is undone alone
-- (its own subtransaction) and answered so; the others stay. Anything else raises, and the server runs
-- each notification of the batch alone.
CREATE OR REPLACE FUNCTION deposit_notification_apply_batch(
  p_provider text,
  p_tx_id text[],
  p_address text[],
  p_currency_code text[],
  p_amount numeric[],
  p_confirmations integer[],
  p_required integer[],
  p_ledger_public_id uuid[],
  p_ledger_scope text,
  p_ledger_key text[],
  p_notice_title text[],
  p_notice_message text[],
  p_at timestamptz
) RETURNS TABLE (out_n integer, out_status text, out_confirmations integer, out_announce text[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_calls integer := coalesce(cardinality(p_tx_id), 0);
  v_wallet bigint[];
  v_applied record;
BEGIN
  v_wallet := ARRAY(SELECT (SELECT d.wallet_id FROM deposit_addresses d WHERE d.provider = p_provider AND d.address = x) FROM unnest(p_address) x);
  IF (SELECT count(DISTINCT x) FROM unnest(p_tx_id) x) <> v_calls OR (SELECT count(DISTINCT x) FROM unnest(p_address) x) <> v_calls
    OR (SELECT count(DISTINCT w) <> count(w) FROM unnest(v_wallet) w) THEN
    RAISE EXCEPTION 'a batch takes one notification per transfer and per wallet';
  END IF;
  PERFORM 1 FROM deposits d
  WHERE d.id = ANY (ARRAY(SELECT (SELECT d.id FROM deposits d WHERE d.provider = p_provider AND d.provider_tx_id = x) FROM unnest(p_tx_id) x))
  ORDER BY d.id FOR UPDATE;
  PERFORM 1 FROM wallets w WHERE w.id = ANY (v_wallet) ORDER BY w.id FOR UPDATE;
  FOR i IN 1 .. v_calls LOOP
    out_n := i;
    BEGIN
      SELECT * INTO v_applied FROM deposit_notification_apply(p_provider, p_tx_id[i], p_address[i], p_currency_code[i], p_amount[i],
        p_confirmations[i], p_required[i], p_ledger_public_id[i], p_ledger_scope, p_ledger_key[i], p_notice_title[i], p_notice_message[i], p_at);
      out_status := v_applied.out_status;
      out_confirmations := v_applied.out_confirmations;
      out_announce := v_applied.out_announce;
    EXCEPTION WHEN SQLSTATE 'GW001' OR SQLSTATE 'LG002' OR SQLSTATE 'GW002' THEN
      out_status := CASE SQLSTATE WHEN 'GW002' THEN 'changed' ELSE 'general' END;
      out_confirmations := NULL;
      out_announce := ARRAY[]::text[];
    END;
    RETURN NEXT;
  END LOOP;
END
$$;
