-- Double-entry, append-only ledger. Every balance change is one ledger transaction whose entries sum to
-- zero per currency; transactions and entries are never updated or deleted (a correction is a new
-- transaction). Player balances stay cached on wallets (available, pending and now bonus, each never
-- negative) and are changed only by server/domain/ledger.ts in the same database transaction as the
-- entries; `npm run ledger:check` proves every cached balance equals the sum of its entries.
--
-- Signs: an entry adds its amount to its account. A player account's balance is what the casino owes the
-- player (never negative). System accounts take any sign: provider_clearing goes negative as deposits
-- arrive (coins held at the payment provider), house goes up with bets and down with wins.

ALTER TABLE wallets ADD COLUMN bonus NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (bonus >= 0);
-- Targets of the composite foreign keys below: an account or a transaction cannot name a wallet with
-- another currency or another owner than its own.
ALTER TABLE wallets ADD CONSTRAINT wallets_id_currency UNIQUE (id, currency_id);
ALTER TABLE wallets ADD CONSTRAINT wallets_id_user_currency UNIQUE (id, user_id, currency_id);

-- Wallet accounts (available, pending, bonus: one of each per wallet, cached in the wallet's column of
-- the same name) and system accounts (one of each kind per currency). System balances are not cached:
-- every bet would otherwise lock the one house row of its currency; they are summed from the entries.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  currency_id integer NOT NULL REFERENCES currencies(id),
  kind text NOT NULL CHECK (kind IN ('available', 'pending', 'bonus', 'house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments')),
  wallet_id bigint,
  UNIQUE (id, currency_id),
  FOREIGN KEY (wallet_id, currency_id) REFERENCES wallets (id, currency_id),
  CHECK ((wallet_id IS NOT NULL) = (kind IN ('available', 'pending', 'bonus')))
);
CREATE UNIQUE INDEX ledger_accounts_wallet_kind ON ledger_accounts (wallet_id, kind) WHERE wallet_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_system_kind ON ledger_accounts (currency_id, kind) WHERE wallet_id IS NULL;

CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  -- SPEC §3 "transaction ID": the public reference a player quotes to support.
  public_id uuid NOT NULL UNIQUE,
  -- What the server did, finer than the player-visible type: 'deposit', 'withdraw.request', 'bet', ...
  kind text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_.]{0,49}$'),
  -- A replay of a posting with the same scope and key returns the first transaction and moves nothing;
  -- request_hash (SHA-256 of the posting) tells a replay from a different posting reusing the key.
  idempotency_scope text CHECK (char_length(idempotency_scope) BETWEEN 1 AND 200),
  idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  request_hash text NOT NULL,
  -- The earlier transaction this one settles, refunds, rolls back or corrects.
  related_transaction_id bigint REFERENCES ledger_transactions(id),
  -- The player-visible record (SPEC §3), all set or all null (internal transactions). amount is
  -- unsigned; before and after are the wallet's available balance around this transaction.
  user_id bigint,
  wallet_id bigint,
  currency_id integer,
  type text CHECK (type IN ('deposit', 'withdraw', 'casino', 'bonus', 'referral')),
  action_type text CHECK (action_type IN ('deposit', 'withdraw', 'withdrawFee', 'withdrawRefund', 'bet', 'win', 'freeSpin',
    'rollbackBet', 'rollbackWin', 'bonus', 'bonusForfeit', 'bonusConversion', 'referral')),
  status text CHECK (status IN ('pending', 'completed', 'failed', 'cancelled')),
  amount NUMERIC(30,8) CHECK (amount >= 0),
  before_balance NUMERIC(30,8) CHECK (before_balance >= 0),
  after_balance NUMERIC(30,8) CHECK (after_balance >= 0),
  game_identifier text CHECK (char_length(game_identifier) BETWEEN 1 AND 100),
  -- From the application's clock (tests move it), never the database's.
  created_at timestamptz NOT NULL,
  UNIQUE (idempotency_scope, idempotency_key),
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id),
  CHECK ((idempotency_scope IS NULL) = (idempotency_key IS NULL)),
  CHECK (num_nulls(user_id, wallet_id, currency_id, type, action_type, status, amount, before_balance, after_balance) IN (0, 9)),
  CHECK (
    type IS NULL
    OR (type = 'deposit' AND action_type = 'deposit')
    OR (type = 'withdraw' AND action_type IN ('withdraw', 'withdrawFee', 'withdrawRefund'))
    OR (type = 'casino' AND action_type IN ('bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin'))
    OR (type = 'bonus' AND action_type IN ('bonus', 'bonusForfeit', 'bonusConversion'))
    OR (type = 'referral' AND action_type = 'referral')
  ),
  -- "The game's identifier for casino entries, else null."
  CHECK (CASE WHEN type = 'casino' THEN game_identifier IS NOT NULL ELSE game_identifier IS NULL END)
);
CREATE INDEX ledger_transactions_player ON ledger_transactions (user_id, created_at DESC, id DESC) WHERE user_id IS NOT NULL;
CREATE INDEX ledger_transactions_related ON ledger_transactions (related_transaction_id) WHERE related_transaction_id IS NOT NULL;

