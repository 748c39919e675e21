-- Rows are looked up by their keys, each in a subquery of its own, never by scanning the referred table
-- (reference_missing). A deposit's two ledger transactions keep their deferred foreign keys:
-- deposit_notification_apply writes the deposit before its ledger transaction, so they can only be checked
-- at commit.
CREATE OR REPLACE FUNCTION deposits_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.deposit_address_id INTO v_missing
  FROM (SELECT DISTINCT w.deposit_address_id FROM written w) n
  LEFT JOIN LATERAL (SELECT a.id FROM deposit_addresses a WHERE a.id = n.deposit_address_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('deposits', 'deposits_deposit_address_id_fkey', 'deposit_address_id', v_missing.deposit_address_id::text,
      'deposit_addresses');
  END IF;
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('deposits', 'deposits_wallet_user_currency', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
