DROP TRIGGER IF EXISTS game_counts_delete ON games;
CREATE TRIGGER game_counts_delete AFTER DELETE ON games
  REFERENCING OLD TABLE AS old_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_delete();
