-- The ledger's database checks, once per ledger transaction at commit (ledger_assert_transaction_balanced,
-- server/db/schema/, which also checks that each entry's account is of its currency) instead of once per
-- entry row: the row triggers of migration 0006 go where a database has them. And no foreign-key checks
-- onto rows that every bet or deposit would otherwise share. Entries can only be written in the database
-- transaction that wrote their ledger transaction (the composite foreign key onto (id, xact) below), so the
-- check at its commit sees all of them.

DROP TRIGGER IF EXISTS ledger_entries_balanced ON ledger_entries;
DROP TRIGGER IF EXISTS ledger_transactions_has_entries ON ledger_transactions;

-- The database transaction that wrote a ledger transaction (txid_current(): the top-level one, also
-- inside a savepoint). 0 for the rows written before this migration, which were checked then.
ALTER TABLE ledger_transactions ADD COLUMN xact bigint NOT NULL DEFAULT 0;
ALTER TABLE ledger_transactions ALTER COLUMN xact SET DEFAULT txid_current();
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_id_xact UNIQUE (id, xact);
ALTER TABLE ledger_entries ADD COLUMN xact bigint NOT NULL DEFAULT 0;
ALTER TABLE ledger_entries ALTER COLUMN xact SET DEFAULT txid_current();
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_id_fkey;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_transaction_xact
  FOREIGN KEY (transaction_id, xact) REFERENCES ledger_transactions (id, xact);
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_id_currency_id_fkey;

-- Rounds and wallet calls: the game, its provider and the player are those of the session the server
-- authenticated (the wallet's own composite key still ties the round to its player and currency), so no
-- bet takes a KEY SHARE lock on the game's or the provider's row, shared by every player of the game.
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_provider_id_fkey;
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_game_id_fkey;
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_user_id_fkey;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_user_id_fkey;

-- Deposits: the wallet's composite key stands for the player and the currency (one foreign-key check on
-- the player's own wallet row instead of three, none on the currency's row that every deposit of it
-- shares). The ledger transactions a deposit names are checked at commit, so a deposit and its ledger
-- transaction can be written in either order within one database transaction.
ALTER TABLE deposits DROP CONSTRAINT deposits_wallet_id_fkey;
ALTER TABLE deposits DROP CONSTRAINT deposits_user_id_fkey;
ALTER TABLE deposits DROP CONSTRAINT deposits_currency_id_fkey;
ALTER TABLE deposits ADD CONSTRAINT deposits_wallet_user_currency
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id);
ALTER TABLE deposits ALTER CONSTRAINT deposits_pending_transaction_id_fkey DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE deposits ALTER CONSTRAINT deposits_settled_transaction_id_fkey DEFERRABLE INITIALLY DEFERRED;
