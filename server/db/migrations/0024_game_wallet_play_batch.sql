-- Batches of money calls (the function is server/db/schema/1_function_game_wallet_play_batch.sql today).
-- The commit-time ledger check skips the ledger transactions a one-statement call vouches for: now a
-- comma-separated list of public ids, set for its own database transaction only (one id for
-- game_wallet_play and the other one-call functions, as before).
DROP TRIGGER ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((NEW.public_id::text = ANY (string_to_array(current_setting('casino.ledger_balanced_by', true), ','))) IS NOT TRUE)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
