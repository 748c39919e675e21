-- Deposit limits applied when a deposit is credited, not only when its address is asked for: the part of
-- a confirmed deposit that does not fit in every deposit limit window is held apart, in the wallet's
-- `held` balance (its own ledger account, so the ledger stays double-entry). Held money is not playable
-- and does not count as deposited until it is released (server/domain/held-deposits.ts).

ALTER TABLE wallets ADD COLUMN held NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (held >= 0);

-- The part of a credited deposit put in `held` rather than available: the limits count amount - held_amount
-- at credited_at, and each release (deposit_releases) at its own time.
ALTER TABLE deposits ADD COLUMN held_amount NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (held_amount >= 0 AND held_amount <= amount);

CREATE TABLE deposit_releases (
  id bigserial PRIMARY KEY,
  wallet_id bigint NOT NULL REFERENCES wallets(id),
  user_id bigint NOT NULL REFERENCES users(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  amount NUMERIC(30,8) NOT NULL CHECK (amount > 0),
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  released_at timestamptz NOT NULL
);
CREATE INDEX deposit_releases_user_time ON deposit_releases (user_id, currency_id, released_at);

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('available', 'pending', 'bonus', 'held', 'house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments'));
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_check CHECK ((wallet_id IS NOT NULL) = (kind IN ('available', 'pending', 'bonus', 'held')));

CREATE OR REPLACE FUNCTION ledger_open_wallet_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (currency_id, kind, wallet_id)
  SELECT NEW.currency_id, kind, NEW.id FROM unnest(ARRAY['available', 'pending', 'bonus', 'held']) AS kind;
  RETURN NULL;
END
$$;

INSERT INTO ledger_accounts (currency_id, kind, wallet_id)
SELECT w.currency_id, 'held', w.id FROM wallets w ORDER BY w.id;
