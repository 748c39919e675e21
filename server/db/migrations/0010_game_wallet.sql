-- The seamless game wallet (server/domain/game-wallet.ts): game providers call the casino to take bets
-- and pay wins in the player's wallet, during a game session opened by casinoInitGame.

-- Each game provider signs its wallet calls with its own shared key (HMAC-SHA256 of the request body),
-- since the session id alone travels through the player's browser in the launch URL: without the key a
-- player could report their own wins. 256 random bits from two v4 UUIDs; an operator rotates it by hand.
ALTER TABLE providers ADD COLUMN wallet_secret text NOT NULL
  DEFAULT (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
  CHECK (char_length(wallet_secret) >= 32);

-- One game round, keyed by the provider's round id; it belongs to the session, player and wallet of its
-- first call. Stakes are kept by where they were paid from (available, then bonus), so a win is split in
-- the same proportion; rolled-back bets and wins are taken out again. closed: a bet or a win of the round
-- was rolled back, so later bets and wins are refused (a rollback may arrive before what it cancels).
CREATE TABLE game_rounds (
  id bigserial PRIMARY KEY,
  provider_id integer NOT NULL REFERENCES providers(id),
  round_id text NOT NULL CHECK (char_length(round_id) BETWEEN 1 AND 64),
  session_id text NOT NULL REFERENCES game_sessions(id),
  user_id bigint NOT NULL REFERENCES users(id),
  wallet_id bigint NOT NULL,
  currency_id integer NOT NULL,
  game_id bigint NOT NULL REFERENCES games(id),
  staked_available NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (staked_available >= 0),
  staked_bonus NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (staked_bonus >= 0),
  won NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (won >= 0),
  -- A win call (even of 0) settled the round; until then it is pending.
  settled boolean NOT NULL DEFAULT false,
  closed boolean NOT NULL DEFAULT false,
  free_spin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (provider_id, round_id),
  FOREIGN KEY (wallet_id, user_id, currency_id) REFERENCES wallets (id, user_id, currency_id)
);
-- Bet history, newest first.
CREATE INDEX game_rounds_player ON game_rounds (user_id, created_at DESC, id DESC);

-- Every wallet call accepted, keyed by (round, action, the provider's transaction id): a replay finds its
-- row and gets the first answer back (the balances stored with it) without moving anything. Rollbacks name
-- the bet or win they cancel in reference_id; one that arrives first is stored with nothing moved, and
-- the late original is then refused.
CREATE TABLE game_wallet_actions (
  id bigserial PRIMARY KEY,
  round_pk bigint NOT NULL REFERENCES game_rounds(id),
  action text NOT NULL CHECK (action IN ('bet', 'win', 'freeSpin', 'rollbackBet', 'rollbackWin')),
  transaction_id text NOT NULL CHECK (char_length(transaction_id) BETWEEN 1 AND 64),
  reference_id text CHECK (char_length(reference_id) BETWEEN 1 AND 64),
  user_id bigint NOT NULL REFERENCES users(id),
  amount NUMERIC(30,8) NOT NULL CHECK (amount >= 0),
  -- The part of amount paid from or to the bonus balance; the rest is the available balance's.
  bonus_amount NUMERIC(30,8) NOT NULL CHECK (bonus_amount >= 0 AND bonus_amount <= amount),
  -- SHA-256 of what the call asked for: the same transaction id with another request is refused.
  request_hash text NOT NULL,
  ledger_transaction_id bigint REFERENCES ledger_transactions(id),
  -- The wallet's balances right after this call: the answer a replay gets.
  available_after NUMERIC(30,8) NOT NULL CHECK (available_after >= 0),
  bonus_after NUMERIC(30,8) NOT NULL CHECK (bonus_after >= 0),
  created_at timestamptz NOT NULL,
  UNIQUE (round_pk, action, transaction_id),
  CHECK ((action IN ('rollbackBet', 'rollbackWin')) = (reference_id IS NOT NULL))
);
-- Bet and loss limits sum a player's stakes and wins over a rolling period.
CREATE INDEX game_wallet_actions_player ON game_wallet_actions (user_id, created_at);
CREATE INDEX game_wallet_actions_reference ON game_wallet_actions (round_pk, reference_id) WHERE reference_id IS NOT NULL;
