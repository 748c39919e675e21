-- The functions, views and triggers of today's schema are each a file of server/db/schema/, applied by
-- migrate() after the numbered migrations whenever its text changed: a file's name and the SHA-256 of the
-- text last applied from it.
CREATE TABLE schema_objects (
  name text PRIMARY KEY,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  applied_at timestamptz NOT NULL DEFAULT now()
);
