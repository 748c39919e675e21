-- One Mines round in play per session, held by the database: a round is in play from the moment its bet is
-- written (betting) until it ends (settling, settled or void). A second start finds the index taken and is
-- refused ROUND_IN_PROGRESS before its bet is sent, so it moves no money.
--
-- Before this index, starts sent at once could each open a round, and the table showed only one of them. Each
-- such round the player could not see, every open one but the newest of its session, is ended here as cashed
-- at ×1: its stake is owed back as its win (settling, stale), which the player's next call sends through the
-- wallet as any owed win (play money is paid back here). A round still betting from that race (a request in
-- flight during the migration) makes the index fail to build: the migration is then run again once that
-- request has ended.
WITH hidden AS (
  SELECT r.id FROM house_rounds r
  WHERE r.engine = 'mines' AND r.state = 'open'
    AND EXISTS (SELECT 1 FROM house_rounds newer WHERE newer.session_id = r.session_id AND newer.engine = 'mines' AND newer.state = 'open' AND newer.id > r.id)
), ended AS (
  UPDATE house_rounds r SET state = CASE WHEN r.demo THEN 'settled' ELSE 'settling' END, mines_end = 'cashed', multiplier = '1.00000000',
    payout = r.bet, win_transaction_id = CASE WHEN r.demo THEN NULL ELSE COALESCE(r.win_transaction_id, r.round_id || ':win') END, updated_at = '-infinity'
  FROM hidden WHERE r.id = hidden.id
  RETURNING r.session_id, r.bet, r.demo
)
UPDATE house_demo_balances b SET balance = b.balance + owed.total
FROM (SELECT session_id, sum(bet) AS total FROM ended WHERE demo GROUP BY session_id) owed
WHERE b.session_id = owed.session_id;
CREATE UNIQUE INDEX house_rounds_one_mines_in_play ON house_rounds (session_id) WHERE engine = 'mines' AND state IN ('betting', 'open');
