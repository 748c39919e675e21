CREATE OR REPLACE FUNCTION game_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM game_counts_apply((
    SELECT jsonb_agg(x) FROM (
      SELECT provider_id, category_id, sub_category_id, devices, sum(games) AS games FROM (
        SELECT provider_id, category_id, coalesce(sub_category_id, 0) AS sub_category_id, devices, 1 AS games
        FROM new_games WHERE active
        UNION ALL
        SELECT provider_id, category_id, coalesce(sub_category_id, 0), devices, -1
        FROM old_games WHERE active
      ) moved GROUP BY 1, 2, 3, 4 HAVING sum(games) <> 0
    ) x));
  RETURN NULL;
END;
$$;
