-- One wallet per player per currency; balances are cached here and never negative.
CREATE TABLE wallets (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  currency_id integer NOT NULL REFERENCES currencies(id),
  available NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (available >= 0),
  pending NUMERIC(30,8) NOT NULL DEFAULT 0 CHECK (pending >= 0),
  selected boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, currency_id)
);
CREATE UNIQUE INDEX wallets_one_selected ON wallets (user_id) WHERE selected;

CREATE TABLE document_labels (
  id serial PRIMARY KEY,
  key text NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL,
  required boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 0
);

-- Files live under the data folder by stored_name; the player's file name is kept for display only.
CREATE TABLE documents (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  document_label_id integer NOT NULL REFERENCES document_labels(id),
  status text NOT NULL DEFAULT 'Under Review' CHECK (status IN ('Under Review', 'Approved', 'Rejected')),
  file_name text NOT NULL,
  stored_name text NOT NULL UNIQUE,
  file_type text NOT NULL CHECK (file_type IN ('jpeg', 'png', 'pdf')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz
);
-- A label holds at most one document that is not rejected: submitted documents cannot be replaced.
CREATE UNIQUE INDEX documents_one_live_per_label ON documents (user_id, document_label_id) WHERE status <> 'Rejected';

-- Deposit, bet and loss limits. A decrease applies at once; an increase or removal waits 24 hours as pending.
CREATE TABLE gambling_limits (
  user_id bigint NOT NULL REFERENCES users(id),
  kind text NOT NULL CHECK (kind IN ('deposit', 'bet', 'loss')),
  period text NOT NULL CHECK (period IN ('daily', 'weekly', 'monthly')),
  amount NUMERIC(30,8) CHECK (amount > 0),
  pending boolean NOT NULL DEFAULT false,
  pending_amount NUMERIC(30,8) CHECK (pending_amount > 0),
  pending_effective_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind, period),
  CHECK (pending = (pending_effective_at IS NOT NULL))
);

INSERT INTO document_labels (key, name, description, required, sort_order) VALUES
  ('identity_front', 'Proof of identity (front)', 'The front of your passport, national identity card or driving licence.', true, 1),
  ('identity_back', 'Proof of identity (back)', 'The back of your national identity card or driving licence.', true, 2),
  ('proof_of_address', 'Proof of address', 'A utility bill or bank statement from the last three months showing your name and address.', true, 3),
  ('selfie', 'Selfie with identity document', 'A photo of you holding the identity document shown on the front.', false, 4);
