-- An entry's ledger transaction was written by the same database transaction (its xact), so the
-- commit-time balance check sees every entry of it.
CREATE OR REPLACE FUNCTION ledger_entries_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.transaction_id, n.xact INTO v_missing
  FROM (SELECT DISTINCT w.transaction_id, w.xact FROM written w) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.transaction_id AND t.xact = n.xact LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_entries', 'ledger_entries_transaction_xact', 'transaction_id, xact',
      concat_ws(', ', v_missing.transaction_id, v_missing.xact), 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
