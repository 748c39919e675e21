import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { formatAmount, parseAmount } from '../../src/money.ts';
import { segwitAddress } from '../../server/addresses.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { postgresUrlOf } from '../helpers/db.ts';
import { code, depositAddress, expectLedgerBalanced, signedWebhook, type Player } from '../helpers/money.ts';
import { randomBytes } from 'node:crypto';
import type { SimulatorPaymentProvider } from '../../server/providers/payment-simulator.ts';

/**
 * Deposit limits applied when a deposit is credited, not only when the address is asked for: the wallet's
 * deposit address is fixed, so coins over the limit arrive anyway. The part over the limit is held apart
 * (the wallet's `held` balance: not playable, not counted as deposited), released as the limit windows
 * allow, and may always be withdrawn; a withdrawal that fails gives it back to held.
 */

const DAY = 24 * 60 * 60_000;
const SECRET = 'deposit-limits-credit-webhook-secret';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: 'false', PAYMENT_WEBHOOK_SECRET: SECRET });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

interface Balances {
  available: string;
  pending: string;
  bonus: string;
  held: string;
}

async function balances(token: string): Promise<Balances> {
  const res = await server.call('userGetWallets', { token });
  expect(res.status).toBe(200);
  const wallet = (res.body.data.wallets as (Balances & { currencyCode: string })[]).find((w) => w.currencyCode === 'LTC');
  if (!wallet) throw new Error('no LTC wallet');
  return { available: wallet.available, pending: wallet.pending, bonus: wallet.bonus, held: wallet.held };
}

async function deposit(address: string, amount: string): Promise<void> {
  const sent = await server.call('devChainTransfer', { body: { address, amount } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const confirmed = await server.call('devChainConfirm', { body: { txId: sent.body.data.txId as string, confirmations: 6 } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  expect(confirmed.body.data.transfer.callbackStatus).toBe(200);
}

async function depositUsage(token: string) {
  const res = await server.call('rgGetLimits', { token });
  expect(res.status).toBe(200);
  return res.body.data.limits.usage.deposit as Record<'daily' | 'weekly' | 'monthly', string>;
}

/** The scenario: a daily deposit limit of 1.1, 1 LTC credited, then 5 LTC sent to the same address. */
async function overLimitPlayer(): Promise<Player & { address: string }> {
  const player = await registeredPlayer(server);
  const limit = await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'deposit', daily: '1.1' } });
  expect(limit.status).toBe(200);
  const address = await depositAddress(server, player, '1');
  await deposit(address, '1');
  expect(code(await server.call('paymentDeposit', { token: player.token, body: { amount: '5', currencyCode: 'LTC' } }))).toEqual([
    422,
    'DEPOSIT_LIMIT_EXCEED',
  ]);
  await deposit(address, '5');
  return { ...player, address };
}

async function signIn(player: Player): Promise<string> {
  const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
  expect(login.status).toBe(200);
  return login.body.data.accessToken as string;
}

it('credits only what fits in the deposit limit and holds the rest apart, not counted and not playable', async () => {
  const player = await overLimitPlayer();
  expect(await balances(player.token)).toEqual({ available: '1.1', pending: '0', bonus: '0', held: '4.9' });
  expect(await depositUsage(player.token)).toEqual({ daily: '1.1', weekly: '1.1', monthly: '1.1' });
  // Still full: another transfer is held whole, and reading again releases nothing.
  await deposit(player.address, '0.5');
  expect(await balances(player.token)).toEqual({ available: '1.1', pending: '0', bonus: '0', held: '5.4' });
  const rows = await server.db.query<{ amount: string; held_amount: string }>(
    'SELECT amount::text, held_amount::text FROM deposits WHERE user_id = $1 ORDER BY id',
    [player.user.id],
  );
  expect(rows.map((r) => [formatAmount(parseAmount(r.amount)), formatAmount(parseAmount(r.held_amount))])).toEqual([
    ['1', '0'],
    ['5', '4.9'],
    ['0.5', '0.5'],
  ]);
  // The player is told: the deposits on their way name the held part, and so do the notices.
  const activity = await server.call('paymentGetActivity', { token: player.token });
  expect(activity.status).toBe(200);
  expect(
    (activity.body.data.deposits as { amount: string; status: string; heldAmount?: string }[]).map((d) => [d.amount, d.status, d.heldAmount ?? null]),
  ).toEqual([
    ['0.5', 'credited', '0.5'],
    ['5', 'credited', '4.9'],
    ['1', 'credited', null],
  ]);
  const notices = await server.db.query<{ message: string }>('SELECT message FROM user_notifications WHERE user_id = $1 ORDER BY id', [
    player.user.id,
  ]);
  expect(notices.map((n) => n.message)).toEqual([
    'Your deposit of 1 LTC has been credited to your wallet.',
    'Your deposit of 5 LTC has been credited to your wallet: 0.1 LTC to your balance, 4.9 LTC held apart over your deposit limit, released as the limit allows (you may withdraw it at any time).',
    'Your deposit of 0.5 LTC has been credited to your wallet: 0.5 LTC held apart over your deposit limit, released as the limit allows (you may withdraw it at any time).',
  ]);
});

it('releases held money as the limit windows pass, and counts it when released', async () => {
  const player = await overLimitPlayer();
  server.clock.advance(DAY + 1);
  const token = await signIn(player);
  // The daily window is empty again: 1.1 more fits, released on this read.
  expect(await balances(token)).toEqual({ available: '2.2', pending: '0', bonus: '0', held: '3.8' });
  expect(await depositUsage(token)).toEqual({ daily: '1.1', weekly: '2.2', monthly: '2.2' });
  expect(await balances(token)).toEqual({ available: '2.2', pending: '0', bonus: '0', held: '3.8' });
  // A deposit credited meanwhile waits behind the older held money: released first, the new one held.
  server.clock.advance(DAY + 1);
  await deposit(player.address, '0.2');
  const later = await signIn(player);
  expect(await balances(later)).toEqual({ available: '3.3', pending: '0', bonus: '0', held: '2.9' });
});

it('lets the player withdraw held money once the available balance is used up', async () => {
  const player = await overLimitPlayer();
  const address = segwitAddress('ltc', 0, randomBytes(20));
  expect(code(await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '6.5', address } }))).toEqual([
    422,
    'INSUFFICIENT_BALANCE',
  ]);
  const res = await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '3', address } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const total = parseAmount('3') + parseAmount(res.body.data.fee as string);
  const held = parseAmount('6') - total;
  expect(await balances(player.token)).toEqual({ available: '0', pending: formatAmount(total), bonus: '0', held: formatAmount(held) });
  // Withdrawn held money never counted as deposited.
  expect(await depositUsage(player.token)).toEqual({ daily: '1.1', weekly: '1.1', monthly: '1.1' });
});

