CREATE OR REPLACE FUNCTION user_notifications_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.user_id INTO v_missing
  FROM (SELECT DISTINCT w.user_id FROM written w) n
  LEFT JOIN LATERAL (SELECT u.id FROM users u WHERE u.id = n.user_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('user_notifications', 'user_notifications_user_id_fkey', 'user_id', v_missing.user_id::text, 'users');
  END IF;
  RETURN NULL;
END
$$;
