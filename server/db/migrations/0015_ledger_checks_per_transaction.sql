-- The ledger's database checks, once per ledger transaction instead of once per entry row, and no
-- foreign-key checks onto rows that every bet or deposit would otherwise share.
--
-- Before: two deferred row triggers (one per entry, one per transaction) ran the same two queries each,
-- and every entry's foreign key onto its account took a KEY SHARE lock on that account: for a bet, the
-- currency's one house account, shared by every player. Now one deferred constraint trigger per ledger
-- transaction checks at commit, in one query, that the transaction has two entries or more, that each
-- entry's account exists in the entry's currency, and that the entries sum to zero per currency.
-- Entries can only be written in the database transaction that wrote their ledger transaction (the
-- composite foreign key onto (id, xact) below), so the check at its commit sees all of them.

DROP TRIGGER ledger_entries_balanced ON ledger_entries;
DROP TRIGGER ledger_transactions_has_entries ON ledger_transactions;
DROP FUNCTION ledger_assert_transaction_balanced();

CREATE FUNCTION ledger_assert_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry_count integer := 0;
  per_currency record;
BEGIN
  FOR per_currency IN
    SELECT e.currency_id, count(*)::integer AS entries, sum(e.amount) AS total,
      bool_or(a.id IS NULL OR a.currency_id <> e.currency_id) AS foreign_account
    FROM ledger_entries e LEFT JOIN ledger_accounts a ON a.id = e.account_id
    WHERE e.transaction_id = NEW.id GROUP BY e.currency_id
  LOOP
    IF per_currency.foreign_account THEN
      RAISE EXCEPTION 'ledger transaction % has an entry on an account that is not of its currency %', NEW.id, per_currency.currency_id
        USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_entries_account_currency';
    END IF;
    IF per_currency.total <> 0 THEN
      RAISE EXCEPTION 'ledger transaction % does not balance: its entries in currency % sum to %', NEW.id, per_currency.currency_id, per_currency.total
        USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_balanced';
    END IF;
    entry_count := entry_count + per_currency.entries;
  END LOOP;
  IF entry_count < 2 THEN
    RAISE EXCEPTION 'ledger transaction % has % entries; a balance change needs at least two', NEW.id, entry_count
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transactions_has_entries';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_assert_transaction_balanced();

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
