CREATE OR REPLACE FUNCTION announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('casino.announce', true) = 'by_server' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('casino_events', json_build_object('u', NEW.user_id, 'k', TG_ARGV[0], 'id', NEW.id)::text);
  RETURN NULL;
END;
$$;
