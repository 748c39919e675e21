-- The bonus whose money paid part of a round's stake. The bonus-paid share of the stake, and the same share
-- of what the round wins, belong to that bonus whatever happens to it before the round ends: they go to the
-- bonus balance while it runs, to available once it completed (its money became cash), and to the bonus
-- pool once it was forfeited or expired. Null for a round staked from available alone, and for rounds begun
-- before this column (their share then follows the wallet's running bonus, or the pool when none runs).
ALTER TABLE game_rounds ADD COLUMN user_bonus_id bigint REFERENCES user_bonuses(id);
