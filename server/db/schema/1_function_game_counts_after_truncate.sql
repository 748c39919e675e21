CREATE OR REPLACE FUNCTION game_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM game_counts;
  RETURN NULL;
END;
$$;
