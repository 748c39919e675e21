-- Players, their sessions, single-use email tokens and addresses.
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  username text NOT NULL,
  password_hash text,
  first_name text NOT NULL DEFAULT '',
  middle_name text,
  last_name text NOT NULL DEFAULT '',
  phone_code text,
  phone text,
  date_of_birth date,
  gender text CHECK (gender IN ('male', 'female', 'other')),
  address text,
  city text,
  state_code text,
  country_code text,
  zip_code text,
  profile_image_id text UNIQUE,
  profile_image_type text CHECK (profile_image_type IN ('jpeg', 'png')),
  email_verified_at timestamptz,
  active boolean NOT NULL DEFAULT true,
  referral_code text NOT NULL UNIQUE,
  referred_by_user_id bigint REFERENCES users(id),
  google_sub text UNIQUE,
  facebook_id text UNIQUE,
  self_excluded_until timestamptz,
  self_exclusion_permanent boolean NOT NULL DEFAULT false,
  session_limit_minutes integer CHECK (session_limit_minutes BETWEEN 15 AND 1440),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
CREATE UNIQUE INDEX users_username_unique ON users (lower(username));
-- '+351' and '351' are one calling code: the index compares them without the plus sign.
CREATE UNIQUE INDEX users_phone_unique ON users (ltrim(phone_code, '+'), phone) WHERE phone IS NOT NULL;

-- One row per issued access token (its jti); logout and self-exclusion revoke them.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Email verification and password reset tokens: only their SHA-256 is stored, each usable once.
CREATE TABLE user_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_tokens_user ON user_tokens (user_id, purpose);

CREATE TABLE addresses (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  label text,
  address text NOT NULL,
  city text NOT NULL,
  state_code text NOT NULL,
  country_code text NOT NULL,
  zip_code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX addresses_unique ON addresses (user_id, lower(address), lower(city), state_code, country_code, zip_code);
