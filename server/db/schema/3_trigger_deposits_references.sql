DROP TRIGGER IF EXISTS deposits_references ON deposits;
CREATE TRIGGER deposits_references AFTER INSERT ON deposits
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION deposits_check_references();
