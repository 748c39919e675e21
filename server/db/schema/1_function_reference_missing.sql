-- The money path's references, checked once per statement instead of once per row, and not at all for
-- the rows the batch functions write, which they check themselves. A foreign key runs a query of its own
-- for every row written (an executor started, a plan run, a row locked). These checks stand for the
-- foreign keys of the rows every bet, win and deposit writes:
--
--   game_rounds (session_id) -> game_sessions (id)                     game_rounds_session_id_fkey
--   game_rounds (wallet_id, user_id, currency_id) -> wallets            game_rounds_wallet_id_user_id_currency_id_fkey
--   ledger_transactions (wallet_id, user_id, currency_id) -> wallets    ledger_transactions_wallet_id_user_id_currency_id_fkey
--   ledger_entries (transaction_id, xact) -> ledger_transactions        ledger_entries_transaction_xact
--   game_wallet_actions (round_pk) -> game_rounds (id)                  game_wallet_actions_round_pk_fkey
--   game_wallet_actions (ledger_transaction_id) -> ledger_transactions  game_wallet_actions_ledger_transaction_id_fkey
--   deposits (deposit_address_id) -> deposit_addresses (id)             deposits_deposit_address_id_fkey
--   deposits (wallet_id, user_id, currency_id) -> wallets               deposits_wallet_user_currency
--   user_notifications (user_id) -> users (id)                          user_notifications_user_id_fkey
--
-- - Every statement that writes one of these tables has every row it wrote checked at its end, in one
--   query over the statement's transition table (same names, error code 23503 and message as the foreign
--   keys), unless the statement is the write of a batch function, which vouches for its rows by the
--   setting casino.references_checked for that statement alone.
-- - The rows referred to stay (references_kept): a wallet, a game session, a round, a ledger transaction,
--   a deposit address and a player are never deleted, and their keys never change; nor do the referring
--   columns. So a row found once is there at commit, and no check needs the KEY SHARE lock a foreign key
--   takes on it.
-- - Rows are found through the referred tables' own keys, never by scanning them.
--
-- The error a foreign key raises, for a row of p_table whose p_columns hold p_key with no such row in p_referred.
CREATE OR REPLACE FUNCTION reference_missing(p_table text, p_constraint text, p_columns text, p_key text, p_referred text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', p_table, p_constraint
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = p_constraint, TABLE = p_table,
      DETAIL = format('Key (%s)=(%s) is not present in table "%s".', p_columns, p_key, p_referred);
END
$$;
