-- The ledger's commit-time check (migration 0015) skips the ledger transaction a one-statement money
-- call writes (game_wallet_play, deposit_notification_apply, withdrawal_hold): each of those writes one
-- ledger transaction whose entries balance by construction, in the same statement that writes it: two
-- entries of one amount with opposite signs, both in the currency of the transaction's wallet (the
-- wallet's own account and the currency's system account, or two accounts of the wallet; the transaction's
-- foreign key onto the wallet holds its currency), and the statement fails unless both were written.
-- Checking it again at commit cost each call a deferred trigger and its query, about a tenth of the
-- database's time for a bet. The call names the one ledger transaction it vouches for by its public id in
-- a setting of its own database transaction; every other ledger transaction, whoever writes it and in
-- whatever transaction, is checked at commit as before.
DROP TRIGGER ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (current_setting('casino.ledger_balanced_by', true) IS DISTINCT FROM NEW.public_id::text)
  EXECUTE FUNCTION ledger_assert_transaction_balanced();

-- The three calls, as in migrations 0016 and 0018, each naming its ledger transaction first; and the
-- one-statement win takes a win only while the round's wins stay within its stake times the provider's
-- max_win_multiplier (migration 0022), leaving any other to the general path, which refuses it.
CREATE OR REPLACE FUNCTION game_wallet_play(
  p_action text,
  p_wallet_id bigint,
  p_user_id bigint,
  p_currency_id integer,
  p_limits_apply boolean,
  p_provider_id integer,
  p_session_id text,
  p_game_id bigint,
  p_game_identifier text,
  p_round_id text,
  p_transaction_id text,
  p_amount numeric,
  p_request_hash text,
  p_ledger_public_id uuid,
  p_ledger_scope text,
  p_ledger_key text,
  p_ledger_hash text,
  p_at timestamptz,
  p_wallet_secret text,
  p_reference_id text
) RETURNS TABLE (out_action_id bigint, out_ledger_id bigint, out_available numeric, out_bonus numeric, out_announce text[], out_amount numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_available numeric;
  v_bonus numeric;
  v_round bigint;
  v_may_bet boolean;
  v_ledger bigint;
  v_entries integer;
  v_action bigint;
  v_change numeric;
  v_moved numeric := p_amount;
  v_hash text := p_ledger_hash;
  v_related bigint;
  v_original_bonus numeric;
  v_rolled_back boolean;
  v_bonus_in_play boolean;
  v_units text;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by', p_ledger_public_id::text, true);
  IF p_action = 'bet' THEN
    IF p_amount <= 0 THEN
      RAISE EXCEPTION 'a bet moves a positive amount' USING ERRCODE = 'GW001';
    END IF;
    UPDATE wallets w SET available = w.available - p_amount
    WHERE w.id = p_wallet_id AND w.available >= p_amount
      AND EXISTS (SELECT 1 FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
        WHERE s.id = p_session_id AND s.game_id = p_game_id AND p.wallet_secret = p_wallet_secret AND s.expires_at > p_at)
    RETURNING w.available, w.bonus INTO v_available, v_bonus;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'the available balance does not cover the bet, or the session changed' USING ERRCODE = 'GW002';
    END IF;
    SELECT u.active AND NOT u.self_exclusion_permanent AND (u.self_excluded_until IS NULL OR u.self_excluded_until <= p_at)
      AND NOT EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = p_user_id AND b.wallet_id = p_wallet_id AND b.status IN ('active', 'queued'))
      AND (NOT p_limits_apply OR NOT EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = p_user_id AND l.kind IN ('bet', 'loss')))
    INTO v_may_bet FROM users u WHERE u.id = p_user_id;
    IF v_may_bet IS NOT TRUE THEN
      RAISE EXCEPTION 'the bet needs the general path' USING ERRCODE = 'GW001';
    END IF;
    INSERT INTO game_rounds AS r (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, staked_available, created_at, updated_at)
    VALUES (p_provider_id, p_round_id, p_session_id, p_user_id, p_wallet_id, p_currency_id, p_game_id, p_amount, p_at, p_at)
    ON CONFLICT (provider_id, round_id) DO UPDATE SET staked_available = r.staked_available + EXCLUDED.staked_available, updated_at = EXCLUDED.updated_at
      WHERE r.wallet_id = EXCLUDED.wallet_id AND NOT r.closed
    RETURNING r.id INTO v_round;
    IF v_round IS NULL THEN
      RAISE EXCEPTION 'the round is closed or not this wallet''s' USING ERRCODE = 'GW001';
    END IF;
    v_change := -p_amount;
  ELSIF p_action = 'win' THEN
    IF p_amount < 0 THEN
      RAISE EXCEPTION 'a win is not negative' USING ERRCODE = 'GW001';
    END IF;
    IF p_amount > 0 THEN
      UPDATE wallets w SET available = w.available + p_amount
      WHERE w.id = p_wallet_id
        AND EXISTS (SELECT 1 FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
          WHERE s.id = p_session_id AND s.game_id = p_game_id AND p.wallet_secret = p_wallet_secret)
      RETURNING w.available, w.bonus INTO v_available, v_bonus;
    ELSE
      SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w
      WHERE w.id = p_wallet_id
        AND EXISTS (SELECT 1 FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
          WHERE s.id = p_session_id AND s.game_id = p_game_id AND p.wallet_secret = p_wallet_secret)
      FOR UPDATE OF w;
    END IF;
    IF v_available IS NULL THEN
      RAISE EXCEPTION 'the session changed' USING ERRCODE = 'GW002';
    END IF;
    UPDATE game_rounds r SET won = r.won + p_amount, settled = true, updated_at = p_at
    WHERE r.provider_id = p_provider_id AND r.round_id = p_round_id AND r.wallet_id = p_wallet_id AND NOT r.closed AND r.staked_bonus = 0
      AND r.won + p_amount <= r.staked_available * (SELECT p.max_win_multiplier FROM providers p WHERE p.id = p_provider_id)
    RETURNING r.id INTO v_round;
    IF v_round IS NULL THEN
      RAISE EXCEPTION 'the win needs the general path' USING ERRCODE = 'GW001';
    END IF;
    v_change := p_amount;
  ELSIF p_action IN ('rollbackBet', 'rollbackWin') THEN
    -- A rollback of a bet or a win of this wallet's round, paid from available alone, not rolled back
    -- before, by a player with no bonus to wager: it moves back exactly what the call moved and closes
    -- the round. Six statements.
    SELECT w.available, w.bonus INTO v_available, v_bonus FROM wallets w
    WHERE w.id = p_wallet_id
      AND EXISTS (SELECT 1 FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
        WHERE s.id = p_session_id AND s.game_id = p_game_id AND p.wallet_secret = p_wallet_secret)
    FOR UPDATE OF w;
    IF v_available IS NULL THEN
      RAISE EXCEPTION 'the session changed' USING ERRCODE = 'GW002';
    END IF;
    SELECT r.id, o.amount, o.bonus_amount, o.ledger_transaction_id,
      EXISTS (SELECT 1 FROM game_wallet_actions x WHERE x.round_pk = r.id AND x.action = p_action AND x.reference_id = p_reference_id),
      EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = p_user_id AND b.wallet_id = p_wallet_id AND b.status IN ('active', 'queued'))
    INTO v_round, v_moved, v_original_bonus, v_related, v_rolled_back, v_bonus_in_play
    FROM game_rounds r JOIN game_wallet_actions o ON o.round_pk = r.id AND o.transaction_id = p_reference_id
      AND o.action = CASE p_action WHEN 'rollbackBet' THEN 'bet' ELSE 'win' END
    WHERE r.provider_id = p_provider_id AND r.round_id = p_round_id AND r.wallet_id = p_wallet_id;
    IF v_round IS NULL OR v_rolled_back OR v_original_bonus <> 0 OR (p_action = 'rollbackBet' AND v_bonus_in_play) THEN
      RAISE EXCEPTION 'the rollback needs the general path' USING ERRCODE = 'GW001';
    END IF;
    IF p_action = 'rollbackBet' THEN
      v_change := v_moved;
    ELSE
      v_change := -v_moved;
    END IF;
    IF v_change <> 0 THEN
      UPDATE wallets w SET available = w.available + v_change WHERE w.id = p_wallet_id AND w.available + v_change >= 0
      RETURNING w.available, w.bonus INTO v_available, v_bonus;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'the available balance does not cover the rollback' USING ERRCODE = 'GW002';
      END IF;
    END IF;
    UPDATE game_rounds r SET closed = true, updated_at = p_at,
      staked_available = r.staked_available - CASE p_action WHEN 'rollbackBet' THEN v_moved ELSE 0 END,
      won = r.won - CASE p_action WHEN 'rollbackWin' THEN v_moved ELSE 0 END
    WHERE r.id = v_round;
    v_units := (v_moved * 100000000)::numeric(40, 0)::text;
    v_hash := encode(sha256(convert_to(format(
      '{"kind":"game.%s","legs":[["system:%s:house","%s"],["wallet:%s:available","%s"]],"visible":[%s,"casino","%s","completed","%s",%s],"related":%s}',
      lower(p_action), p_currency_id, CASE WHEN v_change > 0 THEN '-' ELSE '' END || v_units, p_wallet_id,
      CASE WHEN v_change < 0 THEN '-' ELSE '' END || v_units, p_wallet_id, p_action, v_units, to_json(p_game_identifier)::text,
      coalesce(v_related::text, 'null')), 'UTF8')), 'hex');
  ELSE
    RAISE EXCEPTION 'action % takes the general path', p_action USING ERRCODE = 'GW001';
  END IF;

  IF v_change <> 0 THEN
    WITH t AS (
      INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id,
        type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at, related_transaction_id)
      VALUES (p_ledger_public_id, 'game.' || lower(p_action), p_ledger_scope, p_ledger_key, v_hash, p_user_id, p_wallet_id, p_currency_id,
        'casino', p_action, 'completed', v_moved, v_available - v_change, v_available, p_game_identifier, p_at, v_related)
      ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, x.account_id, p_currency_id, x.amount FROM t CROSS JOIN (
        SELECT a.id AS account_id, v_change AS amount FROM ledger_accounts a WHERE a.wallet_id = p_wallet_id AND a.kind = 'available'
        UNION ALL
        SELECT a.id, -v_change FROM ledger_accounts a WHERE a.wallet_id IS NULL AND a.currency_id = p_currency_id AND a.kind = 'house'
      ) x
      RETURNING 1
    )
    SELECT t.id, (SELECT count(*)::integer FROM e) INTO v_ledger, v_entries FROM t;
    IF v_ledger IS NULL THEN
      RAISE EXCEPTION 'the ledger already holds this call' USING ERRCODE = 'GW001';
    END IF;
    IF v_entries <> 2 THEN
      RAISE EXCEPTION 'wallet % or currency % has no ledger account', p_wallet_id, p_currency_id;
    END IF;
  END IF;

  INSERT INTO game_wallet_actions AS a (round_pk, action, transaction_id, reference_id, user_id, amount, bonus_amount, request_hash,
    ledger_transaction_id, available_after, bonus_after, created_at)
  VALUES (v_round, p_action, p_transaction_id, CASE WHEN p_action IN ('rollbackBet', 'rollbackWin') THEN p_reference_id END, p_user_id, v_moved, 0,
    p_request_hash, v_ledger, v_available, v_bonus, p_at)
  ON CONFLICT (round_pk, action, transaction_id) DO NOTHING
  RETURNING a.id INTO v_action;
  IF v_action IS NULL THEN
    RAISE EXCEPTION 'a replay' USING ERRCODE = 'GW001';
  END IF;
  RETURN QUERY SELECT v_action, v_ledger, v_available, v_bonus,
    CASE WHEN v_change <> 0 THEN ARRAY[json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text] ELSE ARRAY[]::text[] END, v_moved;
