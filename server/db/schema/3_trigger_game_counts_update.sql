DROP TRIGGER IF EXISTS game_counts_update ON games;
CREATE TRIGGER game_counts_update AFTER UPDATE ON games
  REFERENCING OLD TABLE AS old_games NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_update();
