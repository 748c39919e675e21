CREATE OR REPLACE FUNCTION revoke_sessions_of_inactive_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sessions SET revoked_at = now(), revoked_by_inactivation = true
  WHERE user_id = NEW.id AND revoked_at IS NULL;
  RETURN NULL;
END;
$$;
