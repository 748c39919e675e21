DROP TRIGGER IF EXISTS game_counts_insert ON games;
CREATE TRIGGER game_counts_insert AFTER INSERT ON games
  REFERENCING NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION game_counts_after_insert();
