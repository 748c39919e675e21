CREATE OR REPLACE FUNCTION game_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM game_counts_apply((
    SELECT jsonb_agg(x) FROM (
      SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, -count(*) AS games
      FROM old_games WHERE active GROUP BY 1, 2, 3, 4
    ) x));
  RETURN NULL;
END;
$$;
