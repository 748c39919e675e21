import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import type { SimulatorPaymentProvider } from '../../server/providers/payment-simulator.ts';
import { chainTransfer, code, depositAddress, expectLedgerBalanced, fundedPlayer, type Player } from '../helpers/money.ts';

/*
 * GET /payment/activity (paymentGetActivity): the player's deposits and withdrawals on their way, and
 * those that ended in the last 24 hours, newest first, at most 20 of each, of one currency when asked.
 * Deposits come through the payment simulator's chain and withdrawals are settled by the simulator, whose
 * webhooks reach the server over HTTP; the test clock moves the day on.
 */

const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';
const HOUR = 60 * 60 * 1000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const simulator = () => server.ctx.payments as SimulatorPaymentProvider;

interface Activity {
  deposits: { txId: string; status: string; confirmations: number; amount: string; createdAt: string; updatedAt: string }[];
  withdrawals: { spendRequestId: string; status: string; amount: string; fee: string; createdAt: string; updatedAt: string }[];
}

async function activity(player: Player, currencyCode?: string): Promise<Activity> {
  const res = await server.call('paymentGetActivity', { token: player.token, query: { currencyCode } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors).toEqual([]);
  return res.body.data as Activity;
}

async function withdraw(player: Player, amount: string): Promise<string> {
  const res = await server.call('paymentWithdraw', { token: player.token, body: { amount, address: PAYOUT_ADDRESS, currencyCode: 'LTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.spendRequestId as string;
}

async function settle(spendRequestId: string, outcome: 'confirmed' | 'failed'): Promise<void> {
  const res = await server.call('devWithdrawalsSettle', { body: { spendRequestId, outcome } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The player logged in again: the day moved on by the clock outlives an access token. */
async function loggedInAgain(player: Player): Promise<Player> {
  const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { ...player, token: login.body.data.accessToken as string };
}

async function confirm(txId: string, confirmations: number): Promise<void> {
  const res = await server.call('devChainConfirm', { body: { txId, confirmations } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GET /payment/activity', () => {
  it('is empty for a new player', async () => {
    const player = await registeredPlayer(server);
    expect(await activity(player)).toEqual({ deposits: [], withdrawals: [] });
  });

  it('lists deposits as they are seen, confirmed, credited or found below the minimum, newest first', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(server, player);
    const first = await chainTransfer(server, address, '0.5');
    server.clock.advance(1000);
    const small = await chainTransfer(server, address, '0.00004');
    server.clock.advance(1000);
    const third = await chainTransfer(server, address, '0.25');

    let { deposits } = await activity(player);
    expect(deposits.map((d) => [d.txId, d.status, d.amount, d.confirmations])).toEqual([
      [third, 'pending', '0.25', 0],
      [small, 'belowMinimum', '0.00004', 0],
      [first, 'pending', '0.5', 0],
    ]);
    expect(deposits[0]).toEqual({
      txId: third,
      currencyCode: 'LTC',
      amount: '0.25',
      confirmations: 0,
      requiredConfirmations: 6,
      status: 'pending',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    server.clock.advance(1000);
    await confirm(first, 3);
    ({ deposits } = await activity(player));
    const seen = deposits.find((d) => d.txId === first)!;
    expect(seen).toMatchObject({ status: 'pending', confirmations: 3 });
    expect(Date.parse(seen.updatedAt)).toBeGreaterThan(Date.parse(seen.createdAt));

    await confirm(first, 3);
    ({ deposits } = await activity(player));
    expect(deposits.find((d) => d.txId === first)).toMatchObject({ status: 'credited', confirmations: 6 });
  });

  it('keeps an ended deposit for 24 hours and one on its way for as long as it takes', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(server, player);
    const credited = await chainTransfer(server, address, '0.5');
    await confirm(credited, 6);
    const small = await chainTransfer(server, address, '0.00001');
    const waiting = await chainTransfer(server, address, '0.1');

    server.clock.advance(23 * HOUR);
    const later = await loggedInAgain(player);
    expect((await activity(later)).deposits.map((d) => d.txId)).toEqual([waiting, small, credited]);
    server.clock.advance(2 * HOUR);
    expect((await activity(await loggedInAgain(player))).deposits.map((d) => d.txId)).toEqual([waiting]);
  });

  it('lists a pending withdrawal until settled, then for 24 hours how it ended', async () => {
    const player = await fundedPlayer(server, '1');
    const failed = await withdraw(player, '0.1');
    const first = await activity(player, 'LTC');
    let { withdrawals } = first;
    expect(withdrawals).toEqual([
      {
        spendRequestId: failed,
        currencyCode: 'LTC',
        amount: '0.1',
        fee: '0.000006',
        address: PAYOUT_ADDRESS,
        status: 'pending',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    // The funding deposit, credited a moment ago.
    expect(first.deposits.map((d) => d.status)).toEqual(['credited']);

    server.clock.advance(1000);
    await settle(failed, 'failed');
    server.clock.advance(1000);
    const sent = await withdraw(player, '0.2');
    ({ withdrawals } = await activity(player));
    expect(withdrawals.map((w) => [w.spendRequestId, w.status])).toEqual([
      [sent, 'pending'],
      [failed, 'failed'],
    ]);
    await settle(sent, 'confirmed');
    ({ withdrawals } = await activity(player));
    expect(withdrawals.map((w) => [w.spendRequestId, w.status])).toEqual([
      [sent, 'completed'],
      [failed, 'failed'],
    ]);

    server.clock.advance(25 * HOUR);
    expect(await activity(await loggedInAgain(player))).toEqual({ deposits: [], withdrawals: [] });
  });

  it('leaves out a withdrawal the provider refused at once (answered as refused, its funds back)', async () => {
    const player = await fundedPlayer(server, '1');
    // The provider does not pay out to its own deposit addresses: no spend request is made.
    const refused = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.5', address: player.depositAddress, currencyCode: 'LTC' } });
    expect(code(refused)).toEqual([422, 'INVALID_ADDRESS']);
    const outage = simulator();
    outage.setOnline(false);
    try {
      expect(code(await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.5', address: PAYOUT_ADDRESS, currencyCode: 'LTC' } }))).toEqual([
        502,
        'COIN_PAYMENTS_SERVER_ERROR',
      ]);
    } finally {
      outage.setOnline(true);
    }
    expect((await activity(player)).withdrawals).toEqual([]);
  });

  it('gives at most 20 deposits, the newest', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(server, player);
    const txIds: string[] = [];
    for (let i = 0; i < 22; i += 1) {
      txIds.push(await chainTransfer(server, address, '0.01'));
      server.clock.advance(1000);
    }
    const { deposits } = await activity(player);
    expect(deposits.map((d) => d.txId)).toEqual(txIds.slice(2).reverse());
  });

  it('lists only the currency asked for, and only the caller’s', async () => {
    const player = await fundedPlayer(server, '0.5');
    const other = await registeredPlayer(server);
    expect((await activity(player, 'LTC')).deposits).toHaveLength(1);
    expect(await activity(player, 'BTC')).toEqual({ deposits: [], withdrawals: [] });
    expect(await activity(other)).toEqual({ deposits: [], withdrawals: [] });
  });

  it('refuses a bad currency, a missing or bad token, and an inactive player', async () => {
    const player = await registeredPlayer(server);
    expect(code(await server.call('paymentGetActivity', { token: player.token, query: { currencyCode: 'not a currency' } }))).toEqual([
      400,
      'PLEASE_CHECK_REQUEST_DATA',
    ]);
    expect((await server.call('paymentGetActivity')).status).toBe(401);
    expect((await server.call('paymentGetActivity', { token: 'not-a-token' })).status).toBe(401);
    const inactive = await server.call('devSetUserActive', { body: { email: player.payload.email, active: false } });
    expect(inactive.status).toBe(200);
    expect(code(await server.call('paymentGetActivity', { token: player.token }))).toEqual([403, 'USER_INACTIVE']);
  });
});
