-- Reference data the whole product reads: settings, languages, currencies, content pages, banners,
-- countries and their states, payment providers; plus the players' notifications.

-- One typed row (id = 1): every figure has its own column and type, so no caller parses strings.
CREATE TABLE settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  site_name text NOT NULL,
  min_deposit NUMERIC(30,8) NOT NULL CHECK (min_deposit > 0),
  min_withdraw NUMERIC(30,8) NOT NULL CHECK (min_withdraw > 0),
  max_transfer_amount NUMERIC(30,8) NOT NULL CHECK (max_transfer_amount > 0),
  withdraw_fee NUMERIC(30,8) NOT NULL CHECK (withdraw_fee >= 0),
  deposit_confirmations integer NOT NULL CHECK (deposit_confirmations > 0),
  referral_reward NUMERIC(30,8) NOT NULL CHECK (referral_reward >= 0),
  referral_limit integer NOT NULL CHECK (referral_limit >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE languages (
  code text PRIMARY KEY CHECK (code IN ('en', 'pt', 'es')),
  name text NOT NULL,
  native_name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 0
);
-- At most one default language.
CREATE UNIQUE INDEX languages_one_default ON languages (is_default) WHERE is_default;

CREATE TABLE currencies (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{2,10}$'),
  name text NOT NULL,
  decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 8),
  network text NOT NULL,
  min_deposit NUMERIC(30,8) NOT NULL CHECK (min_deposit > 0),
  min_withdraw NUMERIC(30,8) NOT NULL CHECK (min_withdraw > 0),
  withdraw_fee NUMERIC(30,8) NOT NULL CHECK (withdraw_fee >= 0),
  enabled boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 0
);

CREATE TABLE pages (
  id serial PRIMARY KEY,
  slug text NOT NULL CHECK (slug IN ('faq', 'terms', 'privacy', 'about', 'support')),
  locale text NOT NULL REFERENCES languages(code),
  title text NOT NULL,
  content text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (slug, locale)
);

CREATE TABLE banners (
  id serial PRIMARY KEY,
  -- Natural key so the seed can be re-run without duplicating banners.
  key text NOT NULL UNIQUE,
  title text NOT NULL,
  subtitle text,
  -- A path on this site or a data: URI; the seed's banners carry generated SVGs.
  image_url text NOT NULL,
  link_url text,
  sort_order integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE countries (
  code char(2) PRIMARY KEY,
  name text NOT NULL,
  -- Calling code as players type it: '+351', '+1-684'.
  phone_code text NOT NULL
);

CREATE TABLE states (
  country_code char(2) NOT NULL REFERENCES countries(code),
  code text NOT NULL,
  name text NOT NULL,
  PRIMARY KEY (country_code, code)
);

CREATE TABLE payment_providers (
  id serial PRIMARY KEY,
  key text NOT NULL UNIQUE,
  name text NOT NULL,
  deposit_allowed boolean NOT NULL DEFAULT true,
  withdraw_allowed boolean NOT NULL DEFAULT true,
  active boolean NOT NULL DEFAULT true
);

CREATE TABLE user_notifications (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  title text NOT NULL,
  message text NOT NULL,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Newest first per player; id breaks ties between notifications created in the same instant.
CREATE INDEX user_notifications_user_created ON user_notifications (user_id, created_at DESC, id DESC);
