-- The error a foreign key raises, for a row of p_table whose p_columns hold p_key with no such row in p_referred.
CREATE OR REPLACE FUNCTION reference_missing(p_table text, p_constraint text, p_columns text, p_key text, p_referred text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', p_table, p_constraint
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = p_constraint, TABLE = p_table,
      DETAIL = format('Key (%s)=(%s) is not present in table "%s".', p_columns, p_key, p_referred);
END
$$;
