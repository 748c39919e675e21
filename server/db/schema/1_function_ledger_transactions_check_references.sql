CREATE OR REPLACE FUNCTION ledger_transactions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  -- A transaction with no wallet (a system-only posting) refers to none (MATCH SIMPLE: a null column skips the check).
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (
    SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w
    WHERE w.wallet_id IS NOT NULL AND w.user_id IS NOT NULL AND w.currency_id IS NOT NULL
  ) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_transactions', 'ledger_transactions_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
