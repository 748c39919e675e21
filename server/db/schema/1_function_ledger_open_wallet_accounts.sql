CREATE OR REPLACE FUNCTION ledger_open_wallet_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (currency_id, kind, wallet_id)
  SELECT NEW.currency_id, kind, NEW.id FROM unnest(ARRAY['available', 'pending', 'bonus', 'held']) AS kind;
  RETURN NULL;
END
$$;
