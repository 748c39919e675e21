-- The built-in game provider (server/games): which engine a catalogue title runs, the players' provably
-- fair seed pairs, house rounds and demo play money. House games move real money only through the
-- signed seamless game wallet (0010) over HTTP, like any outside provider: nothing here is money.

-- The engine a title runs on; null for a title no engine can honestly stand in for (live dealers, sports,
-- card and table games): its game page says so instead of opening an empty frame. A slot title carries
-- its skin (symbols, reels, paytable, return), written by the seed from the game and its rtp.
ALTER TABLE games ADD COLUMN engine text CHECK (engine IN ('dice', 'limbo', 'mines', 'plinko', 'slot'));
ALTER TABLE games ADD COLUMN slot_skin jsonb CHECK (slot_skin IS NULL OR engine = 'slot');

-- Games seeded before this migration: every slot is a skin of the slot engine (its skin is written by the
-- seed at the next start), the catalogue's dice tables run the Dice engine.
UPDATE games g SET engine = 'slot' FROM categories c WHERE c.id = g.category_id AND c.slug = 'slots';
UPDATE games g SET engine = 'dice' FROM sub_categories s WHERE s.id = g.sub_category_id AND s.slug = 'dice';

-- Provably fair seed pairs. The server seed (32 random bytes as 64 lowercase hex) is kept secret and only
-- its SHA-256 is shown until the pair is rotated (revealed_at); next_nonce counts the pair's played
-- rounds from 0. One active pair per player (real money) or per demo session (visitors play demo without
-- an account).
CREATE TABLE house_seed_pairs (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users(id),
  demo_session_id text REFERENCES game_sessions(id),
  server_seed text NOT NULL CHECK (server_seed ~ '^[0-9a-f]{64}$'),
  server_seed_hash text NOT NULL CHECK (server_seed_hash ~ '^[0-9a-f]{64}$'),
  client_seed text NOT NULL CHECK (char_length(client_seed) BETWEEN 1 AND 64),
  next_nonce integer NOT NULL DEFAULT 0 CHECK (next_nonce >= 0),
  created_at timestamptz NOT NULL,
  revealed_at timestamptz,
  CHECK ((user_id IS NULL) <> (demo_session_id IS NULL))
);
CREATE UNIQUE INDEX house_seed_pairs_player ON house_seed_pairs (user_id) WHERE revealed_at IS NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX house_seed_pairs_demo ON house_seed_pairs (demo_session_id) WHERE revealed_at IS NULL AND demo_session_id IS NOT NULL;

-- One round of a house game. Real money: the bet is sent to the wallet first (state betting); once it is
-- taken the round gets its seed pair and nonce and its outcome (Mines: open until cashed or busted), then
-- the win is sent (settling) and confirmed (settled). A bet refused, or unknown and rolled back, leaves the
-- round void with no nonce: only played rounds consume one. round_id is the wallet's round id, so the bet
-- history (game_rounds) finds the round's fairness data by it. Demo rounds move play money in
-- house_demo_balances in the same transaction and never reach the wallet.
CREATE TABLE house_rounds (
  id bigserial PRIMARY KEY,
  round_id text NOT NULL UNIQUE CHECK (char_length(round_id) BETWEEN 1 AND 64),
  session_id text NOT NULL REFERENCES game_sessions(id),
  game_id bigint NOT NULL REFERENCES games(id),
  user_id bigint REFERENCES users(id),
  demo boolean NOT NULL,
  engine text NOT NULL CHECK (engine IN ('dice', 'limbo', 'mines', 'plinko', 'slot')),
  currency_code text,
  bet NUMERIC(30,8) NOT NULL CHECK (bet > 0),
  params jsonb NOT NULL,
  seed_pair_id bigint REFERENCES house_seed_pairs(id),
  nonce integer CHECK (nonce >= 0),
  -- The engine's outcome (Mines: where the mines are, never shown before the round ends).
  outcome jsonb,
  -- The round's multiplier as a decimal (rounded down to 8 decimals) and what it paid.
  multiplier text,
  payout NUMERIC(30,8) CHECK (payout >= 0),
  state text NOT NULL CHECK (state IN ('betting', 'open', 'settling', 'settled', 'void')),
  -- Mines: the tiles revealed so far, and how it ended.
  revealed integer[] NOT NULL DEFAULT '{}',
  mines_end text CHECK (mines_end IN ('cashed', 'busted')),
  -- The wallet calls' transaction ids (the wallet is idempotent on them: a retry repeats the same id).
  bet_transaction_id text,
  win_transaction_id text,
  rollback_transaction_id text,
  -- Why a round is void: the wallet's refusal code, or GAME_WALLET_UNAVAILABLE.
  failure_code text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (seed_pair_id, nonce),
  CHECK (demo = (user_id IS NULL)),
  CHECK ((seed_pair_id IS NULL) = (nonce IS NULL)),
  CHECK (state IN ('betting', 'void') OR nonce IS NOT NULL)
);
-- A session's open Mines round, and a player's rounds whose wallet call is still to be resolved.
CREATE INDEX house_rounds_session ON house_rounds (session_id, created_at DESC);
CREATE INDEX house_rounds_unresolved ON house_rounds (user_id) WHERE state IN ('betting', 'settling');

-- Play money of a demo session: 1000 to start, never the wallet.
CREATE TABLE house_demo_balances (
  session_id text PRIMARY KEY REFERENCES game_sessions(id),
  balance NUMERIC(30,8) NOT NULL CHECK (balance >= 0),
  updated_at timestamptz NOT NULL
);