it('gives held money back to held, not to available, when a withdrawal that took it fails', async () => {
  const player = await overLimitPlayer();
  const address = segwitAddress('ltc', 0, randomBytes(20));
  const before = { available: '1.1', pending: '0', bonus: '0', held: '4.9' };
  expect(await balances(player.token)).toEqual(before);
  const res = await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '3', address } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const total = parseAmount('3') + parseAmount(res.body.data.fee as string);
  const [row] = await server.db.query<{ held_amount: string }>('SELECT held_amount::text FROM withdrawals WHERE spend_request_id = $1', [
    res.body.data.spendRequestId,
  ]);
  expect(parseAmount(row!.held_amount)).toBe(total - parseAmount('1.1'));
  const settled = await server.call('devWithdrawalsSettle', { body: { spendRequestId: res.body.data.spendRequestId, outcome: 'failed' } });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  expect(settled.body.data.payout.callbackStatus).toBe(200);
  // Not playable now either, and still not counted as deposited.
  expect(await balances(player.token)).toEqual(before);
  expect(await depositUsage(player.token)).toEqual({ daily: '1.1', weekly: '1.1', monthly: '1.1' });
});

it('gives held money back to held when the provider refuses the withdrawal that took it', async () => {
  const player = await overLimitPlayer();
  const simulator = server.ctx.payments as SimulatorPaymentProvider;
  simulator.setOnline(false);
  try {
    const res = await server.call('paymentWithdraw', {
      token: player.token,
      body: { currencyCode: 'LTC', amount: '2', address: segwitAddress('ltc', 0, randomBytes(20)) },
    });
    expect(code(res)).toEqual([502, 'COIN_PAYMENTS_SERVER_ERROR']);
  } finally {
    simulator.setOnline(true);
  }
  expect(await balances(player.token)).toEqual({ available: '1.1', pending: '0', bonus: '0', held: '4.9' });
});

it('splits concurrent credits of one player as if they came one after the other', async () => {
  const player = await registeredPlayer(server);
  expect((await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'deposit', daily: '1' } })).status).toBe(200);
  const address = await depositAddress(server, player, '0.8');
  const txIds: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const sent = await server.call('devChainTransfer', { body: { address, amount: '0.8' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    txIds.push(sent.body.data.txId as string);
  }
  const confirmed = await Promise.all(txIds.map((txId) => server.call('devChainConfirm', { body: { txId, confirmations: 6 } })));
  expect(confirmed.map((res) => [res.status, res.body.data.transfer.callbackStatus])).toEqual(txIds.map(() => [200, 200]));
  expect(await balances(player.token)).toEqual({ available: '1', pending: '0', bonus: '0', held: '2.2' });
  expect(await depositUsage(player.token)).toEqual({ daily: '1', weekly: '1', monthly: '1' });
});

