-- One posting: ledger_post_many (server/db/schema/1_function_ledger_post_many.sql), the ledger's one
-- writer, given a set of one. The call of the money functions that post one transaction at a time and of
-- server/domain/ledger.ts (postTransaction); what it checks, raises and answers is ledger_post_many's.
CREATE OR REPLACE FUNCTION ledger_post(
  p_kind text,
  p_at timestamptz,
  p_leg_wallet bigint[],
  p_leg_currency integer[],
  p_leg_kind text[],
  p_leg_amount numeric[],
  p_scope text DEFAULT NULL,
  p_key text DEFAULT NULL,
  p_visible_wallet bigint DEFAULT NULL,
  p_type text DEFAULT NULL,
  p_action_type text DEFAULT NULL,
  p_status text DEFAULT NULL,
  p_visible_amount numeric DEFAULT NULL,
  p_game_identifier text DEFAULT NULL,
  p_related bigint DEFAULT NULL,
  p_public_id uuid DEFAULT NULL
) RETURNS TABLE (out_id bigint, out_public_id uuid, out_replayed boolean, out_available numeric, out_bonus numeric)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  SELECT m.out_id, m.out_public_id, m.out_replayed, m.out_available, m.out_bonus
  FROM ledger_post_many(p_at, ARRAY[p_kind], ARRAY[p_scope], ARRAY[p_key], ARRAY[p_visible_wallet], ARRAY[p_type], ARRAY[p_action_type],
    ARRAY[p_status], ARRAY[p_visible_amount], ARRAY[p_game_identifier], ARRAY[p_related], ARRAY[p_public_id],
    CASE WHEN p_leg_kind IS NOT NULL THEN array_fill(1, ARRAY[cardinality(p_leg_kind)]) END, p_leg_wallet, p_leg_currency, p_leg_kind,
    p_leg_amount) m;
END
$$;
