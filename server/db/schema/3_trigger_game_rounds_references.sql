DROP TRIGGER IF EXISTS game_rounds_references ON game_rounds;
CREATE TRIGGER game_rounds_references AFTER INSERT ON game_rounds
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_rounds_check_references();
