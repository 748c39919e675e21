-- Player requests sent with an Idempotency-Key header, for every operation that takes one
-- (server/domain/player-requests.ts): paymentWithdraw, bonusAvail, bonusCancel, bonusAvailReferral.
-- One row per (player, operation, key), written in the request's own transaction, so a request that
-- failed leaves none. A repeat with the same key and request answers from the row and changes nothing;
-- the key with another request is refused (409 IDEMPOTENCY_KEY_REUSED).
--
-- It replaces the two earlier records: withdrawals.idempotency_key and request_hash (0008), and
-- bonus_request_results (0009), which was keyed by the key alone and answered a repeat with another
-- request as if it were the first.
CREATE TABLE player_requests (
  user_id bigint NOT NULL REFERENCES users(id),
  operation text NOT NULL CHECK (operation IN ('paymentWithdraw', 'bonusAvail', 'bonusCancel', 'bonusAvailReferral')),
  key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
  -- SHA-256 (hex) of the request's canonical form: its body's fields as a JSON array in the operation's
  -- fixed order, an absent optional one as null. Null only for a key carried over below whose request
  -- cannot be known: it matches no request.
  request_hash text CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  -- The first response (bonus requests); a withdrawal's answer follows the withdrawal it made.
  response jsonb,
  withdrawal_id bigint REFERENCES withdrawals(id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, operation, key),
  CHECK (response IS NULL OR withdrawal_id IS NULL)
);

-- Withdrawals' keys, with the hashes they were stored with (the same canonical form).
INSERT INTO player_requests (user_id, operation, key, request_hash, withdrawal_id, created_at)
SELECT user_id, 'paymentWithdraw', idempotency_key, request_hash, id, created_at
FROM withdrawals
WHERE idempotency_key IS NOT NULL;

-- The bonus answers, scope 'player:<user id>:<operation>'. The request of a claim can be read back from
-- its answer (the offer and currency of the claimed bonus, the currency of the referral reward); that of
-- a forfeit cannot ({"success": true}), so its key is kept without a hash.
INSERT INTO player_requests (user_id, operation, key, request_hash, response, created_at)
SELECT split_part(scope, ':', 2)::bigint, split_part(scope, ':', 3), key,
  CASE split_part(scope, ':', 3)
    WHEN 'bonusAvail' THEN encode(sha256(convert_to('[' || (response ->> 'bonusId') || ',' || (response ->> 'currencyId') || ']', 'UTF8')), 'hex')
    WHEN 'bonusAvailReferral' THEN encode(sha256(convert_to('[' || (response ->> 'currencyId') || ']', 'UTF8')), 'hex')
  END,
  response, created_at
FROM bonus_request_results
WHERE scope ~ '^player:[0-9]+:(bonusAvail|bonusCancel|bonusAvailReferral)$';

DROP TABLE bonus_request_results;

ALTER TABLE withdrawals DROP COLUMN idempotency_key, DROP COLUMN request_hash;