/** The player's LTC rows, oldest first, as [actionType, status, amount, beforeBalance, afterBalance]. */
async function listed(token: string): Promise<string[][]> {
  const res = await server.call('userGetTransactions', { token, query: { page: 1, limit: 100, currencyCode: 'LTC' } });
  expect(res.status).toBe(200);
  const rows = res.body.data.transactions.rows as { actionType: string; status: string; amount: string; beforeBalance: string; afterBalance: string }[];
  return rows.reverse().map((r) => [r.actionType, r.status, r.amount, r.beforeBalance, r.afterBalance]);
}

/** Each row starts from the available balance the one before ended with, and the last ends at the wallet's. */
function expectChained(rows: string[][], available: string): void {
  let balance = '0';
  for (const [actionType, status, , before, after] of rows) {
    expect(before, `${actionType} ${status} starts where the row before ended`).toBe(balance);
    balance = after!;
  }
  expect(balance).toBe(available);
}

it('lists a release of held money as a row that chains with the rows around it', async () => {
  const player = await overLimitPlayer();
  server.clock.advance(DAY + 1);
  const token = await signIn(player);
  expect(await balances(token)).toEqual({ available: '2.2', pending: '0', bonus: '0', held: '3.8' });
  await deposit(player.address, '0.3');
  const rows = await listed(token);
  expect(rows).toEqual([
    ['deposit', 'completed', '1', '0', '1'],
    ['deposit', 'completed', '5', '1', '1.1'],
    ['depositRelease', 'completed', '1.1', '1.1', '2.2'],
    ['deposit', 'completed', '0.3', '2.2', '2.2'],
  ]);
  expectChained(rows, (await balances(token)).available);
});

it('lists a withdrawal drawing on held money as one row of its whole amount that chains with the rows around it, and so its refund', async () => {
  const player = await overLimitPlayer();
  const res = await server.call('paymentWithdraw', {
    token: player.token,
    body: { currencyCode: 'LTC', amount: '3', address: segwitAddress('ltc', 0, randomBytes(20)) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const total = formatAmount(parseAmount('3') + parseAmount(res.body.data.fee as string));
  expect(await listed(player.token)).toEqual([
    ['deposit', 'completed', '1', '0', '1'],
    ['deposit', 'completed', '5', '1', '1.1'],
    ['withdraw', 'pending', total, '1.1', '0'],
  ]);
  const settled = await server.call('devWithdrawalsSettle', { body: { spendRequestId: res.body.data.spendRequestId, outcome: 'failed' } });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  const rows = await listed(player.token);
  expect(rows).toEqual([
    ['deposit', 'completed', '1', '0', '1'],
    ['deposit', 'completed', '5', '1', '1.1'],
    ['withdraw', 'failed', total, '1.1', '0'],
    ['withdrawRefund', 'failed', total, '0', '1.1'],
  ]);
  expectChained(rows, (await balances(player.token)).available);
});

if (process.env.TEST_DATABASE_URL) {
  it('credits a transfer confirmed at once while a release holds the player’s deposit-limit lock: the credit waits for it before taking the wallet', async () => {
    const player = await registeredPlayer(server);
    expect((await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'deposit', daily: '1' } })).status).toBe(200);
    const address = await depositAddress(server, player, '0.5');
    const [wallet] = await server.db.query<{ id: number }>(
      "SELECT w.id FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
      [player.user.id],
    );
    // Another connection reckons the player's deposit limits as a release does: their lock, then the wallet.
    const release = new pg.Client({ connectionString: postgresUrlOf(server.db) });
    await release.connect();
    try {
      await release.query('BEGIN');
      await release.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`deposit-limits:${player.user.id}`]);
      const credited = signedWebhook(server, SECRET, { type: 'deposit', txId: `at-once-${player.user.id}`, address, currencyCode: 'LTC', amount: '0.5', confirmations: 6 });
      const waiting = async () =>
        (await release.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0]!.n;
      for (let waited = 0; (await waiting()) === 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await waiting()).toBe(1);
      // A credit that had locked the wallet before the deposit-limit lock would deadlock here.
      await release.query('SELECT id FROM wallets WHERE id = $1 FOR UPDATE', [wallet!.id]);
      await release.query('COMMIT');
      const res = await credited;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.deposit).toMatchObject({ status: 'credited', changed: true });
      expect(await balances(player.token)).toEqual({ available: '0.5', pending: '0', bonus: '0', held: '0' });
    } finally {
      await release.end();
    }
  });
}