END
$$;

CREATE OR REPLACE FUNCTION deposit_notification_apply(
  p_provider text,
  p_tx_id text,
  p_address text,
  p_currency_code text,
  p_amount numeric,
  p_confirmations integer,
  p_required integer,
  p_ledger_public_id uuid,
  p_ledger_scope text,
  p_ledger_key text,
  p_notice_title text,
  p_notice_message text,
  p_at timestamptz
) RETURNS TABLE (out_status text, out_confirmations integer, out_announce text[])
LANGUAGE plpgsql AS $$
DECLARE
  v_address bigint;
  v_wallet bigint;
  v_user bigint;
  v_currency integer;
  v_code text;
  v_decimals integer;
  v_min numeric;
  v_bonus_in_play boolean;
  v_deposit bigint;
  v_pending bigint;
  v_ledger bigint;
  v_available numeric;
  v_entries integer;
  v_units text;
  v_hash text;
  v_confirmations integer;
  v_notification bigint;
  v_required integer;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by', p_ledger_public_id::text, true);
  SELECT d.id, d.wallet_id, w.user_id, w.currency_id, c.code, c.decimals, c.min_deposit,
    EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = w.user_id AND b.status IN ('active', 'queued'))
      OR w.held > 0 OR EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = w.user_id AND l.kind = 'deposit'),
    (SELECT st.deposit_confirmations FROM settings st WHERE st.id = 1)
  INTO v_address, v_wallet, v_user, v_currency, v_code, v_decimals, v_min, v_bonus_in_play, v_required
  FROM deposit_addresses d JOIN wallets w ON w.id = d.wallet_id JOIN currencies c ON c.id = w.currency_id
  WHERE d.provider = p_provider AND d.address = p_address;
  IF v_address IS NOT NULL AND v_required IS DISTINCT FROM p_required THEN
    RAISE EXCEPTION 'the confirmations required changed' USING ERRCODE = 'GW002';
  END IF;
  IF v_address IS NULL OR v_code <> p_currency_code OR p_amount <= 0 OR p_amount < v_min
    OR trunc(p_amount * 10::numeric ^ v_decimals) <> p_amount * 10::numeric ^ v_decimals THEN
    RAISE EXCEPTION 'the notification needs the general path' USING ERRCODE = 'GW001';
  END IF;
  v_units := (p_amount * 100000000)::numeric(40, 0)::text;
  v_ledger := nextval('ledger_transactions_id_seq');

  IF p_confirmations < p_required THEN
    INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
      pending_transaction_id, created_at, updated_at)
    VALUES (p_provider, p_tx_id, v_address, v_wallet, v_user, v_currency, p_amount, p_confirmations, 'pending', v_ledger, p_at, p_at)
    ON CONFLICT (provider, provider_tx_id) DO NOTHING
    RETURNING id INTO v_deposit;
    IF v_deposit IS NULL THEN
      RAISE EXCEPTION 'a transfer already recorded' USING ERRCODE = 'GW001';
    END IF;
    UPDATE wallets w SET pending = w.pending + p_amount WHERE w.id = v_wallet RETURNING w.available INTO v_available;
    v_hash := encode(sha256(convert_to(format(
      '{"kind":"deposit.pending","legs":[["system:%s:provider_clearing","-%s"],["wallet:%s:pending","%s"]],"visible":[%s,"deposit","deposit","pending","%s",null],"related":null}',
      v_currency, v_units, v_wallet, v_units, v_wallet, v_units), 'UTF8')), 'hex');
    WITH t AS (
      INSERT INTO ledger_transactions (id, public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id,
        type, action_type, status, amount, before_balance, after_balance, created_at)
      VALUES (v_ledger, p_ledger_public_id, 'deposit.pending', p_ledger_scope, p_ledger_key || ':pending', v_hash, v_user, v_wallet, v_currency,
        'deposit', 'deposit', 'pending', p_amount, v_available, v_available, p_at)
      ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
      RETURNING id
    ), e AS (
      INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
      SELECT t.id, x.account_id, v_currency, x.amount FROM t CROSS JOIN (
        SELECT a.id AS account_id, -p_amount AS amount FROM ledger_accounts a
        WHERE a.wallet_id IS NULL AND a.currency_id = v_currency AND a.kind = 'provider_clearing'
        UNION ALL
        SELECT a.id, p_amount FROM ledger_accounts a WHERE a.wallet_id = v_wallet AND a.kind = 'pending'
      ) x
      RETURNING 1
    )
    SELECT (SELECT count(*)::integer FROM e) INTO v_entries FROM t;
    IF v_entries IS NULL THEN
      RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
    END IF;
    IF v_entries <> 2 THEN
      RAISE EXCEPTION 'wallet % or currency % has no ledger account', v_wallet, v_currency;
    END IF;
    RETURN QUERY SELECT 'pending'::text, p_confirmations, ARRAY[
      json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text];
    RETURN;
  END IF;

  IF v_bonus_in_play THEN
    RAISE EXCEPTION 'a bonus may take this deposit, or a deposit limit may hold part of it' USING ERRCODE = 'GW001';
  END IF;
  UPDATE deposits d SET confirmations = greatest(d.confirmations, p_confirmations), status = 'credited', settled_transaction_id = v_ledger,
    credited_at = p_at, updated_at = p_at
  WHERE d.provider = p_provider AND d.provider_tx_id = p_tx_id AND d.status = 'pending' AND d.pending_transaction_id IS NOT NULL
    AND d.deposit_address_id = v_address AND d.amount = p_amount
  RETURNING d.id, d.pending_transaction_id, d.confirmations INTO v_deposit, v_pending, v_confirmations;
  IF v_deposit IS NULL THEN
    RAISE EXCEPTION 'no pending transfer to credit' USING ERRCODE = 'GW001';
  END IF;
  UPDATE wallets w SET pending = w.pending - p_amount, available = w.available + p_amount
  WHERE w.id = v_wallet AND w.pending >= p_amount RETURNING w.available INTO v_available;
  IF v_available IS NULL THEN
    RAISE EXCEPTION 'wallet % holds less pending than deposit %', v_wallet, v_deposit;
  END IF;
  v_hash := encode(sha256(convert_to(format(
    '{"kind":"deposit.credit","legs":[["wallet:%s:available","%s"],["wallet:%s:pending","-%s"]],"visible":[%s,"deposit","deposit","completed","%s",null],"related":%s}',
    v_wallet, v_units, v_wallet, v_units, v_wallet, v_units, v_pending), 'UTF8')), 'hex');
  WITH t AS (
    INSERT INTO ledger_transactions (id, public_id, kind, idempotency_scope, idempotency_key, request_hash, related_transaction_id, user_id,
      wallet_id, currency_id, type, action_type, status, amount, before_balance, after_balance, created_at)
    VALUES (v_ledger, p_ledger_public_id, 'deposit.credit', p_ledger_scope, p_ledger_key || ':credit', v_hash, v_pending, v_user,
      v_wallet, v_currency, 'deposit', 'deposit', 'completed', p_amount, v_available - p_amount, v_available, p_at)
    ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
    RETURNING id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, a.id, v_currency, CASE a.kind WHEN 'available' THEN p_amount ELSE -p_amount END
    FROM t CROSS JOIN ledger_accounts a WHERE a.wallet_id = v_wallet AND a.kind IN ('available', 'pending')
    RETURNING 1
  )
  SELECT (SELECT count(*)::integer FROM e) INTO v_entries FROM t;
  IF v_entries IS NULL THEN
    RAISE EXCEPTION 'the ledger already holds this posting' USING ERRCODE = 'GW001';
  END IF;
  IF v_entries <> 2 THEN
    RAISE EXCEPTION 'wallet % has no ledger account', v_wallet;
  END IF;
  INSERT INTO user_notifications (user_id, title, message, created_at) VALUES (v_user, p_notice_title, p_notice_message, p_at)
  RETURNING id INTO v_notification;
  RETURN QUERY SELECT 'credited'::text, v_confirmations, ARRAY[
    json_build_object('u', v_user, 'k', 'deposit', 'id', v_deposit)::text, json_build_object('u', v_user, 'k', 'wallets', 'id', v_user)::text,
    json_build_object('u', v_user, 'k', 'notification', 'id', v_notification)::text];
