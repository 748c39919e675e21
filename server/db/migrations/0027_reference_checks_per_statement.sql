-- The money path's references, checked once per statement instead of once per row, and not at all for
-- the rows the batch functions write, which they check themselves. A foreign key runs a query of its own
-- for every row written (an executor started, a plan run, a row locked): a batch of 8 bets and 8 wins ran
-- 80 of them. The six foreign keys that every bet, win and deposit credit checked are replaced:
--
--   game_rounds (session_id) -> game_sessions (id)                    game_rounds_session_id_fkey
--   game_rounds (wallet_id, user_id, currency_id) -> wallets           game_rounds_wallet_id_user_id_currency_id_fkey
--   ledger_transactions (wallet_id, user_id, currency_id) -> wallets   ledger_transactions_wallet_id_user_id_currency_id_fkey
--   ledger_entries (transaction_id, xact) -> ledger_transactions       ledger_entries_transaction_xact
--   game_wallet_actions (round_pk) -> game_rounds (id)                 game_wallet_actions_round_pk_fkey
--   game_wallet_actions (ledger_transaction_id) -> ledger_transactions game_wallet_actions_ledger_transaction_id_fkey
--
-- - Every statement that writes one of these tables has every row it wrote checked at its end, in one
--   query over the statement's transition table (same names, error code 23503 and message as the foreign
--   keys), unless the statement is the write of a batch function, which vouches for its rows by the
--   setting casino.references_checked for that statement alone. game_wallet_play_batch checks each call's
--   wallet, player, currency and session before writing, and writes the rounds, ledger transactions,
--   entries and calls that refer to one another in one statement; deposit_notification_apply_batch takes
--   each ledger transaction's wallet, player and currency from the wallet's own row.
-- - The rows referred to stay: a wallet, a game session, a round and a ledger transaction (append-only
--   since migration 0006) are never deleted, and their keys never change; nor do a round's or a call's
--   referring columns (ledger rows do not change at all). So a row found once is there at commit, and
--   no check needs the KEY SHARE lock a foreign key takes on it. The triggers that refuse those changes
--   fire once per statement, only on a delete or on an update that names such a column, which no path
--   makes.
-- - Rows are found through the referred tables' own keys, never by scanning them.
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_session_id_fkey;
ALTER TABLE game_rounds DROP CONSTRAINT game_rounds_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_wallet_id_user_id_currency_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_transaction_xact;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_round_pk_fkey;
ALTER TABLE game_wallet_actions DROP CONSTRAINT game_wallet_actions_ledger_transaction_id_fkey;

