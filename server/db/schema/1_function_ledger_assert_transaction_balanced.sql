-- The ledger's database check, once per ledger transaction at commit (ledger_transactions_balanced), in
-- one query: the transaction has two entries or more, and its entries sum to zero per currency (each
-- entry's account, and that it is of the entry's currency, is the foreign key ledger_entries_account_currency).
-- Entries can only be written in the database transaction that wrote their ledger transaction (the
-- composite foreign key onto (id, xact)), so the check at its commit sees all of them, in whatever order
-- they were written.
-- Planned once per connection, never by reading a table whole: a plan made while the tables were small
-- still finds a transaction's entries by its key once they have grown (tests/server/batch-plans.test.ts).
CREATE OR REPLACE FUNCTION ledger_assert_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_entries integer;
  v_currency integer;
  v_total numeric;
BEGIN
  SELECT coalesce(sum(c.entries), 0)::integer, min(c.currency_id) FILTER (WHERE c.total <> 0),
    (array_agg(c.total ORDER BY c.currency_id) FILTER (WHERE c.total <> 0))[1]
  INTO v_entries, v_currency, v_total
  FROM (SELECT e.currency_id, count(*) AS entries, sum(e.amount) AS total FROM ledger_entries e WHERE e.transaction_id = NEW.id GROUP BY e.currency_id) c;
  IF v_currency IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: its entries in currency % sum to %', NEW.id, v_currency, v_total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_balanced';
  END IF;
  IF v_entries < 2 THEN
    RAISE EXCEPTION 'ledger transaction % has % entries; a balance change needs at least two', NEW.id, v_entries
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transactions_has_entries';
  END IF;
  RETURN NULL;
END
$$;