END
$$;

CREATE OR REPLACE FUNCTION withdrawal_hold(
  p_provider text,
  p_wallet_id bigint,
  p_user_id bigint,
  p_currency_id integer,
  p_address text,
  p_amount numeric,
  p_fee numeric,
  p_ledger_public_id uuid,
  p_at timestamptz
) RETURNS TABLE (out_withdrawal_id bigint, out_announce text[])
LANGUAGE plpgsql AS $$
DECLARE
  v_total numeric := p_amount + p_fee;
  v_available numeric;
  v_blocked boolean;
  v_units text;
  v_hash text;
  v_ledger bigint;
  v_entries integer;
  v_withdrawal bigint;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by', p_ledger_public_id::text, true);
  UPDATE wallets w SET available = w.available - v_total, pending = w.pending + v_total
  WHERE w.id = p_wallet_id AND w.user_id = p_user_id AND w.currency_id = p_currency_id AND w.available >= v_total
  RETURNING w.available INTO v_available;
  IF v_available IS NULL THEN
    RAISE EXCEPTION 'the balance does not cover the withdrawal' USING ERRCODE = 'GW001';
  END IF;
  SELECT EXISTS (SELECT 1 FROM withdrawals x WHERE x.wallet_id = p_wallet_id AND x.status IN ('requested', 'pending'))
    OR EXISTS (SELECT 1 FROM user_bonuses ub WHERE ub.user_id = p_user_id AND ub.currency_id = p_currency_id AND ub.status = 'active'
      AND (ub.expire_at IS NULL OR ub.expire_at > p_at) AND ub.wagered_amount < ub.amount_to_wager)
  INTO v_blocked;
  IF v_blocked THEN
    RAISE EXCEPTION 'a withdrawal in flight or a bonus to wager' USING ERRCODE = 'GW001';
  END IF;
  v_units := (v_total * 100000000)::numeric(40, 0)::text;
  v_hash := encode(sha256(convert_to(format(
    '{"kind":"withdraw.request","legs":[["wallet:%s:available","-%s"],["wallet:%s:pending","%s"]],"visible":[%s,"withdraw","withdraw","pending","%s",null],"related":null}',
    p_wallet_id, v_units, p_wallet_id, v_units, p_wallet_id, v_units), 'UTF8')), 'hex');
  WITH t AS (
    INSERT INTO ledger_transactions (public_id, kind, request_hash, user_id, wallet_id, currency_id, type, action_type, status, amount,
      before_balance, after_balance, created_at)
    VALUES (p_ledger_public_id, 'withdraw.request', v_hash, p_user_id, p_wallet_id, p_currency_id, 'withdraw', 'withdraw', 'pending', v_total,
      v_available + v_total, v_available, p_at)
    RETURNING id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, a.id, p_currency_id, CASE a.kind WHEN 'pending' THEN v_total ELSE -v_total END
    FROM t CROSS JOIN ledger_accounts a WHERE a.wallet_id = p_wallet_id AND a.kind IN ('available', 'pending')
    RETURNING 1
  )
  SELECT t.id, (SELECT count(*)::integer FROM e) INTO v_ledger, v_entries FROM t;
  IF v_entries <> 2 THEN
    RAISE EXCEPTION 'wallet % has no ledger account', p_wallet_id;
  END IF;
  INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, hold_transaction_id, created_at, updated_at)
  VALUES (p_provider, p_wallet_id, p_user_id, p_currency_id, p_address, p_amount, p_fee, 'requested', v_ledger, p_at, p_at)
  RETURNING id INTO v_withdrawal;
  RETURN QUERY SELECT v_withdrawal, ARRAY[
    json_build_object('u', p_user_id, 'k', 'wallets', 'id', p_user_id)::text,
    json_build_object('u', p_user_id, 'k', 'withdrawal', 'id', v_withdrawal)::text];
END
$$;
