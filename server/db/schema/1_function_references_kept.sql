-- The rows referred to stay, with their keys, and so do the rounds' and the calls' references. A statement
-- that deletes from these tables, or names one of these columns in its SET list, is refused as a whole
-- (no path makes one). Checked once per statement, not per row: a row trigger on an update, even one
-- that never fires, has PostgreSQL lock and copy every row the update touches before it is written.
CREATE OR REPLACE FUNCTION references_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are kept: other rows refer to them', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  RAISE EXCEPTION '% does not change % of its rows: other rows refer to them by these', TG_TABLE_NAME, array_to_string(TG_ARGV, ', ')
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
END
$$;
