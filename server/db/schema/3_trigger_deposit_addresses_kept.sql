-- The rows referred to are kept with their keys, and the referring columns keep their values
-- (references_kept). Deposits and notifications themselves may go: nothing checked refers to them.
DROP TRIGGER IF EXISTS deposit_addresses_kept ON deposit_addresses;
CREATE TRIGGER deposit_addresses_kept BEFORE DELETE OR UPDATE OF id ON deposit_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
