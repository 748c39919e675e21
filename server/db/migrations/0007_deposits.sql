-- Crypto deposits through a payment provider (server/domain/deposits.ts, server/providers/payment.ts).
--
-- A player gets one deposit address per wallet and provider, created at the provider on the first
-- paymentDeposit and returned unchanged afterwards; the provider calls the webhook URL recorded with it.
CREATE TABLE deposit_addresses (
  id bigserial PRIMARY KEY,
  wallet_id bigint NOT NULL REFERENCES wallets(id),
  provider text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 50),
  address text NOT NULL CHECK (char_length(address) BETWEEN 1 AND 128),
  network text NOT NULL,
  webhook_url text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (wallet_id, provider),
  UNIQUE (provider, address)
);

-- One row per incoming transfer the provider reported, keyed by the provider's transaction id.
-- status: pending (seen, waiting for confirmations; the amount is in the wallet's pending balance),
-- credited (moved to available, exactly once), below_minimum (under the currency's minimum deposit:
-- recorded, never credited and never refunded, SPEC §9; it never shows in the pending balance).
-- Amounts are what the chain carried; confirmations only grow.
CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  provider_tx_id text NOT NULL CHECK (char_length(provider_tx_id) BETWEEN 1 AND 200),
  deposit_address_id bigint NOT NULL REFERENCES deposit_addresses(id),
  wallet_id bigint NOT NULL REFERENCES wallets(id),
  user_id bigint NOT NULL REFERENCES users(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  amount NUMERIC(30,8) NOT NULL CHECK (amount > 0),
  confirmations integer NOT NULL CHECK (confirmations >= 0),
  status text NOT NULL CHECK (status IN ('pending', 'credited', 'below_minimum')),
  -- The ledger transactions that moved it: provider_clearing -> pending, then pending -> available
  -- (or, below the minimum, provider_clearing -> adjustments once confirmed).
  pending_transaction_id bigint REFERENCES ledger_transactions(id),
  settled_transaction_id bigint REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  credited_at timestamptz,
  UNIQUE (provider, provider_tx_id),
  CHECK ((status = 'credited') = (credited_at IS NOT NULL))
);
-- Deposit limits sum a player's credited deposits over a period.
CREATE INDEX deposits_user_credited ON deposits (user_id, credited_at) WHERE status = 'credited';

-- The payment simulator's own "blockchain" (server/providers/payment-simulator.ts), kept in the database
-- so that a restart keeps its addresses, transfers and confirmations. Used only with PAYMENT_PROVIDER=simulator.
CREATE TABLE simulator_addresses (
  address text PRIMARY KEY,
  currency_code text NOT NULL,
  network text NOT NULL,
  webhook_url text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE simulator_transfers (
  tx_id text PRIMARY KEY,
  address text NOT NULL REFERENCES simulator_addresses(address),
  amount NUMERIC(30,8) NOT NULL CHECK (amount > 0),
  confirmations integer NOT NULL CHECK (confirmations >= 0),
  -- The server answered a webhook with a final status (credited or below the minimum): mined blocks
  -- stop calling back for it (an explicit /dev/chain/confirm still does).
  settled boolean NOT NULL DEFAULT false,
  -- HTTP status of the last webhook delivery; null when none could be delivered.
  last_callback_status integer,
  created_at timestamptz NOT NULL
);
CREATE INDEX simulator_transfers_unsettled ON simulator_transfers (created_at) WHERE NOT settled;
