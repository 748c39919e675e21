-- Crypto withdrawals through a payment provider (server/domain/withdrawals.ts, server/providers/payment.ts).
--
-- One row per accepted request. status:
--   requested: amount + fee held in the wallet's pending balance; the provider is being asked (spend
--              request, then its confirmation);
--   pending:   the provider confirmed the spend request; its outcome arrives by webhook;
--   completed: paid out (pending -> provider_clearing, fee pending -> fees);
--   failed:    the provider refused or reported a failure; amount + fee went back to available.
-- The spend request id is the idempotency key of the provider's callbacks.
CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  provider text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 50),
  wallet_id bigint NOT NULL REFERENCES wallets(id),
  user_id bigint NOT NULL REFERENCES users(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  address text NOT NULL CHECK (char_length(address) BETWEEN 1 AND 128),
  amount NUMERIC(30,8) NOT NULL CHECK (amount > 0),
  fee NUMERIC(30,8) NOT NULL CHECK (fee >= 0),
  status text NOT NULL CHECK (status IN ('requested', 'pending', 'completed', 'failed')),
  spend_request_id text CHECK (char_length(spend_request_id) BETWEEN 1 AND 64),
  -- The chain transaction of a completed payout, when the provider tells it.
  provider_tx_id text CHECK (char_length(provider_tx_id) BETWEEN 1 AND 200),
  -- Why it failed: the provider's refusal (unavailable, insufficient_funds, invalid_address, rejected)
  -- or 'provider_failed' for a failure reported by webhook.
  failure text,
  -- The player's optional Idempotency-Key header and a hash of the request it came with: a replay with
  -- the same key and body answers this row's first response.
  idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  request_hash text,
  -- The ledger transactions: the hold (available -> pending), then either the payout and its fee or
  -- the refund (pending -> available).
  hold_transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  payout_transaction_id bigint REFERENCES ledger_transactions(id),
  fee_transaction_id bigint REFERENCES ledger_transactions(id),
  refund_transaction_id bigint REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (provider, spend_request_id),
  UNIQUE (user_id, idempotency_key),
  CHECK ((status = 'failed') = (refund_transaction_id IS NOT NULL)),
  CHECK (status <> 'completed' OR payout_transaction_id IS NOT NULL),
  CHECK (status NOT IN ('pending', 'completed') OR spend_request_id IS NOT NULL)
);
-- SPEC §9: at most one open withdrawal per wallet, whatever races the checks.
CREATE UNIQUE INDEX withdrawals_one_open ON withdrawals (wallet_id) WHERE status IN ('requested', 'pending');

-- The payment simulator's payouts (server/providers/payment-simulator.ts), like its chain tables.
-- The hot wallet per currency is what the simulated provider can pay out: a float, plus every incoming
-- transfer, less every payout confirmed and not failed. payouts_enabled = false makes it refuse payouts
-- in that currency.
CREATE TABLE simulator_hot_wallets (
  currency_code text PRIMARY KEY,
  balance NUMERIC(30,8) NOT NULL CHECK (balance >= 0),
  payouts_enabled boolean NOT NULL DEFAULT true
);

-- status: created (spend request priced, nothing moved), confirmed (drawn from the hot wallet, on its
-- way), sent or failed (settled by /dev/withdrawals/settle; the webhook carries the outcome).
CREATE TABLE simulator_payouts (
  spend_request_id text PRIMARY KEY,
  withdrawal_id bigint NOT NULL,
  currency_code text NOT NULL,
  network text NOT NULL,
  address text NOT NULL,
  amount NUMERIC(30,8) NOT NULL CHECK (amount > 0),
  webhook_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'confirmed', 'sent', 'failed')),
  tx_id text,
  -- HTTP status of the last webhook delivery; null when none was delivered.
  last_callback_status integer,
  created_at timestamptz NOT NULL,
  -- A retried request of the same withdrawal gets the same spend request.
  UNIQUE (withdrawal_id)
);
