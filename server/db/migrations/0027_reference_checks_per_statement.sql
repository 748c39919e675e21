-- Six foreign keys of the money path dropped for checks by statement triggers (docs/performance.md, "Tried
-- and dropped"), which migration 0037 dropped again, adding these keys back.
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_session_id_fkey;
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_xact;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_round_pk_fkey;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_ledger_transaction_id_fkey;
