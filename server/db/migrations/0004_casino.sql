-- The game catalogue (providers, categories, sub-categories, games), players' favourites and
-- initialised game sessions.

CREATE TABLE providers (
  id serial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE categories (
  id serial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  sort_order integer NOT NULL DEFAULT 0
);

CREATE TABLE sub_categories (
  id serial PRIMARY KEY,
  category_id integer NOT NULL REFERENCES categories(id),
  name text NOT NULL,
  slug text NOT NULL,
  sort_order integer NOT NULL DEFAULT 0,
  UNIQUE (category_id, slug),
  -- Target of the games' composite key below: a game's sub-category belongs to its category.
  UNIQUE (id, category_id)
);

CREATE TABLE games (
  id bigserial PRIMARY KEY,
  identifier text NOT NULL UNIQUE,
  name text NOT NULL,
  -- Search is a case-insensitive substring match; lower-casing once on write keeps a scan of tens of
  -- thousands of names to a few milliseconds (pg_trgm is not available on PGlite).
  search_name text GENERATED ALWAYS AS (lower(name)) STORED,
  slug text NOT NULL,
  provider_id integer NOT NULL REFERENCES providers(id),
  category_id integer NOT NULL REFERENCES categories(id),
  sub_category_id integer,
  has_demo boolean NOT NULL DEFAULT true,
  devices text[] NOT NULL DEFAULT ARRAY['desktop', 'mobile'] CHECK (devices <@ ARRAY['desktop', 'mobile'] AND cardinality(devices) > 0),
  rtp NUMERIC(5,2) CHECK (rtp > 0 AND rtp <= 100),
  thumbnail_hue integer NOT NULL DEFAULT 0 CHECK (thumbnail_hue BETWEEN 0 AND 359),
  active boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (sub_category_id, category_id) REFERENCES sub_categories(id, category_id)
);
-- The listing pages active games by (sort_order, name, id), optionally within one category,
-- sub-category or provider: each has an index in that order, so a page is an index range and a count
-- an index-only scan.
CREATE INDEX games_listing ON games (sort_order, name, id) WHERE active;
CREATE INDEX games_category_listing ON games (category_id, sort_order, name, id) WHERE active;
CREATE INDEX games_sub_category_listing ON games (sub_category_id, sort_order, name, id) WHERE active;
CREATE INDEX games_provider_listing ON games (provider_id, sort_order, name, id) WHERE active;
-- Prefix searches (LIKE 'abc%') can use this; substring searches scan search_name.
CREATE INDEX games_search_name ON games (search_name text_pattern_ops);

CREATE TABLE favorite_games (
  user_id bigint NOT NULL REFERENCES users(id),
  game_id bigint NOT NULL REFERENCES games(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, game_id)
);
CREATE INDEX favorite_games_game ON favorite_games (game_id);

CREATE TABLE game_sessions (
  -- Random and unguessable: it is the bearer of the launch URL.
  id text PRIMARY KEY CHECK (length(id) >= 32),
  user_id bigint REFERENCES users(id),
  game_id bigint NOT NULL REFERENCES games(id),
  demo boolean NOT NULL,
  currency_code text REFERENCES currencies(code),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- Real-money play always belongs to a player.
  CHECK (demo OR user_id IS NOT NULL)
);
CREATE INDEX game_sessions_user ON game_sessions (user_id, created_at DESC) WHERE user_id IS NOT NULL;
