-- Bonuses (SPEC: bonuses and referrals): the offer catalogue, the bonuses players claimed, the referral
-- rewards paid, and the results of player requests sent with an Idempotency-Key header.

-- An offer. Fixed offers carry amount; deposit offers carry percentage of a deposit of at least
-- min_deposit, capped at amount when set. The money is in currency_id and must be wagered
-- wagering_multiplier times within valid_days of activation (and never past valid_till).
CREATE TABLE bonuses (
  id serial PRIMARY KEY,
  -- Stable name of a seeded offer, so that seeding again adds nothing; null for offers made later.
  seed_key text UNIQUE,
  type text NOT NULL CHECK (type IN ('joining', 'daily', 'deposit', 'loyalty', 'bet', 'referral')),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  amount NUMERIC(30,8) CHECK (amount > 0),
  percentage NUMERIC(7,4) CHECK (percentage > 0 AND percentage <= 999),
  min_deposit NUMERIC(30,8) CHECK (min_deposit > 0),
  currency_id integer NOT NULL REFERENCES currencies(id),
  wagering_multiplier integer NOT NULL CHECK (wagering_multiplier BETWEEN 0 AND 1000),
  valid_days integer NOT NULL CHECK (valid_days BETWEEN 1 AND 3650),
  valid_till timestamptz,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A deposit offer is a percentage of a qualifying deposit; a referral offer pays settings.referral_reward
  -- per referred player (so it has no amount of its own); every other offer is a fixed amount.
  CHECK (CASE type WHEN 'deposit' THEN percentage IS NOT NULL AND min_deposit IS NOT NULL
                   WHEN 'referral' THEN amount IS NULL AND percentage IS NULL AND min_deposit IS NULL
                   ELSE amount IS NOT NULL AND percentage IS NULL AND min_deposit IS NULL END)
);
CREATE INDEX bonuses_type ON bonuses (type, id);

-- A bonus a player claimed, in one of their wallets. At most one is active per player; later claims
-- queue and activate, oldest first, when the active one ends. A deposit bonus is active but unfunded
-- (deposit_id null, amount 0) until a qualifying deposit is credited.
CREATE TABLE user_bonuses (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  bonus_id integer NOT NULL REFERENCES bonuses(id),
  wallet_id bigint NOT NULL,
  currency_id integer NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'queued', 'completed', 'forfeited', 'expired')),
  amount NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (amount >= 0),
  wagered_amount NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (wagered_amount >= 0),
  amount_to_wager NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (amount_to_wager >= 0),
  claimed_at timestamptz NOT NULL,
  activated_at timestamptz,
  expire_at timestamptz,
  ended_at timestamptz,
  deposit_id bigint REFERENCES deposits(id),
  credit_transaction_id bigint REFERENCES ledger_transactions(id),
  end_transaction_id bigint REFERENCES ledger_transactions(id),
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id),
  CHECK (status <> 'queued' OR (activated_at IS NULL AND expire_at IS NULL)),
  CHECK ((status IN ('active', 'queued')) = (ended_at IS NULL))
);
CREATE UNIQUE INDEX user_bonuses_one_active ON user_bonuses (user_id) WHERE status = 'active';
CREATE INDEX user_bonuses_user ON user_bonuses (user_id, id);
CREATE INDEX user_bonuses_queue ON user_bonuses (user_id, id) WHERE status = 'queued';

-- Referral rewards paid: referred_count is the running total of referred players paid for, so a
-- claim pays for (referred players up to the limit) - (the highest referred_count so far).
CREATE TABLE referral_claims (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  wallet_id bigint NOT NULL REFERENCES wallets(id),
  referred_count integer NOT NULL CHECK (referred_count > 0),
  paid_count integer NOT NULL CHECK (paid_count > 0),
  amount NUMERIC(30,8) NOT NULL CHECK (amount >= 0),
  transaction_id bigint REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, referred_count)
);

-- The first answer to a player's money request sent with an Idempotency-Key header: a replay gets it
-- back and changes nothing.
CREATE TABLE bonus_request_results (
  scope text NOT NULL,
  key text NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
