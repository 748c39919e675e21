-- A call's round and ledger transaction are those it was written with (calls are never deleted either).
DROP TRIGGER IF EXISTS game_wallet_actions_kept ON game_wallet_actions;
CREATE TRIGGER game_wallet_actions_kept BEFORE DELETE OR UPDATE OF round_pk, ledger_transaction_id ON game_wallet_actions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('round_pk', 'ledger_transaction_id');
