DROP TRIGGER IF EXISTS game_counts_truncate ON games;
CREATE TRIGGER game_counts_truncate AFTER TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_truncate();
