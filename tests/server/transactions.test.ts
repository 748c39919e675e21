import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { segwitAddress } from '../../server/addresses.ts';
import { postTransaction, systemAccount, transfer, walletAccount } from '../../server/domain/ledger.ts';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { expectLedgerBalanced, walletOf as walletIn, type Player } from '../helpers/money.ts';

/**
 * The player's transaction list through HTTP (userGetTransactions), every response checked against
 * openapi.yaml. Money arrives as it does in production: a deposit address, a transfer on the payment
 * simulator's chain and its confirmations, the simulator calling the signed webhook over real HTTP (so
 * the server listens on a loopback port). Casino rounds are posted straight to the ledger, as the game
 * wallet does. The clock moves only when a test moves it, so every row has a known time.
 */

const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'transactions-test-secret' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

interface Row {
  transactionId: string;
  type: string;
  actionType: string;
  status: string;
  amount: string;
  beforeBalance: string;
  afterBalance: string;
  currencyCode: string;
  gameIdentifier: string | null;
  createdAt: string;
}

const walletOf = (player: Player, currencyCode: string) => walletIn(server, player, currencyCode);

/** A transfer to the player's deposit address; confirmed 6 times unless told otherwise. */
async function deposit(player: Player, amount: string, options: { currencyCode?: string; confirmations?: number } = {}): Promise<string> {
  const currencyCode = options.currencyCode ?? 'LTC';
  const addressRes = await server.call('paymentDeposit', { token: player.token, body: { amount: '1', currencyCode } });
  expect(addressRes.status, JSON.stringify(addressRes.body)).toBe(200);
  const sent = await server.call('devChainTransfer', { body: { address: addressRes.body.data.address, amount } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const txId = sent.body.data.txId as string;
  const confirmations = options.confirmations ?? 6;
  if (confirmations > 0) {
    const confirmed = await server.call('devChainConfirm', { body: { txId, confirmations } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  }
  return txId;
}

/** A casino round's bet (and win when `win` is given), posted as the game wallet posts them. */
async function round(player: Player, bet: string, win?: string): Promise<void> {
  const wallet = await walletOf(player, 'LTC');
  const house = systemAccount(wallet.currencyId, 'house');
  const available = walletAccount(wallet.id, 'available');
  await server.db.transaction(async (tx) => {
    await postTransaction(tx, {
      kind: 'bet',
      at: server.clock.now(),
      legs: transfer(available, house, parseAmount(bet)),
      visible: { walletId: wallet.id, type: 'casino', actionType: 'bet', status: 'completed', amount: parseAmount(bet), gameIdentifier: 'sim-fruit-slots' },
    });
    if (win) {
      await postTransaction(tx, {
        kind: 'win',
        at: server.clock.now(),
        legs: transfer(house, available, parseAmount(win)),
        visible: { walletId: wallet.id, type: 'casino', actionType: 'win', status: 'completed', amount: parseAmount(win), gameIdentifier: 'sim-fruit-slots' },
      });
    }
  });
}

/**
 * The rule of the list (openapi.yaml userGetTransactions): newest first, each row of a wallet starts
 * from the balance the row below it ended with, the oldest from 0, and the newest ends at the balance.
 */
function expectChained(rows: Row[], available: string): void {
  const oldestFirst = [...rows].reverse();
  let balance = 0n;
  for (const [i, row] of oldestFirst.entries()) {
    expect(row.beforeBalance, `row ${i} (${row.actionType} ${row.status} ${row.amount}) starts where the one before ended`).toBe(formatAmount(balance));
    const moved = parseSignedAmount(row.afterBalance) - parseSignedAmount(row.beforeBalance);
    // An unsigned amount: what moved, or (for payouts and fees out of the pending balance) nothing.
    if (moved !== 0n) expect(moved < 0n ? -moved : moved).toBe(parseSignedAmount(row.amount));
    balance = parseSignedAmount(row.afterBalance);
  }
  expect(formatAmount(balance)).toBe(available);
}

async function list(player: Player, query: Record<string, string | number | undefined> = {}): Promise<{ rows: Row[]; count: number }> {
  const res = await server.call('userGetTransactions', { token: player.token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.transactions;
}

describe('the transaction list', () => {
  it('shows a deposit once, pending at first and completed once credited', async () => {
    const player = await registeredPlayer(server);
    expect(await list(player)).toEqual({ rows: [], count: 0 });

    const txId = await deposit(player, '0.5', { confirmations: 0 });
    const pending = await list(player);
    expect(pending.count).toBe(1);
    expect(pending.rows[0]).toMatchObject({ type: 'deposit', actionType: 'deposit', status: 'pending', amount: '0.5', beforeBalance: '0', afterBalance: '0' });

    server.clock.advance(MINUTE);
    const confirmed = await server.call('devChainConfirm', { body: { txId, confirmations: 6 } });
    expect(confirmed.status).toBe(200);
    const credited = await list(player);
    expect(credited.count).toBe(1);
    expect(credited.rows).toEqual([
      {
        transactionId: expect.any(String),
        type: 'deposit',
        actionType: 'deposit',
        status: 'completed',
        amount: '0.5',
        beforeBalance: '0',
        afterBalance: '0.5',
        currencyCode: 'LTC',
        gameIdentifier: null,
        createdAt: server.clock.now().toISOString(),
      },
    ]);
    // The latest posting stands for the movement: its own id, not the pending one's.
    expect(credited.rows[0]!.transactionId).not.toBe(pending.rows[0]!.transactionId);
    expect((await list(player, { status: 'pending' })).count).toBe(0);
  });

  it('shows a deposit under the minimum as a failed deposit that changed no balance', async () => {
    const player = await registeredPlayer(server);
    await deposit(player, '0.3');
    server.clock.advance(MINUTE);
    await deposit(player, '0.00004');
    const { rows, count } = await list(player);
    expect(count).toBe(2);
    expect(rows[0]).toMatchObject({ type: 'deposit', actionType: 'deposit', status: 'failed', amount: '0.00004', beforeBalance: '0.3', afterBalance: '0.3' });
    expect(rows[1]).toMatchObject({ status: 'completed', amount: '0.3' });
    // Never credited nor refunded, and the same row on every call.
    expect((await walletOf(player, 'LTC')).available).toBe('0.3');
    expect((await list(player, { status: 'failed' })).rows).toEqual([rows[0]]);
    expect((await list(player, { type: 'deposit', actionType: 'deposit' })).count).toBe(2);
    expect((await list(player, { type: 'casino' })).count).toBe(0);
    expect((await list(player, { status: 'completed' })).rows).toEqual([rows[1]]);
  });

  it('lists bets and wins newest first with their balances and game', async () => {
    const player = await registeredPlayer(server);
    await deposit(player, '1');
    server.clock.advance(MINUTE);
    await round(player, '0.1', '0.25');
    server.clock.advance(MINUTE);
    await round(player, '0.2');
    const { rows, count } = await list(player);
    expect(count).toBe(4);
    expect(rows.map((r) => [r.actionType, r.amount, r.beforeBalance, r.afterBalance, r.gameIdentifier])).toEqual([
      ['bet', '0.2', '1.15', '0.95', 'sim-fruit-slots'],
      ['win', '0.25', '0.9', '1.15', 'sim-fruit-slots'],
      ['bet', '0.1', '1', '0.9', 'sim-fruit-slots'],
      ['deposit', '1', '0', '1', null],
    ]);
    expect(await walletOf(player, 'LTC')).toMatchObject({ available: '0.95', bonus: '0' });
  });

  it('shows every movement of a withdrawal: its request with the outcome, then the payout and fee or the refund', async () => {
    const player = await registeredPlayer(server);
    await deposit(player, '1');
    const wallet = await walletOf(player, 'LTC');
    const available = walletAccount(wallet.id, 'available');
    const pending = walletAccount(wallet.id, 'pending');
    const post = (kind: string, legs: ReturnType<typeof transfer>, actionType: 'withdraw' | 'withdrawFee' | 'withdrawRefund', status: 'pending' | 'completed' | 'failed', amount: string, relatedTransactionId?: number) => {
      server.clock.advance(MINUTE);
      return server.db.transaction((tx) =>
        postTransaction(tx, { kind, at: server.clock.now(), legs, relatedTransactionId, visible: { walletId: wallet.id, type: 'withdraw', actionType, status, amount: parseAmount(amount) } }),
      );
    };
    // Requested (pending), then refused by the provider: the request shows failed, and the refund.
    const refused = await post('withdraw.request', transfer(available, pending, parseAmount('0.3')), 'withdraw', 'pending', '0.3');
    expect((await list(player, { status: 'pending' })).rows.map((r) => r.transactionId)).toEqual([refused.transaction.publicId]);
    await post('withdraw.refund', transfer(pending, available, parseAmount('0.3')), 'withdrawRefund', 'failed', '0.3', refused.transaction.id);
    // Requested again, then paid out with its fee: the request shows completed, then the payout and the fee.
    const paid = await post('withdraw.request', transfer(available, pending, parseAmount('0.4')), 'withdraw', 'pending', '0.4');
    const clearing = systemAccount(wallet.currencyId, 'provider_clearing');
    await post('withdraw.payout', transfer(pending, clearing, parseAmount('0.39')), 'withdraw', 'completed', '0.39', paid.transaction.id);
    await post('withdraw.fee', transfer(pending, systemAccount(wallet.currencyId, 'fees'), parseAmount('0.01')), 'withdrawFee', 'completed', '0.01', paid.transaction.id);
    const withdrawals = await list(player, { type: 'withdraw' });
    expect(withdrawals.rows.map((r) => [r.actionType, r.status, r.amount, r.beforeBalance, r.afterBalance])).toEqual([
      ['withdrawFee', 'completed', '0.01', '0.6', '0.6'],
      ['withdraw', 'completed', '0.39', '0.6', '0.6'],
      ['withdraw', 'completed', '0.4', '1', '0.6'],
      ['withdrawRefund', 'failed', '0.3', '0.7', '1'],
      ['withdraw', 'failed', '0.3', '1', '0.7'],
    ]);
    expect(withdrawals.rows[2]!.transactionId).toBe(paid.transaction.publicId);
    expect((await list(player, { status: 'pending' })).count).toBe(0);
    expect((await list(player, { status: 'failed' })).rows.map((r) => r.actionType)).toEqual(['withdrawRefund', 'withdraw']);
    expectChained((await list(player)).rows, '0.6');

    server.clock.advance(MINUTE);
    const house = systemAccount(wallet.currencyId, 'house');
    await server.db.transaction(async (tx) => {
      const bet = await postTransaction(tx, {
        kind: 'bet',
        at: server.clock.now(),
        legs: transfer(available, house, parseAmount('0.1')),
        visible: { walletId: wallet.id, type: 'casino', actionType: 'bet', status: 'completed', amount: parseAmount('0.1'), gameIdentifier: 'sim-fruit-slots' },
      });
      await postTransaction(tx, {
        kind: 'rollback_bet',
        at: server.clock.now(),
        legs: transfer(house, available, parseAmount('0.1')),
        relatedTransactionId: bet.transaction.id,
        visible: { walletId: wallet.id, type: 'casino', actionType: 'rollbackBet', status: 'completed', amount: parseAmount('0.1'), gameIdentifier: 'sim-fruit-slots' },
      });
    });
    expect((await list(player, { type: 'casino' })).rows.map((r) => [r.actionType, r.beforeBalance, r.afterBalance])).toEqual([
      ['rollbackBet', '0.5', '0.6'],
      ['bet', '0.6', '0.5'],
    ]);
  });
});

describe('the balances of the rows', () => {
  it('chain within a wallet through a deposit, a withdrawal paid out and one failed (the SPEC §3 before and after)', async () => {
    const player = await registeredPlayer(server);
    await deposit(player, '0.5');
    const address = segwitAddress('ltc', 0, randomBytes(20));
    const withdraw = async () => {
      server.clock.advance(MINUTE);
      const res = await server.call('paymentWithdraw', { token: player.token, body: { currencyCode: 'LTC', amount: '0.1', address } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.spendRequestId as string;
    };
    const settle = async (spendRequestId: string, outcome: 'confirmed' | 'failed') => {
      server.clock.advance(MINUTE);
      const res = await server.call('devWithdrawalsSettle', { body: { spendRequestId, outcome } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await settle(await withdraw(), 'confirmed');
    await settle(await withdraw(), 'failed');
    const { rows } = await list(player);
    expect(rows.map((r) => [r.actionType, r.status, r.amount, r.beforeBalance, r.afterBalance])).toEqual([
      ['withdrawRefund', 'failed', '0.100006', '0.299988', '0.399994'],
      ['withdraw', 'failed', '0.100006', '0.399994', '0.299988'],
      ['withdrawFee', 'completed', '0.000006', '0.399994', '0.399994'],
      ['withdraw', 'completed', '0.1', '0.399994', '0.399994'],
      ['withdraw', 'completed', '0.100006', '0.5', '0.399994'],
      ['deposit', 'completed', '0.5', '0', '0.5'],
    ]);
    expect((await walletOf(player, 'LTC')).available).toBe('0.399994');
    expectChained(rows, '0.399994');
  });

  it('chain while a withdrawal is pending and a deposit is still being confirmed', async () => {
    const player = await registeredPlayer(server);
    await deposit(player, '0.5');
    server.clock.advance(MINUTE);
    await deposit(player, '0.2', { confirmations: 2 });
    server.clock.advance(MINUTE);
    const res = await server.call('paymentWithdraw', {
      token: player.token,
      body: { currencyCode: 'LTC', amount: '0.1', address: segwitAddress('ltc', 0, randomBytes(20)) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { rows } = await list(player);
    expect(rows.map((r) => [r.type, r.status, r.amount, r.beforeBalance, r.afterBalance])).toEqual([
      ['withdraw', 'pending', '0.100006', '0.5', '0.399994'],
      ['deposit', 'pending', '0.2', '0.5', '0.5'],
      ['deposit', 'completed', '0.5', '0', '0.5'],
    ]);
    expectChained(rows, '0.399994');
  });
});

describe('filters and pages', () => {
  let player: Player;
  let start: Date;
  beforeAll(async () => {
    player = await registeredPlayer(server);
    start = server.clock.now();
    await deposit(player, '2');
    for (let i = 0; i < 5; i++) {
      server.clock.advance(MINUTE);
      await round(player, '0.01', i % 2 === 0 ? '0.02' : undefined);
    }
    server.clock.advance(MINUTE);
    await deposit(player, '0.001', { currencyCode: 'BTC' });
  });

  it('filters by type, action type, status, currency and wallet', async () => {
    const all = await list(player);
    expect(all.count).toBe(10);
    expect((await list(player, { type: 'casino' })).count).toBe(8);
    expect((await list(player, { type: 'casino', actionType: 'win' })).rows.map((r) => r.amount)).toEqual(['0.02', '0.02', '0.02']);
    expect((await list(player, { actionType: 'bet', status: 'completed' })).count).toBe(5);
    expect((await list(player, { status: 'cancelled' })).count).toBe(0);
    const btc = await list(player, { currencyCode: 'BTC' });
    expect(btc.rows.map((r) => [r.currencyCode, r.amount, r.status])).toEqual([['BTC', '0.001', 'completed']]);
    const ltcWallet = await walletOf(player, 'LTC');
    expect((await list(player, { walletId: ltcWallet.id })).count).toBe(9);
    expect((await list(player, { walletId: ltcWallet.id, currencyCode: 'BTC' })).count).toBe(0);
  });

  it('filters by date range, start inclusive and end exclusive', async () => {
    const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE).toISOString();
    // Minute 0: the LTC deposit; minutes 1 to 5: one round each (a win in the odd minutes); minute 6: the BTC deposit.
    expect((await list(player, { startDate: at(1), endDate: at(3) })).rows.map((r) => [r.createdAt, r.actionType])).toEqual([
      [at(2), 'bet'],
      [at(1), 'win'],
      [at(1), 'bet'],
    ]);
    expect((await list(player, { startDate: at(6) })).count).toBe(1);
    expect((await list(player, { endDate: at(1) })).rows.map((r) => r.actionType)).toEqual(['deposit']);
    expect((await list(player, { startDate: at(3), endDate: at(3) })).count).toBe(0);
  });

  it('pages newest first without gaps or repeats', async () => {
    const all = await list(player, { limit: 100 });
    const dates = all.rows.map((r) => r.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(await list(player, { page, limit: 3 }));
    expect(pages.map((p) => p.rows.length)).toEqual([3, 3, 3, 1]);
    expect(pages.every((p) => p.count === 10)).toBe(true);
    expect(pages.flatMap((p) => p.rows)).toEqual(all.rows);
    expect(await list(player, { page: 5, limit: 3 })).toEqual({ rows: [], count: 10 });
    expect((await list(player)).rows).toHaveLength(10);
  });

  it('never shows another player’s transactions', async () => {
    const other = await registeredPlayer(server);
    await deposit(other, '0.7');
    const mine = await list(player, { limit: 100 });
    const theirs = await list(other);
    expect(theirs.rows.map((r) => r.amount)).toEqual(['0.7']);
    const ids = new Set(mine.rows.map((r) => r.transactionId));
    expect(theirs.rows.some((r) => ids.has(r.transactionId))).toBe(false);
    // Naming someone else's wallet finds nothing rather than their rows.
    const ltcWallet = await walletOf(player, 'LTC');
    expect(await list(other, { walletId: ltcWallet.id })).toEqual({ rows: [], count: 0 });
  });
});

describe('refused requests', () => {
  it('answers bad filter values with 400 and the field at fault', async () => {
    const player = await registeredPlayer(server);
    const refused = async (query: Record<string, string | number>) => {
      const res = await server.call('userGetTransactions', { token: player.token, query });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors[0].description).toBe('PLEASE_CHECK_REQUEST_DATA');
      return res.body.errors[0].fields as { field: string; code: string }[];
    };
    expect(await refused({ type: 'lottery' })).toEqual([{ field: 'type', code: 'enum' }]);
    expect(await refused({ status: 'settled' })).toEqual([{ field: 'status', code: 'enum' }]);
    expect(await refused({ actionType: 'jackpot' })).toEqual([{ field: 'actionType', code: 'enum' }]);
    expect(await refused({ limit: 0 })).toEqual([{ field: 'limit', code: 'minimum' }]);
    expect(await refused({ limit: 101 })).toEqual([{ field: 'limit', code: 'maximum' }]);
    expect(await refused({ page: 'two' })).toEqual([{ field: 'page', code: 'type' }]);
    expect(await refused({ startDate: 'yesterday' })).toEqual([{ field: 'startDate', code: 'date' }]);
    expect(await refused({ walletId: 0 })).toEqual([{ field: 'walletId', code: 'minimum' }]);
    expect(await refused({ startDate: '2026-02-01T00:00:00Z', endDate: '2026-01-31T23:59:59Z' })).toEqual([{ field: 'endDate', code: 'dateRange' }]);
  });

  it('requires a signed-in player', async () => {
    const res = await server.call('userGetTransactions', {});
    expect([res.status, res.body.errors[0].description]).toEqual([401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED']);
  });
});