-- The error a foreign key raises, for a row of p_table whose p_columns hold p_key with no such row in p_referred.
CREATE FUNCTION reference_missing(p_table text, p_constraint text, p_columns text, p_key text, p_referred text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', p_table, p_constraint
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = p_constraint, TABLE = p_table,
      DETAIL = format('Key (%s)=(%s) is not present in table "%s".', p_columns, p_key, p_referred);
END
$$;

-- The check, unless the statement's writer vouches for its rows (the batch functions, below).
-- Planned once per connection like any plpgsql statement, and never as a scan of the referred table (a
-- plan made while a table is small would otherwise keep scanning it once it is large; migration 0026):
-- each row is looked up by its key in a subquery of its own, which LIMIT keeps from being merged into a join.
CREATE FUNCTION game_rounds_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.session_id INTO v_missing
  FROM (SELECT DISTINCT w.session_id FROM written w) n
  LEFT JOIN LATERAL (SELECT s.id FROM game_sessions s WHERE s.id = n.session_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_session_id_fkey', 'session_id', v_missing.session_id, 'game_sessions');
  END IF;
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_rounds', 'game_rounds_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER game_rounds_references AFTER INSERT ON game_rounds
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_rounds_check_references();

CREATE FUNCTION ledger_transactions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  -- A transaction with no wallet (a system-only posting) refers to none (MATCH SIMPLE: a null column skips the check).
  SELECT n.wallet_id, n.user_id, n.currency_id INTO v_missing
  FROM (
    SELECT DISTINCT w.wallet_id, w.user_id, w.currency_id FROM written w
    WHERE w.wallet_id IS NOT NULL AND w.user_id IS NOT NULL AND w.currency_id IS NOT NULL
  ) n
  LEFT JOIN LATERAL (
    SELECT x.id FROM wallets x WHERE x.id = n.wallet_id AND x.user_id = n.user_id AND x.currency_id = n.currency_id LIMIT 1
  ) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_transactions', 'ledger_transactions_wallet_id_user_id_currency_id_fkey', 'wallet_id, user_id, currency_id',
      concat_ws(', ', v_missing.wallet_id, v_missing.user_id, v_missing.currency_id), 'wallets');
  END IF;
  RETURN NULL;
END
$$;
-- Ledger transactions are append-only: an insert is the only way a row gets its wallet.
CREATE TRIGGER ledger_transactions_references AFTER INSERT ON ledger_transactions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ledger_transactions_check_references();

-- An entry's ledger transaction was written by the same database transaction (its xact, migration 0015),
-- so the commit-time balance check sees every entry of it.
CREATE FUNCTION ledger_entries_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.transaction_id, n.xact INTO v_missing
  FROM (SELECT DISTINCT w.transaction_id, w.xact FROM written w) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.transaction_id AND t.xact = n.xact LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('ledger_entries', 'ledger_entries_transaction_xact', 'transaction_id, xact',
      concat_ws(', ', v_missing.transaction_id, v_missing.xact), 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER ledger_entries_references AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION ledger_entries_check_references();

CREATE FUNCTION game_wallet_actions_check_references() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_missing record;
BEGIN
  SELECT n.round_pk INTO v_missing
  FROM (SELECT DISTINCT w.round_pk FROM written w) n
  LEFT JOIN LATERAL (SELECT r.id FROM game_rounds r WHERE r.id = n.round_pk LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_round_pk_fkey', 'round_pk', v_missing.round_pk::text, 'game_rounds');
  END IF;
  SELECT n.ledger_transaction_id INTO v_missing
  FROM (SELECT DISTINCT w.ledger_transaction_id FROM written w WHERE w.ledger_transaction_id IS NOT NULL) n
  LEFT JOIN LATERAL (SELECT t.id FROM ledger_transactions t WHERE t.id = n.ledger_transaction_id LIMIT 1) found ON true
  WHERE found.id IS NULL LIMIT 1;
  IF FOUND THEN
    PERFORM reference_missing('game_wallet_actions', 'game_wallet_actions_ledger_transaction_id_fkey', 'ledger_transaction_id',
      v_missing.ledger_transaction_id::text, 'ledger_transactions');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER game_wallet_actions_references AFTER INSERT ON game_wallet_actions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT
  WHEN (current_setting('casino.references_checked', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION game_wallet_actions_check_references();

-- The rows referred to stay, with their keys, and so do the rounds' and the calls' references. A statement
-- that deletes from these tables, or names one of these columns in its SET list, is refused as a whole
-- (no path makes one). Checked once per statement, not per row: a row trigger on an update, even one
-- that never fires, has PostgreSQL lock and copy every row the update touches before it is written.
CREATE FUNCTION references_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION '% rows are kept: other rows refer to them', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
  END IF;
  RAISE EXCEPTION '% does not change % of its rows: other rows refer to them by these', TG_TABLE_NAME, array_to_string(TG_ARGV, ', ')
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
END
$$;
CREATE TRIGGER wallets_kept BEFORE DELETE OR UPDATE OF id, user_id, currency_id ON wallets
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'user_id', 'currency_id');
CREATE TRIGGER game_sessions_kept BEFORE DELETE OR UPDATE OF id ON game_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id');
CREATE TRIGGER game_rounds_kept BEFORE DELETE OR UPDATE OF id, session_id, wallet_id, user_id, currency_id ON game_rounds
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('id', 'session_id', 'wallet_id', 'user_id', 'currency_id');
-- A call's round and ledger transaction are those it was written with (calls are never deleted either).
CREATE TRIGGER game_wallet_actions_kept BEFORE DELETE OR UPDATE OF round_pk, ledger_transaction_id ON game_wallet_actions
  FOR EACH STATEMENT EXECUTE FUNCTION references_kept('round_pk', 'ledger_transaction_id');
