import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { signGameWalletRequest } from '../../server/domain/game-wallet.ts';
import { LIVE_CHANNEL, parseLiveMessage } from '../../server/live.ts';
import { findTransactionByIdempotency, idempotency, systemAccount, transfer, walletAccount } from '../../server/domain/ledger.ts';
import { playableGame, startTestServer, type CallResult, type TestServer } from '../helpers/api.ts';
import { accountBalance, expectLedgerBalanced, fundedPlayer as fundedWith, ledgerTransactionCount as countLedgerTransactions, type Player, postingRequestHash } from '../helpers/money.ts';
import { countBatches } from '../helpers/db.ts';

/**
 * The seamless game wallet through HTTP: a player funded through the payment simulator's chain opens a
 * real-money session (casinoInitGame), and the tests play the game provider, signing each call with
 * the provider's wallet key. Every response is checked against openapi.yaml by the call helper; after
 * each test the ledger must prove itself.
 */

const SECRET = 'game-wallet-test-webhook-secret';
const HOUR = 60 * 60_000;

let server: TestServer;
let game: { id: number; providerId: number; secret: string };
let demoGame: { id: number; secret: string };

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  game = await playableGame(server);
  const [demo] = await server.db.query<{ id: number; wallet_secret: string }>(
    `SELECT g.id, p.wallet_secret FROM games g JOIN providers p ON p.id = g.provider_id
     WHERE g.active AND p.active AND g.has_demo ORDER BY g.id LIMIT 1`,
  );
  if (!demo) throw new Error('the seed has no game with a demo');
  demoGame = { id: demo.id, secret: demo.wallet_secret };
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const fundedPlayer = (amount: string) => fundedWith(server, amount);
const ledgerTransactionCount = () => countLedgerTransactions(server);

async function openSession(player: Player): Promise<string> {
  const res = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.gameSession.sessionId as string;
}

