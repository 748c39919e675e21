DROP TRIGGER IF EXISTS game_wallet_actions_references ON game_wallet_actions;
CREATE TRIGGER game_wallet_actions_references AFTER INSERT ON game_wallet_actions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_wallet_actions_check_references();