-- One net entry per account per transaction; the currency is the account's (composite foreign key).
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  account_id bigint NOT NULL,
  currency_id integer NOT NULL,
  amount NUMERIC(30,8) NOT NULL CHECK (amount <> 0),
  UNIQUE (transaction_id, account_id),
  FOREIGN KEY (account_id, currency_id) REFERENCES ledger_accounts (id, currency_id)
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id);

-- Every wallet and every currency has its accounts from the moment it exists.
CREATE FUNCTION ledger_open_wallet_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (currency_id, kind, wallet_id)
  SELECT NEW.currency_id, kind, NEW.id FROM unnest(ARRAY['available', 'pending', 'bonus']) AS kind;
  RETURN NULL;
END
$$;

CREATE FUNCTION ledger_open_system_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (currency_id, kind)
  SELECT NEW.id, kind FROM unnest(ARRAY['house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments']) AS kind;
  RETURN NULL;
END
$$;

CREATE TRIGGER wallets_open_ledger_accounts AFTER INSERT ON wallets
  FOR EACH ROW EXECUTE FUNCTION ledger_open_wallet_accounts();
CREATE TRIGGER currencies_open_ledger_accounts AFTER INSERT ON currencies
  FOR EACH ROW EXECUTE FUNCTION ledger_open_system_accounts();

INSERT INTO ledger_accounts (currency_id, kind)
SELECT c.id, k.kind FROM currencies c
CROSS JOIN unnest(ARRAY['house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments']) AS k(kind)
ORDER BY c.id;

INSERT INTO ledger_accounts (currency_id, kind, wallet_id)
SELECT w.currency_id, k.kind, w.id FROM wallets w
CROSS JOIN unnest(ARRAY['available', 'pending', 'bonus']) AS k(kind)
ORDER BY w.id;

-- Balances cached before the ledger existed (no operation wrote any, but a hand-edited database might
-- hold some) get an opening transaction against the adjustments account, so the invariant holds from here.
CREATE TEMPORARY TABLE ledger_opening ON COMMIT DROP AS
SELECT w.id AS wallet_id, w.currency_id, w.available, w.pending, nextval('ledger_transactions_id_seq') AS transaction_id
FROM wallets w WHERE w.available <> 0 OR w.pending <> 0
ORDER BY w.id;

INSERT INTO ledger_transactions (id, public_id, kind, request_hash, created_at)
SELECT transaction_id, gen_random_uuid(), 'opening_balance', 'migration:0006_ledger', now() FROM ledger_opening;

INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
SELECT o.transaction_id, a.id, o.currency_id, o.available
FROM ledger_opening o JOIN ledger_accounts a ON a.wallet_id = o.wallet_id AND a.kind = 'available' WHERE o.available <> 0
UNION ALL
SELECT o.transaction_id, a.id, o.currency_id, o.pending
FROM ledger_opening o JOIN ledger_accounts a ON a.wallet_id = o.wallet_id AND a.kind = 'pending' WHERE o.pending <> 0
UNION ALL
SELECT o.transaction_id, a.id, o.currency_id, -(o.available + o.pending)
FROM ledger_opening o JOIN ledger_accounts a ON a.wallet_id IS NULL AND a.currency_id = o.currency_id AND a.kind = 'adjustments';
