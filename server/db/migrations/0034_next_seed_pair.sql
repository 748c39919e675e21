-- The next seed pair, shown beside the active one (server/games/seeds.ts). Its server seed is drawn when the
-- active pair starts and only its SHA-256 is shown; its client seed is the player's to change at any time
-- (the active pair's until then). Rotating reveals the active pair and makes the next one active as shown,
-- so the server seed of every pair is fixed before the player picks its client seed. A revealed pair keeps
-- no next seeds: its next pair is the active (or a later revealed) row.
ALTER TABLE house_seed_pairs ADD COLUMN next_server_seed text CHECK (next_server_seed ~ '^[0-9a-f]{64}$');
ALTER TABLE house_seed_pairs ADD COLUMN next_server_seed_hash text CHECK (next_server_seed_hash ~ '^[0-9a-f]{64}$');
ALTER TABLE house_seed_pairs ADD COLUMN next_client_seed text CHECK (char_length(next_client_seed) BETWEEN 1 AND 64);

-- Each pair active now gets its next server seed: 32 bytes of the server's cryptographic generator (the one
-- gen_random_uuid draws from; a version 4 UUID has 30 random hex digits out of 32, so three give the 64
-- digits), its SHA-256 taken of the 64 characters as newServerSeed() and sha256Hex() do it, and the active
-- client seed as the next one. A loop, so that every pair draws its own.
DO $$
DECLARE
  pair_id bigint;
  seed text;
BEGIN
  FOR pair_id IN SELECT id FROM house_seed_pairs WHERE revealed_at IS NULL LOOP
    SELECT substr(string_agg(substr(u, 1, 12) || substr(u, 14, 3) || substr(u, 18), ''), 1, 64) INTO seed
      FROM (SELECT replace(gen_random_uuid()::text, '-', '') AS u FROM generate_series(1, 3)) uuids;
    UPDATE house_seed_pairs
      SET next_server_seed = seed, next_server_seed_hash = encode(sha256(convert_to(seed, 'UTF8')), 'hex'), next_client_seed = client_seed
      WHERE id = pair_id;
  END LOOP;
END;
$$;

ALTER TABLE house_seed_pairs ADD CONSTRAINT house_seed_pairs_next
  CHECK (num_nonnulls(next_server_seed, next_server_seed_hash, next_client_seed) = CASE WHEN revealed_at IS NULL THEN 3 ELSE 0 END);
