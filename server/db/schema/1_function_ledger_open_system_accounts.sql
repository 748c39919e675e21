CREATE OR REPLACE FUNCTION ledger_open_system_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (currency_id, kind)
  SELECT NEW.id, kind FROM unnest(ARRAY['house', 'provider_clearing', 'fees', 'bonus_pool', 'adjustments']) AS kind;
  RETURN NULL;
END
$$;
