-- The money tables' references held by the database's own foreign keys again, for every writer: the
-- per-statement checks of migrations 0027 and 0028 and their guards go where a database has them, and the
-- nine foreign keys they stood for are re-created as defined before (same names, columns and referred keys;
-- none deferrable). No session setting turns a foreign key off. Adding each validates the rows already
-- written. A deposit's two ledger transactions keep their deferred foreign keys (migration 0015).
DROP TRIGGER IF EXISTS game_rounds_references ON game_rounds;
DROP TRIGGER IF EXISTS ledger_transactions_references ON ledger_transactions;
DROP TRIGGER IF EXISTS ledger_entries_references ON ledger_entries;
DROP TRIGGER IF EXISTS game_wallet_actions_references ON game_wallet_actions;
DROP TRIGGER IF EXISTS deposits_references ON deposits;
DROP TRIGGER IF EXISTS user_notifications_references ON user_notifications;
DROP TRIGGER IF EXISTS wallets_kept ON wallets;
DROP TRIGGER IF EXISTS game_sessions_kept ON game_sessions;
DROP TRIGGER IF EXISTS game_rounds_kept ON game_rounds;
DROP TRIGGER IF EXISTS game_wallet_actions_kept ON game_wallet_actions;
DROP TRIGGER IF EXISTS deposit_addresses_kept ON deposit_addresses;
DROP TRIGGER IF EXISTS users_kept ON users;
DROP TRIGGER IF EXISTS deposits_references_kept ON deposits;
DROP TRIGGER IF EXISTS user_notifications_references_kept ON user_notifications;
DROP FUNCTION IF EXISTS game_rounds_check_references();
DROP FUNCTION IF EXISTS ledger_transactions_check_references();
DROP FUNCTION IF EXISTS ledger_entries_check_references();
DROP FUNCTION IF EXISTS game_wallet_actions_check_references();
DROP FUNCTION IF EXISTS deposits_check_references();
DROP FUNCTION IF EXISTS user_notifications_check_references();
DROP FUNCTION IF EXISTS references_kept();
DROP FUNCTION IF EXISTS reference_missing(text, text, text, text, text);

-- As migration 0010 defined them.
ALTER TABLE game_rounds ADD CONSTRAINT game_rounds_session_id_fkey FOREIGN KEY (session_id) REFERENCES game_sessions (id);
ALTER TABLE game_rounds ADD CONSTRAINT game_rounds_wallet_id_user_id_currency_id_fkey
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id);
ALTER TABLE game_wallet_actions ADD CONSTRAINT game_wallet_actions_round_pk_fkey FOREIGN KEY (round_pk) REFERENCES game_rounds (id);
ALTER TABLE game_wallet_actions ADD CONSTRAINT game_wallet_actions_ledger_transaction_id_fkey
  FOREIGN KEY (ledger_transaction_id) REFERENCES ledger_transactions (id);
-- As migration 0006 defined it.
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_wallet_id_user_id_currency_id_fkey
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id);
-- As migration 0015 defined it: an entry is written by the database transaction that wrote its ledger
-- transaction, so the commit-time balance check sees every entry of it.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_xact
  FOREIGN KEY (transaction_id, xact) REFERENCES ledger_transactions (id, xact);
-- As migrations 0007 and 0015 defined them.
ALTER TABLE deposits ADD CONSTRAINT deposits_deposit_address_id_fkey FOREIGN KEY (deposit_address_id) REFERENCES deposit_addresses (id);
ALTER TABLE deposits ADD CONSTRAINT deposits_wallet_user_currency
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id);
-- As migration 0002 defined it.
ALTER TABLE user_notifications ADD CONSTRAINT user_notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id);
