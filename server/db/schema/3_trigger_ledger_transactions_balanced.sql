-- Every ledger transaction is checked at commit, except those a one-statement money call vouches for by
-- their public id in casino.ledger_balanced_by, a setting of its own database transaction
-- (game_wallet_play and its batch, deposit_notification_apply and its batch, withdrawal_hold): each writes
-- its ledger transactions and their entries in one statement, two entries of one amount with opposite
-- signs in the currency of the transaction's wallet, and fails unless both were written, so they balance
-- by construction. A check at commit cost each call a deferred trigger and its query, about a tenth of the
-- database's time for a bet.
DROP TRIGGER IF EXISTS ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((NEW.public_id::text = ANY (string_to_array(current_setting('casino.ledger_balanced_by', true), ','))) IS NOT TRUE)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
