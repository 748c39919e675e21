CREATE OR REPLACE FUNCTION game_wallet_actions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.round_pk INTO v_missing
  FROM (SELECT DISTINCT w.round_pk FROM written w) n
  LEFT JOIN LATERAL (SELECT r.id FROM game_rounds r WHERE r.id = n.round_pk LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_round_pk_fkey', 'round_pk', v_missing.round_pk::text, 'game_rounds');
  END IF;
  SELECT n.ledger_transaction_id INTO v_missing
  FROM (SELECT DISTINCT w.ledger_transaction_id FROM written w WHERE w.ledger_transaction_id IS NOT NULL) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.ledger_transaction_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_ledger_transaction_id_fkey', 'ledger_transaction_id',
      v_missing.ledger_transaction_id::text, 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
