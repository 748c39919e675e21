-- A player's friends, found by the referrer (server/domain/bonuses.ts, referralCounts).
CREATE INDEX users_referred_by ON users (referred_by_user_id) WHERE referred_by_user_id IS NOT NULL;