/** A signed game wallet call, as the game provider sends it. */
function gw(operationId: string, body: Record<string, unknown>, signature: string | null = signGameWalletRequest(game.secret, JSON.stringify(body))) {
  return server.call(operationId, {
    raw: { payload: JSON.stringify(body), contentType: 'application/json' },
    headers: signature === null ? {} : { 'x-game-signature': signature },
  });
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${process.pid}-${(sequence += 1)}`;

const bet = (sessionId: string, roundId: string, amount: string, transactionId = nextId('bet')) =>
  gw('gameWalletBet', { sessionId, roundId, transactionId, amount });
const win = (sessionId: string, roundId: string, amount: string, transactionId = nextId('win')) =>
  gw('gameWalletWin', { sessionId, roundId, transactionId, amount });

const rollback = (operationId: string, sessionId: string, roundId: string, referenceTransactionId: string, transactionId = nextId('rb')) =>
  gw(operationId, { sessionId, roundId, transactionId, referenceTransactionId });

function refused(res: CallResult): [number, string] {
  return [res.status, res.body.errors[0]?.description as string];
}

async function balances(userId: number): Promise<{ available: string; bonus: string }> {
  const [row] = await server.db.query<{ available: string; bonus: string }>(
    "SELECT w.available::text, w.bonus::text FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
    [userId],
  );
  return { available: formatAmount(parseSignedAmount(row!.available)), bonus: formatAmount(parseSignedAmount(row!.bonus)) };
}

/** What the LTC bonus pool holds (the ledger's sum of its entries). */
async function bonusPool(): Promise<bigint> {
  const [ltc] = await server.db.query<{ id: number }>("SELECT id FROM currencies WHERE code = 'LTC'");
  return accountBalance(server.db, systemAccount(ltc!.id, 'bonus_pool'));
}

async function myBonusStatuses(player: Player): Promise<string[]> {
  const rows = await server.db.query<{ status: string }>('SELECT status FROM user_bonuses WHERE user_id = $1 ORDER BY id', [player.user.id]);
  return rows.map((row) => row.status);
}

describe('bets and wins', () => {
  it('debits a bet, credits a win, answers the balance, and shows the round in the bet history', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const balance = await gw('gameWalletBalance', { sessionId });
    expect(balance.status).toBe(200);
    expect(balance.body.data.balance).toEqual({ currencyCode: 'LTC', balance: '1', available: '1', bonus: '0' });

    const roundId = nextId('round');
    const placed = await bet(sessionId, roundId, '0.1', 'bet-a');
    expect(placed.status).toBe(200);
    expect(placed.body.data.gameTransaction).toMatchObject({
      transactionId: 'bet-a',
      roundId,
      action: 'bet',
      amount: '0.1',
      bonusAmount: '0',
      replayed: false,
      balance: { balance: '0.9', available: '0.9', bonus: '0' },
    });
    const paid = await win(sessionId, roundId, '0.25', 'win-a');
    expect(paid.body.data.gameTransaction).toMatchObject({ action: 'win', amount: '0.25', balance: { available: '1.15' } });
    expect(await balances(player.user.id)).toEqual({ available: '1.15', bonus: '0' });

    // The player's transactions carry SPEC §3's fields for casino entries.
    const [record] = await server.db.query<{ type: string; action_type: string; game_identifier: string; before_balance: string; after_balance: string }>(
      'SELECT type, action_type, game_identifier, before_balance::text, after_balance::text FROM ledger_transactions WHERE public_id = $1',
      [placed.body.data.gameTransaction.ledgerTransactionId],
    );
    expect(record).toMatchObject({ type: 'casino', action_type: 'bet' });
    expect([Number(record!.before_balance), Number(record!.after_balance)]).toEqual([1, 0.9]);

    const history = await server.call('casinoGetTransactions', { token: player.token });
    expect(history.status).toBe(200);
    expect(history.body.data.betHistory.count).toBe(1);
    expect(history.body.data.betHistory.rows[0]).toMatchObject({
      roundId,
      game: { id: game.id },
      betAmount: '0.1',
      multiplier: '2.5',
      payout: '0.25',
      status: 'won',
      currencyCode: 'LTC',
    });
  });

  it('answers a replay with the first result and moves nothing; a reused transaction id is refused', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    const first = await bet(sessionId, roundId, '0.2', 'bet-r');
    const firstWin = await win(sessionId, roundId, '0.3', 'win-r');
    const before = await ledgerTransactionCount();
    const again = await bet(sessionId, roundId, '0.2', 'bet-r');
    expect(again.status).toBe(200);
    expect(again.body.data.gameTransaction).toEqual({ ...first.body.data.gameTransaction, replayed: true });
    const winAgain = await win(sessionId, roundId, '0.3', 'win-r');
    expect(winAgain.body.data.gameTransaction).toEqual({ ...firstWin.body.data.gameTransaction, replayed: true });
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await balances(player.user.id)).toEqual({ available: '1.1', bonus: '0' });

    const reused = await bet(sessionId, roundId, '0.3', 'bet-r');
    expect(refused(reused)).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(reused.body.errors[0].fields).toEqual([{ field: 'transactionId', code: 'duplicate' }]);
    expect(await ledgerTransactionCount()).toBe(before);
  });

  it('refuses what cannot be paid or does not add up', async () => {
    const player = await fundedPlayer('0.5');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    expect(refused(await bet(sessionId, roundId, '0.6'))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    const zero = await bet(sessionId, roundId, '0');
    expect(zero.body.errors[0].fields).toEqual([{ field: 'amount', code: 'amount.positive' }]);
    expect(refused(await win(sessionId, nextId('round'), '1'))).toEqual([404, 'NOT_FOUND']);
    // A round belongs to the wallet that opened it.
    await bet(sessionId, roundId, '0.1');
    const other = await fundedPlayer('0.5');
    expect(refused(await bet(await openSession(other), roundId, '0.1'))).toEqual([422, 'INVALID_VALUE']);
    expect(await balances(player.user.id)).toEqual({ available: '0.4', bonus: '0' });
  });

  it("refuses a win past the round's stake times the provider's largest multiplier, whatever the wins before it", async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    expect((await bet(sessionId, roundId, '0.001')).status).toBe(200);
    const count = await ledgerTransactionCount();
    // The example: 10001 on a 0.001 bet (under the per-call maximum), 10,001,000 times the stake.
    const huge = await win(sessionId, roundId, '10001');
    expect(refused(huge)).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(huge.body.errors[0].fields).toEqual([{ field: 'amount', code: 'amount.max' }]);
    expect(await ledgerTransactionCount()).toBe(count);
    expect(await balances(player.user.id)).toEqual({ available: '0.999', bonus: '0' });

    // The default bound, 1,000,000 times (the largest house game payout), counts every win of the round.
    const [provider] = await server.db.query<{ id: number; max_win_multiplier: string }>(
      'SELECT p.id, p.max_win_multiplier::text FROM providers p JOIN games g ON g.provider_id = p.id WHERE g.id = $1',
      [game.id],
    );
    expect(parseAmount(provider!.max_win_multiplier)).toBe(parseAmount('1000000'));
    expect((await win(sessionId, roundId, '600')).status).toBe(200);
    expect(refused(await win(sessionId, roundId, '400.00000001'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect((await win(sessionId, roundId, '400')).status).toBe(200);
    expect(await balances(player.user.id)).toEqual({ available: '1000.999', bonus: '0' });

    // An operator's lower bound for a provider applies at once.
    await server.db.query('UPDATE providers SET max_win_multiplier = 10 WHERE id = $1', [provider!.id]);
    try {
      const next = nextId('round');
      expect((await bet(sessionId, next, '0.1')).status).toBe(200);
      expect(refused(await win(sessionId, next, '1.00000001'))).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
      expect((await win(sessionId, next, '1')).status).toBe(200);
    } finally {
      await server.db.query('UPDATE providers SET max_win_multiplier = $2 WHERE id = $1', [provider!.id, provider!.max_win_multiplier]);
    }
    expect(await balances(player.user.id)).toEqual({ available: '1001.899', bonus: '0' });
  });

  it('settles a lost round with a win of 0, and pays free spins to available in rounds of their own', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const lost = nextId('round');
    await bet(sessionId, lost, '0.1');
    const none = await win(sessionId, lost, '0');
    expect(none.body.data.gameTransaction).toMatchObject({ amount: '0', ledgerTransactionId: null });
    const spin = await gw('gameWalletFreeSpin', { sessionId, roundId: nextId('spin'), transactionId: nextId('fs'), amount: '0.05' });
    expect(spin.status).toBe(200);
    expect(spin.body.data.gameTransaction).toMatchObject({ action: 'freeSpin', amount: '0.05', balance: { available: '0.95' } });
    const pending = nextId('round');
    await bet(sessionId, pending, '0.01');

    const all = await server.call('casinoGetTransactions', { token: player.token, query: { limit: 2 } });
    expect(all.body.data.betHistory.count).toBe(3);
    expect(all.body.data.betHistory.rows.map((row: { status: string }) => row.status)).toEqual(['pending', 'won']);
    const page2 = await server.call('casinoGetTransactions', { token: player.token, query: { limit: 2, page: 2 } });
    expect(page2.body.data.betHistory.rows).toMatchObject([{ roundId: lost, status: 'lost', multiplier: '0', payout: '0' }]);
    const spins = await server.call('casinoGetTransactions', { token: player.token, query: { status: 'won', gameId: game.id, currencyCode: 'LTC' } });
    expect(spins.body.data.betHistory.rows).toMatchObject([{ betAmount: '0', multiplier: null, payout: '0.05' }]);
    const future = await server.call('casinoGetTransactions', {
      token: player.token,
      query: { startDate: new Date(server.clock.now().getTime() + HOUR).toISOString() },
    });
    expect(future.body.data.betHistory).toEqual({ rows: [], count: 0 });
  });
});

describe('signatures and sessions', () => {
  it('refuses unsigned, badly signed, unknown, demo and expired sessions, and still settles begun rounds', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const body = { sessionId, roundId: nextId('round'), transactionId: nextId('bet'), amount: '0.1' };
    const before = await ledgerTransactionCount();
    const unsigned = await gw('gameWalletBet', body, null);
    expect(refused(unsigned)).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(refused(await gw('gameWalletBet', body, signGameWalletRequest('not-the-key', JSON.stringify(body))))).toEqual([401, 'INVALID_SIGNATURE']);
    expect(refused(await gw('gameWalletBet', body, 'zz'))).toEqual([401, 'INVALID_SIGNATURE']);
    const unknown = { ...body, sessionId: 'x'.repeat(32) };
    expect(refused(await gw('gameWalletBet', unknown))).toEqual([401, 'SESSION_EXPIRED']);
    const demo = await server.call('casinoInitGameDemo', { body: { gameId: demoGame.id } });
    const demoBody = { ...body, sessionId: demo.body.data.gameSession.sessionId };
    expect(refused(await gw('gameWalletBet', demoBody, signGameWalletRequest(demoGame.secret, JSON.stringify(demoBody))))).toEqual([403, 'FORBIDDEN']);
    expect(await ledgerTransactionCount()).toBe(before);

    // A round begun in time is paid after the session expired; new play is refused.
    expect((await gw('gameWalletBet', body)).status).toBe(200);
    server.clock.advance(4 * HOUR + 1);
    expect(refused(await bet(sessionId, nextId('round'), '0.1'))).toEqual([401, 'SESSION_EXPIRED']);
    expect((await gw('gameWalletBet', body)).body.data.gameTransaction.replayed).toBe(true);
    expect((await win(sessionId, body.roundId, '0.2')).status).toBe(200);
    expect(await balances(player.user.id)).toEqual({ available: '1.1', bonus: '0' });
  });

  it("refuses at once a call signed with a provider's key rotated out, and bets of a session expired by hand, though the server had read them", async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    expect((await bet(sessionId, roundId, '0.1')).status).toBe(200);
    const rotated = 'rotated-key-'.padEnd(64, 'x');
    await server.db.query('UPDATE providers SET wallet_secret = $2 WHERE id = $1', [game.providerId, rotated]);
    try {
      const body = { sessionId, roundId, transactionId: nextId('win'), amount: '0.2' };
      expect(refused(await gw('gameWalletWin', body))).toEqual([401, 'INVALID_SIGNATURE']);
      expect(refused(await gw('gameWalletBalance', { sessionId }))).toEqual([401, 'INVALID_SIGNATURE']);
      expect(refused(await gw('gameWalletBet', { sessionId, roundId: nextId('round'), transactionId: nextId('bet'), amount: '0.1' }))).toEqual([
        401,
        'INVALID_SIGNATURE',
      ]);
      expect((await gw('gameWalletWin', body, signGameWalletRequest(rotated, JSON.stringify(body)))).status).toBe(200);
    } finally {
      await server.db.query('UPDATE providers SET wallet_secret = $2 WHERE id = $1', [game.providerId, game.secret]);
    }
    expect((await bet(sessionId, nextId('round'), '0.1')).status).toBe(200);
    // An operator ends the session: new bets are refused at once, a begun round still settles.
    const begun = nextId('round');
    expect((await bet(sessionId, begun, '0.1')).status).toBe(200);
    await server.db.query("UPDATE game_sessions SET expires_at = $2::timestamptz - interval '1 second' WHERE id = $1", [sessionId, server.clock.now()]);
    expect(refused(await bet(sessionId, nextId('round'), '0.1'))).toEqual([401, 'SESSION_EXPIRED']);
    expect((await win(sessionId, begun, '0')).status).toBe(200);
    expect(await balances(player.user.id)).toEqual({ available: '0.9', bonus: '0' });
  });

  it('refuses bets while the player is self-excluded or inactive, and pays their wins', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    await bet(sessionId, roundId, '0.1');
    await server.db.query('UPDATE users SET self_excluded_until = $2 WHERE id = $1', [player.user.id, new Date(server.clock.now().getTime() + 48 * HOUR)]);
    expect(refused(await bet(sessionId, nextId('round'), '0.1'))).toEqual([403, 'SELF_EXCLUDED']);
    expect((await win(sessionId, roundId, '0.1')).status).toBe(200);
    await server.db.query('UPDATE users SET self_excluded_until = NULL, active = false WHERE id = $1', [player.user.id]);
    expect(refused(await bet(sessionId, nextId('round'), '0.1'))).toEqual([403, 'USER_INACTIVE']);
    expect(await balances(player.user.id)).toEqual({ available: '1', bonus: '0' });
  });
});

describe('rollbacks', () => {
  it('returns a bet, closes the round, and answers a replay or a second rollback without moving anything', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    await bet(sessionId, roundId, '0.3', 'bet-x');
    const back = await rollback('gameWalletRollbackBet', sessionId, roundId, 'bet-x', 'rb-x');
    expect(back.status).toBe(200);
    expect(back.body.data.gameTransaction).toMatchObject({ action: 'rollbackBet', referenceTransactionId: 'bet-x', amount: '0.3', balance: { available: '1' } });
    const before = await ledgerTransactionCount();
    const replay = await rollback('gameWalletRollbackBet', sessionId, roundId, 'bet-x', 'rb-x');
    expect(replay.body.data.gameTransaction).toEqual({ ...back.body.data.gameTransaction, replayed: true });
    const second = await rollback('gameWalletRollbackBet', sessionId, roundId, 'bet-x');
    expect(second.body.data.gameTransaction).toMatchObject({ amount: '0', ledgerTransactionId: null });
    expect(refused(await win(sessionId, roundId, '1'))).toEqual([422, 'INVALID_VALUE']);
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await balances(player.user.id)).toEqual({ available: '1', bonus: '0' });
    const history = await server.call('casinoGetTransactions', { token: player.token, query: { status: 'rolledBack' } });
    expect(history.body.data.betHistory.rows).toMatchObject([{ roundId, betAmount: '0', status: 'rolledBack', multiplier: null }]);
  });

  it('records a rollback that arrives before its bet or win, and refuses the late one', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const early = nextId('round');
    const first = await rollback('gameWalletRollbackBet', sessionId, early, 'bet-late');
    expect(first.body.data.gameTransaction).toMatchObject({ amount: '0', ledgerTransactionId: null });
    expect(refused(await bet(sessionId, early, '0.1', 'bet-late'))).toEqual([422, 'INVALID_VALUE']);

    const other = nextId('round');
    await bet(sessionId, other, '0.1');
    const noWin = await rollback('gameWalletRollbackWin', sessionId, other, 'win-late');
    expect(noWin.body.data.gameTransaction).toMatchObject({ action: 'rollbackWin', amount: '0' });
    expect(refused(await win(sessionId, other, '0.5', 'win-late'))).toEqual([422, 'INVALID_VALUE']);
    expect(await balances(player.user.id)).toEqual({ available: '0.9', bonus: '0' });
  });

  it('takes a win back, and refuses when the player no longer has it', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    await bet(sessionId, roundId, '0.5');
    await win(sessionId, roundId, '1', 'win-y');
    const back = await rollback('gameWalletRollbackWin', sessionId, roundId, 'win-y');
    expect(back.body.data.gameTransaction).toMatchObject({ amount: '1', balance: { available: '0.5' } });
    // Free-spin winnings are rolled back as wins.
    const spinRound = nextId('spin');
    await gw('gameWalletFreeSpin', { sessionId, roundId: spinRound, transactionId: 'fs-y', amount: '0.1' });
    const spinBack = await rollback('gameWalletRollbackWin', sessionId, spinRound, 'fs-y');
    expect(spinBack.body.data.gameTransaction).toMatchObject({ amount: '0.1', balance: { available: '0.5' } });

    const spent = nextId('round');
    await bet(sessionId, spent, '0.5');
    await win(sessionId, spent, '0.2', 'win-z');
    await bet(sessionId, nextId('round'), '0.2');
    const before = await ledgerTransactionCount();
    expect(refused(await rollback('gameWalletRollbackWin', sessionId, spent, 'win-z'))).toEqual([422, 'INSUFFICIENT_BALANCE']);
    expect(await ledgerTransactionCount()).toBe(before);
  });
});

describe('bonus money', () => {
  /** A player with `cash` deposited and a claimed bonus of 0.7 LTC to wager 100 times (so no bet here completes it). */
  async function playerWithBonus(cash: string) {
    const player = await fundedPlayer(cash);
    const [offer] = await server.db.query<{ id: number; currency_id: number }>(
      `INSERT INTO bonuses (type, name, amount, currency_id, wagering_multiplier, valid_days)
       SELECT 'loyalty', 'Game wallet test bonus', 0.7, id, 100, 30 FROM currencies WHERE code = 'LTC' RETURNING id, currency_id`,
    );
    const claim = await server.call('bonusAvail', { token: player.token, body: { bonusId: offer!.id, currencyId: offer!.currency_id } });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    return { player, userBonusId: claim.body.data.userBonus.id as number };
  }

  it('takes a bet from available first, then bonus, splits the win in the same proportion, and undoes both on rollback', async () => {
    const { player } = await playerWithBonus('0.3');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    const placed = await bet(sessionId, roundId, '0.4');
    expect(placed.body.data.gameTransaction).toMatchObject({ amount: '0.4', bonusAmount: '0.1', balance: { balance: '0.6', available: '0', bonus: '0.6' } });
    // 1/4 of the stake was bonus money: 1/4 of the win goes back to bonus (rounded up), the rest is cash.
    const paid = await win(sessionId, roundId, '0.00000003');
    expect(paid.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.00000001', balance: { available: '0.00000002' } });
    const big = await win(sessionId, roundId, '1');
    expect(big.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.25', balance: { available: '0.75000002', bonus: '0.85000001' } });
    const back = await gw('gameWalletRollbackBet', { sessionId, roundId, transactionId: nextId('rb'), referenceTransactionId: placed.body.data.gameTransaction.transactionId });
    expect(back.body.data.gameTransaction).toMatchObject({ amount: '0.4', bonusAmount: '0.1', balance: { available: '1.05000002', bonus: '0.95000001' } });
    // The rolled-back stake no longer counts toward the wagering.
    const [bonus] = await server.db.query<{ wagered_amount: string }>("SELECT wagered_amount::text FROM user_bonuses WHERE user_id = $1 AND status = 'active'", [player.user.id]);
    expect(parseSignedAmount(bonus!.wagered_amount)).toBe(0n);
  });

  it('pays the bonus-staked share of a win to the bonus pool, as a rolled-back bonus stake, once the bonus was forfeited', async () => {
    const { player, userBonusId } = await playerWithBonus('0.3');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    const placed = await bet(sessionId, roundId, '0.4');
    expect(placed.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.1', balance: { available: '0', bonus: '0.6' } });
    const forfeit = await server.call('bonusCancel', { token: player.token, body: { userBonusId } });
    expect(forfeit.status, JSON.stringify(forfeit.body)).toBe(200);
    const pool = await bonusPool();
    // A quarter of the stake was the forfeited bonus's money: a quarter of the win is too, and goes where it went.
    const paid = await win(sessionId, roundId, '0.8', 'win-f');
    expect(paid.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.2', balance: { available: '0.6', bonus: '0' } });
    expect(await bonusPool()).toBe(pool + parseAmount('0.2'));
    const wonBack = await rollback('gameWalletRollbackWin', sessionId, roundId, 'win-f');
    expect(wonBack.body.data.gameTransaction).toMatchObject({ amount: '0.8', bonusAmount: '0.2', balance: { available: '0', bonus: '0' } });
    expect(await bonusPool()).toBe(pool);
    const back = await gw('gameWalletRollbackBet', { sessionId, roundId, transactionId: nextId('rb'), referenceTransactionId: placed.body.data.gameTransaction.transactionId });
    // The cash part of the stake comes back; the forfeited bonus part stays forfeited.
    expect(back.body.data.gameTransaction).toMatchObject({ amount: '0.4', bonusAmount: '0.1', balance: { available: '0.3', bonus: '0' } });
    expect(await bonusPool()).toBe(pool + parseAmount('0.1'));
  });

  it('pays the bonus-staked share of a win as cash once the bonus completed: its money became cash', async () => {
    const { player } = await playerWithBonus('0.3');
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    const placed = await bet(sessionId, roundId, '0.4');
    expect(placed.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.1', balance: { available: '0', bonus: '0.6' } });
    // The wagering is met by other play: the bonus completes and its 0.6 left becomes cash.
    await server.db.query("UPDATE user_bonuses SET amount_to_wager = 0.5 WHERE user_id = $1 AND status = 'active'", [player.user.id]);
    await bet(sessionId, nextId('round'), '0.1');
    expect((await myBonusStatuses(player))).toEqual(['completed']);
    const paid = await win(sessionId, roundId, '0.8');
    expect(paid.body.data.gameTransaction).toMatchObject({ bonusAmount: '0.2', balance: { available: '1.3', bonus: '0' } });
  });
});

describe('limits', () => {
  async function setLimit(userId: number, kind: 'bet' | 'loss', period: 'daily' | 'weekly' | 'monthly', amount: string | null) {
    await server.db.query(
      `INSERT INTO gambling_limits (user_id, kind, period, amount) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = EXCLUDED.amount`,
      [userId, kind, period, amount],
    );
  }

  it('refuses a bet past the daily, weekly or monthly bet limit, net of rolled-back bets', async () => {
    const player = await fundedPlayer('2');
    const limit = await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'bet', daily: '0.5' } });
    expect(limit.status).toBe(200);
    const sessionId = await openSession(player);
    const roundId = nextId('round');
    await bet(sessionId, roundId, '0.3', 'bet-l');
    expect((await bet(sessionId, roundId, '0.2')).status).toBe(200);
    expect(refused(await bet(sessionId, roundId, '0.01'))).toEqual([422, 'DAILY_BET_LIMIT_EXCEEDED']);
    await gw('gameWalletRollbackBet', { sessionId, roundId, transactionId: nextId('rb'), referenceTransactionId: 'bet-l' });
    expect((await bet(sessionId, nextId('round'), '0.3')).status).toBe(200);

    await setLimit(player.user.id, 'bet', 'daily', null);
    await setLimit(player.user.id, 'bet', 'weekly', '0.6');
    expect(refused(await bet(sessionId, nextId('round'), '0.2'))).toEqual([422, 'WEEKLY_BET_LIMIT_EXCEEDED']);
    await setLimit(player.user.id, 'bet', 'weekly', null);
    await setLimit(player.user.id, 'bet', 'monthly', '0.6');
    expect(refused(await bet(sessionId, nextId('round'), '0.2'))).toEqual([422, 'MONTHLY_BET_LIMIT_EXCEEDED']);
    expect(await balances(player.user.id)).toEqual({ available: '1.5', bonus: '0' });
    // With the monthly limit used up to the last unit, no new game opens.
    await setLimit(player.user.id, 'bet', 'monthly', '0.5');
    const init = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
    expect(refused(init)).toEqual([422, 'MONTHLY_BET_LIMIT_EXCEEDED']);
  });

  it('refuses a bet past a loss limit: stakes minus wins in the period', async () => {
    const player = await fundedPlayer('2');
    const sessionId = await openSession(player);
    await setLimit(player.user.id, 'loss', 'daily', '0.5');
    const roundId = nextId('round');
    await bet(sessionId, roundId, '0.4');
    await win(sessionId, roundId, '0.1');
    expect((await bet(sessionId, nextId('round'), '0.2')).status).toBe(200);
    expect(refused(await bet(sessionId, nextId('round'), '0.01'))).toEqual([422, 'DAILY_LOSS_LIMIT_EXCEEDED']);
    await setLimit(player.user.id, 'loss', 'daily', null);
    await setLimit(player.user.id, 'loss', 'weekly', '0.5');
    expect(refused(await bet(sessionId, nextId('round'), '0.01'))).toEqual([422, 'WEEKLY_LOSS_LIMIT_EXCEEDED']);
    await setLimit(player.user.id, 'loss', 'weekly', null);
    await setLimit(player.user.id, 'loss', 'monthly', '0.5');
    expect(refused(await bet(sessionId, nextId('round'), '0.01'))).toEqual([422, 'MONTHLY_LOSS_LIMIT_EXCEEDED']);
    // A day later the daily window is empty again.
    await setLimit(player.user.id, 'loss', 'monthly', null);
    await setLimit(player.user.id, 'loss', 'daily', '0.5');
    server.clock.advance(24 * HOUR + 1);
    expect((await bet(await openSession({ ...player, token: await relogin(player) }), nextId('round'), '0.4')).status).toBe(200);
  });

  async function relogin(player: Player): Promise<string> {
    const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    return login.body.data.accessToken as string;
  }
});

describe('one statement per call', () => {
  it('writes a bet and its win as the ledger would post them, and announces each balance change once committed', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const [wallet] = await server.db.query<{ id: number; currency_id: number }>(
      "SELECT w.id, w.currency_id FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
      [player.user.id],
    );
    const announced: string[] = [];
    const stop = await server.db.listen('casino_events', (payload) => announced.push(payload));
    try {
      const roundId = nextId('round');
      const placed = await bet(sessionId, roundId, '0.1', `${roundId}-bet`);
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const paid = await win(sessionId, roundId, '0.25', `${roundId}-win`);
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.data.gameTransaction.balance).toMatchObject({ available: '1.15', bonus: '0' });

      const { slug } = (await server.db.query<{ slug: string }>('SELECT slug FROM providers WHERE id = $1', [game.providerId]))[0]!;
      const [gameRow] = await server.db.query<{ identifier: string }>('SELECT identifier FROM games WHERE id = $1', [game.id]);
      const player_ = walletAccount(wallet!.id, 'available');
      const house = systemAccount(wallet!.currency_id, 'house');
      for (const [action, amount, legs] of [
        ['bet', '0.1', transfer(player_, house, parseAmount('0.1'))],
        ['win', '0.25', transfer(house, player_, parseAmount('0.25'))],
      ] as const) {
        const key = idempotency.game(`${roundId}:${roundId}-${action}`, action, slug);
        const posted = await findTransactionByIdempotency(server.db, key);
        expect(posted?.kind).toBe(`game.${action}`);
        const byAmount = (a: { amount: bigint }, b: { amount: bigint }) => (a.amount < b.amount ? -1 : 1);
        expect(posted?.entries.map((e) => ({ account: e.account, amount: e.amount })).sort(byAmount)).toEqual([...legs].sort(byAmount));
        expect(posted?.visible).toMatchObject({ walletId: wallet!.id, type: 'casino', actionType: action, amount: parseAmount(amount) });
        const [stored] = await server.db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [posted!.id]);
        expect(stored!.request_hash).toBe(
          postingRequestHash({
            kind: `game.${action}`,
            at: new Date(),
            legs,
            idempotency: key,
            visible: { walletId: wallet!.id, type: 'casino', actionType: action, status: 'completed', amount: parseAmount(amount), gameIdentifier: gameRow!.identifier },
          }),
        );
      }
      const isWallets = (payload: string) => {
        const message = JSON.parse(payload) as { u: number; k: string; id: number };
        return message.u === player.user.id && message.k === 'wallets' && message.id === player.user.id;
      };
      await expect.poll(() => announced.filter(isWallets).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      // A refused bet announces nothing.
      const before = announced.length;
      expect(refused(await bet(sessionId, nextId('round'), '5'))).toEqual([422, 'INSUFFICIENT_BALANCE']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(announced.slice(before)).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('one statement per call: rollbacks', () => {
  it('writes a rollback of a bet and of a win as the ledger would post them, related to what they cancel', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const [wallet] = await server.db.query<{ id: number; currency_id: number }>(
      "SELECT w.id, w.currency_id FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
      [player.user.id],
    );
    const { slug } = (await server.db.query<{ slug: string }>('SELECT slug FROM providers WHERE id = $1', [game.providerId]))[0]!;
    const [gameRow] = await server.db.query<{ identifier: string }>('SELECT identifier FROM games WHERE id = $1', [game.id]);
    const playerAccount = walletAccount(wallet!.id, 'available');
    const house = systemAccount(wallet!.currency_id, 'house');
    const won = nextId('round');
    await bet(sessionId, won, '0.2', `${won}-bet`);
    await win(sessionId, won, '0.5', `${won}-win`);
    const lost = nextId('round');
    await bet(sessionId, lost, '0.1', `${lost}-bet`);
    const back = await gw('gameWalletRollbackWin', { sessionId, roundId: won, transactionId: `${won}-rbw`, referenceTransactionId: `${won}-win` });
    expect(back.body.data.gameTransaction).toMatchObject({ amount: '0.5', balance: { available: '0.7' } });
    const refund = await gw('gameWalletRollbackBet', { sessionId, roundId: lost, transactionId: `${lost}-rbb`, referenceTransactionId: `${lost}-bet` });
    expect(refund.body.data.gameTransaction).toMatchObject({ amount: '0.1', balance: { available: '0.8' } });
    for (const [roundId, action, cancelled, amount, legs] of [
      [won, 'rollbackWin', 'win', '0.5', transfer(playerAccount, house, parseAmount('0.5'))],
      [lost, 'rollbackBet', 'bet', '0.1', transfer(house, playerAccount, parseAmount('0.1'))],
    ] as const) {
      const original = await findTransactionByIdempotency(server.db, idempotency.game(`${roundId}:${roundId}-${cancelled}`, cancelled, slug));
      const key = idempotency.game(`${roundId}:${roundId}-${action === 'rollbackWin' ? 'rbw' : 'rbb'}`, action, slug);
      const posted = await findTransactionByIdempotency(server.db, key);
      expect(posted?.relatedTransactionId).toBe(original?.id);
      const byAmount = (a: { amount: bigint }, b: { amount: bigint }) => (a.amount < b.amount ? -1 : 1);
      expect(posted?.entries.map((e) => ({ account: e.account, amount: e.amount })).sort(byAmount)).toEqual([...legs].sort(byAmount));
      const [stored] = await server.db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [posted!.id]);
      expect(stored!.request_hash).toBe(
        postingRequestHash({
          kind: `game.${action.toLowerCase()}`,
          at: new Date(),
          legs,
          idempotency: key,
          visible: { walletId: wallet!.id, type: 'casino', actionType: action, status: 'completed', amount: parseAmount(amount), gameIdentifier: gameRow!.identifier },
          relatedTransactionId: original?.id ?? null,
        }),
      );
    }
    expect(await balances(player.user.id)).toEqual({ available: '0.8', bonus: '0' });
  });
});

describe('concurrency', () => {
  it('takes exactly 10 of 100 concurrent bets against a balance of 10 bets', async () => {
    const player = await fundedPlayer('1');
    const sessionId = await openSession(player);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => bet(sessionId, `conc-${process.pid}-${i}`, '0.1')));
    const statuses = results.map((res) => (res.status === 200 ? 'accepted' : refused(res).join(' ')));
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(10);
    expect(statuses.filter((s) => s === '422 INSUFFICIENT_BALANCE')).toHaveLength(90);
    expect(await balances(player.user.id)).toEqual({ available: '0', bonus: '0' });
  });

  it("settles many players' concurrent calls in shared transactions, each answered as if it had run alone", async () => {
    // Twelve sign-ups from one address: two hours' worth of its limit (10 an hour).
    const players: Player[] = [];
    for (const group of [0, 1]) {
      server.clock.advance(HOUR);
      players.push(...(await Promise.all(Array.from({ length: 6 }, () => fundedPlayer('1')))));
      expect(group).toBeLessThan(2);
    }
    const sessions = await Promise.all(players.map((player) => openSession(player)));
    const rounds = players.map(() => nextId('round'));
    // The first calls of each wave are held back a moment, so that the rest arrive while they are on their
    // way and wait together, as they do under load.
    const query = server.db.query.bind(server.db);
    let held: Promise<void> | null = null;
    server.db.query = (async (sql: string, ...rest: Parameters<typeof server.db.query> extends [string, ...infer R] ? R : never) => {
      if (sql.includes('game_wallet_play(')) {
        held ??= new Promise((resolve) => setTimeout(resolve, 500)).then(() => {
          held = null;
        });
        await held;
      }
      return query(sql, ...rest);
    }) as typeof server.db.query;
    const { sizes: batches, stop: stopCounting } = countBatches(server.db, 'game_wallet_play', (params) => (params[0] as unknown[]).length);
    // What the players' streams hear: each call that moved money announces its player's wallets, batched or not.
    const heard: string[] = [];
    const stopListening = await server.db.listen(LIVE_CHANNEL, (payload) => heard.push(payload));
    const announced = (player: Player) =>
      heard.map(parseLiveMessage).filter((message) => message !== null && message.userId === player.user.id && message.kind === 'wallets').length;
    // Announcements arrive after the answers: waits (5 s at most) until each player heard what it should.
    const heardOf = async (expected: readonly number[]) => {
      for (let waited = 0; players.some((player, i) => announced(player) < expected[i]!) && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return players.map(announced);
    };
    try {
      // Bets of every player at once, beside bets the balance does not cover.
      const placed = await Promise.all([
        ...sessions.map((sessionId, i) => bet(sessionId, rounds[i]!, '0.1', `${rounds[i]}-bet`)),
        bet(sessions[0]!, nextId('round'), '5'),
        bet(sessions[1]!, nextId('round'), '5'),
      ]);
      expect(placed.slice(0, 12).map((res) => res.status)).toEqual(Array(12).fill(200));
      expect(placed.slice(0, 12).map((res) => res.body.data.gameTransaction.balance.available)).toEqual(Array(12).fill('0.9'));
      expect(placed.slice(12).map(refused)).toEqual([
        [422, 'INSUFFICIENT_BALANCE'],
        [422, 'INSUFFICIENT_BALANCE'],
      ]);
      expect(await heardOf(Array(12).fill(1))).toEqual(Array(12).fill(1));
      // Their wins (lost and won in turn) at once, beside replays of three of the bets and a bet on another's round.
      const before = await ledgerTransactionCount();
      const [foreign, ...paid] = await Promise.all([
        bet(sessions[2]!, rounds[3]!, '0.1'),
        ...sessions.map((sessionId, i) => win(sessionId, rounds[i]!, i % 2 === 0 ? '0' : '0.25', `${rounds[i]}-win`)),
        ...[4, 5, 6].map((i) => bet(sessions[i]!, rounds[i]!, '0.1', `${rounds[i]}-bet`)),
      ]);
      expect(refused(foreign!)).toEqual([422, 'INVALID_VALUE']);
      expect(paid.map((res) => res.status)).toEqual(Array(15).fill(200));
      expect(paid.slice(0, 12).map((res) => res.body.data.gameTransaction.balance.available)).toEqual(
        players.map((_, i) => (i % 2 === 0 ? '0.9' : '1.15')),
      );
      expect(paid.slice(12).map((res) => res.body.data.gameTransaction)).toEqual(
        [4, 5, 6].map((i) => ({ ...placed[i]!.body.data.gameTransaction, replayed: true })),
      );
      // Six wins moved money: six ledger transactions, none for the lost rounds or the replays; the players
      // they paid heard of it, and nobody else heard again.
      expect(await ledgerTransactionCount()).toBe(before + 6);
      const afterWins = players.map((_, i) => (i % 2 === 0 ? 1 : 2));
      expect(await heardOf(afterWins)).toEqual(afterWins);
      for (const [i, player] of players.entries()) expect(await balances(player.user.id)).toEqual({ available: i % 2 === 0 ? '0.9' : '1.15', bonus: '0' });
    } finally {
      stopCounting();
      server.db.query = query;
      await stopListening();
    }
    // Most calls went in batches (32 calls at most in one).
    expect(batches.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(15);
    expect(Math.max(...batches)).toBeLessThanOrEqual(32);
  });
});
