import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  findTransactionByIdempotency,
  idempotency,
  systemAccount,
  transfer,
  verifyLedger,
  walletAccount,
} from '../../server/domain/ledger.ts';
import { parseAmount } from '../../src/money.ts';
import type { SimulatorPaymentProvider } from '../../server/providers/payment-simulator.ts';
import { signWebhook } from '../../server/providers/payment.ts';
import { LIVE_CHANNEL, parseLiveMessage, type LiveKind } from '../../server/live.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { countBatches, createTestDb } from '../helpers/db.ts';
import { depositAddress as addressOf, expectLedgerBalanced, ledgerTransactionCount as countLedgerTransactions, walletOf, type Player, postingRequestHash } from '../helpers/money.ts';

/**
 * Crypto deposits end to end through HTTP: the player asks for an address (paymentDeposit), the payment
 * simulator's chain receives a transfer (/dev/chain/transfer) and confirmations (/dev/chain/confirm), and
 * the simulator calls the server's webhook over real HTTP with signed payloads, so the server listens on
 * a loopback port here. Webhooks are also sent by hand (replays, bad signatures). The server's clock
 * moves only when a test moves it; after each test the ledger must prove itself.
 */

const SECRET = 'deposit-test-webhook-secret';
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

const depositAddress = (player: Player, amount?: string) => addressOf(server, player, amount);

async function ltcWallet(player: Player): Promise<{ available: string; pending: string }> {
  const { available, pending } = await walletOf(server, player);
  return { available, pending };
}

async function send(address: string, amount: string): Promise<string> {
  const res = await server.call('devChainTransfer', { body: { address, amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.transfer).toMatchObject({ address, amount, confirmations: 0, callbackStatus: 200 });
  return res.body.data.txId as string;
}

async function confirm(txId: string, confirmations: number) {
  const res = await server.call('devChainConfirm', { body: { txId, confirmations } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.transfer.callbackStatus).toBe(200);
  return res.body.data.transfer;
}

function webhook(body: Record<string, unknown>, signature: string | null, provider = 'simulator') {
  const payload = JSON.stringify(body);
  return server.call('paymentWebhook', {
    params: { provider },
    raw: { payload, contentType: 'application/json' },
    headers: signature === null ? {} : { 'x-webhook-signature': signature },
  });
}

const signed = (body: Record<string, unknown>, secret = SECRET) => webhook(body, signWebhook(secret, JSON.stringify(body)));

const ledgerTransactionCount = () => countLedgerTransactions(server);

describe('deposit address', () => {
  it('is the same on every call, for the wallet of the currency', async () => {
    const player = await registeredPlayer(server);
    const first = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC', paymentProviderId: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ network: 'Litecoin', currencyCode: 'LTC', amount: '0.5', minDeposit: '0.00005', confirmations: 6 });
    expect(first.body.data.address).toMatch(/^ltc1q/);
    expect(await depositAddress(player, '2')).toBe(first.body.data.address);
    const other = await registeredPlayer(server);
    expect(await depositAddress(other)).not.toBe(first.body.data.address);
  });

  it('refuses amounts under the minimum, unknown providers, disabled deposits and bad amounts', async () => {
    const player = await registeredPlayer(server);
    const call = (body: Record<string, unknown>) => server.call('paymentDeposit', { token: player.token, body: { currencyCode: 'LTC', ...body } });
    const below = await call({ amount: '0.00004' });
    expect([below.status, below.body.errors[0].description]).toEqual([422, 'MINIMUM_DEPOSIT_AMOUNT_LIMIT']);
    const unknown = await call({ amount: '0.5', paymentProviderId: 999 });
    expect([unknown.status, unknown.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const zero = await call({ amount: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body.errors[0].fields).toEqual([{ field: 'amount', code: 'amount.positive' }]);
    // SPEC §8: over the 10000 ceiling is the contract's own code, after the provider check.
    const tooMuch = await call({ amount: '10000.00000001' });
    expect([tooMuch.status, tooMuch.body.errors[0].description]).toEqual([422, 'MAXIMUM_DEPOSIT_AMOUNT_LIMIT']);
    const huge = await call({ amount: '9999999999999999999999.99999999' });
    expect([huge.status, huge.body.errors[0].description]).toEqual([422, 'MAXIMUM_DEPOSIT_AMOUNT_LIMIT']);
    expect((await call({ amount: '10000' })).status).toBe(200);
    const tooMuchUnknown = await call({ amount: '10001', paymentProviderId: 999 });
    expect([tooMuchUnknown.status, tooMuchUnknown.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const tooPrecise = await call({ amount: '10001.000000001' });
    expect(tooPrecise.status).toBe(400);
    const noWallet = await call({ amount: '0.5', currencyCode: 'XMR' });
    expect([noWallet.status, noWallet.body.errors[0].description]).toEqual([422, 'CURRENCY_NOT_AVAILABLE']);
    await server.db.query("UPDATE payment_providers SET deposit_allowed = false WHERE key = 'coinpayments'");
    try {
      const disabled = await call({ amount: '0.5' });
      expect([disabled.status, disabled.body.errors[0].description]).toEqual([422, 'PAYMENT_PROVIDER_DEPOSIT_NOT_ALLOWED']);
    } finally {
      await server.db.query("UPDATE payment_providers SET deposit_allowed = true WHERE key = 'coinpayments'");
    }
  });

  it('is refused while the player is self-excluded', async () => {
    const player = await registeredPlayer(server);
    const until = new Date(server.clock.now().getTime() + 2 * DAY);
    await server.db.query('UPDATE users SET self_excluded_until = $2 WHERE id = $1', [player.user.id, until]);
    const res = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } });
    expect([res.status, res.body.errors[0].description]).toEqual([403, 'SELF_EXCLUDED']);
  });
});

describe('deposit address while the provider is down', () => {
  it('answers 502 COIN_PAYMENTS_SERVER_ERROR, stores nothing, and gives the address once the provider is back', async () => {
    const player = await registeredPlayer(server);
    const simulator = server.ctx.payments as SimulatorPaymentProvider;
    simulator.setOnline(false);
    try {
      const down = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } });
      expect([down.status, down.body.errors[0].description]).toEqual([502, 'COIN_PAYMENTS_SERVER_ERROR']);
      const stored = await server.db.query('SELECT 1 FROM deposit_addresses d JOIN wallets w ON w.id = d.wallet_id WHERE w.user_id = $1', [player.user.id]);
      expect(stored).toEqual([]);
    } finally {
      simulator.setOnline(true);
    }
    expect(await depositAddress(player)).toMatch(/^ltc1/);
  });
});

describe('an incoming transfer', () => {
  it('shows as pending at once and is credited after 6 confirmations, exactly once', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(player);
    const txId = await send(address, '0.5');
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0.5' });

    await confirm(txId, 5);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0.5' });

    const sixth = await confirm(txId, 1);
    expect(sixth).toMatchObject({ confirmations: 6, settled: true });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });

    // Confirming again and replaying the webhook move nothing.
    const before = await ledgerTransactionCount();
    await confirm(txId, 3);
    const replay = await signed({ type: 'deposit', txId, address, currencyCode: 'LTC', amount: '0.5', confirmations: 6 });
    expect(replay.status).toBe(200);
    expect(replay.body.data.deposit).toMatchObject({ txId, status: 'credited', confirmations: 9, requiredConfirmations: 6, changed: false });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });
    expect(await ledgerTransactionCount()).toBe(before);

    const rows = await server.db.query<{ type: string; status: string; amount: string; created_at: Date }>(
      'SELECT type, status, amount, created_at FROM ledger_transactions WHERE user_id = $1 ORDER BY id',
      [player.user.id],
    );
    expect(rows.map((r) => [r.type, r.status, Number(r.amount)])).toEqual([
      ['deposit', 'pending', 0.5],
      ['deposit', 'completed', 0.5],
    ]);
    // Stamped by the server's clock, not the wall clock.
    expect(rows[1]!.created_at.getTime()).toBe(server.clock.now().getTime());
  });

  it('writes its pending and credit postings as the ledger would post them (the same request hashes and entries)', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(player);
    const txId = await send(address, '0.12345678');
    await confirm(txId, 6);
    const wallet = await walletOf(server, player);
    const amount = parseAmount('0.12345678');
    const pendingKey = idempotency.deposit('simulator', `${txId}:pending`);
    const pending = await findTransactionByIdempotency(server.db, pendingKey);
    const credit = await findTransactionByIdempotency(server.db, idempotency.deposit('simulator', `${txId}:credit`));
    const postings = [
      {
        posted: pending,
        posting: {
          kind: 'deposit.pending',
          at: new Date(),
          legs: transfer(systemAccount(wallet.currencyId, 'provider_clearing'), walletAccount(wallet.id, 'pending'), amount),
          idempotency: pendingKey,
          visible: { walletId: wallet.id, type: 'deposit', actionType: 'deposit', status: 'pending', amount },
        },
      },
      {
        posted: credit,
        posting: {
          kind: 'deposit.credit',
          at: new Date(),
          legs: transfer(walletAccount(wallet.id, 'pending'), walletAccount(wallet.id, 'available'), amount),
          visible: { walletId: wallet.id, type: 'deposit', actionType: 'deposit', status: 'completed', amount },
          relatedTransactionId: pending?.id ?? null,
        },
      },
    ] as const;
    for (const { posted, posting } of postings) {
      expect(posted?.kind).toBe(posting.kind);
      const byAmount = (a: { amount: bigint }, b: { amount: bigint }) => (a.amount < b.amount ? -1 : 1);
      expect(posted?.entries.map((e) => ({ account: e.account, amount: e.amount })).sort(byAmount)).toEqual([...posting.legs].sort(byAmount));
      const [stored] = await server.db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [posted!.id]);
      expect(stored!.request_hash).toBe(postingRequestHash(posting));
    }
    expect(credit?.relatedTransactionId).toBe(pending?.id);
  });

  it('under the minimum deposit is recorded but never credited nor shown as pending', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(player);
    const txId = await send(address, '0.00004');
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
    const done = await confirm(txId, 6);
    expect(done.settled).toBe(true);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
    const [deposit] = await server.db.query<{ status: string; confirmations: number; settled_transaction_id: number | null }>(
      'SELECT status, confirmations, settled_transaction_id FROM deposits WHERE provider_tx_id = $1',
      [txId],
    );
    expect(deposit).toMatchObject({ status: 'below_minimum', confirmations: 6 });
    // Booked once against the provider's clearing account, never to the player.
    expect(deposit!.settled_transaction_id).not.toBeNull();
    const replay = await signed({ type: 'deposit', txId, address, currencyCode: 'LTC', amount: '0.00004', confirmations: 7 });
    expect(replay.body.data.deposit).toMatchObject({ status: 'below_minimum', changed: true });
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
  });

  it('counts toward the deposit limit once credited: DEPOSIT_LIMIT_EXCEED', async () => {
    const player = await registeredPlayer(server);
    const limit = await server.call('rgUpdateLimit', { token: player.token, body: { limitType: 'deposit', daily: '1' } });
    expect(limit.status).toBe(200);
    const address = await depositAddress(player, '0.8');
    const txId = await send(address, '0.8');
    // Pending deposits do not count yet.
    expect((await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } })).status).toBe(200);
    await confirm(txId, 6);
    const refused = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } });
    expect([refused.status, refused.body.errors[0].description]).toEqual([422, 'DEPOSIT_LIMIT_EXCEED']);
    expect((await server.call('paymentDeposit', { token: player.token, body: { amount: '0.2', currencyCode: 'LTC' } })).status).toBe(200);
    // A day later the credit has left the daily window (a new session: the old one has expired too).
    server.clock.advance(DAY + 1);
    const login = await server.call('userLogin', { body: { email: player.payload.email, password: player.payload.password } });
    expect(await depositAddress({ ...player, token: login.body.data.accessToken as string }, '0.5')).toBe(address);
  });
});

describe('webhooks and the simulated chain refuse what they cannot trust or find', () => {
  it('refuses a bad or missing signature and changes nothing', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(player);
    const body = { type: 'deposit', txId: 'f'.repeat(64), address, currencyCode: 'LTC', amount: '3', confirmations: 6 };
    const before = await ledgerTransactionCount();
    const forged = await signed(body, 'not-the-secret');
    expect([forged.status, forged.body.errors[0]]).toEqual([401, { name: 'Unauthorized', description: 'INVALID_SIGNATURE' }]);
    const garbage = await webhook(body, 'xyz');
    expect(garbage.status).toBe(401);
    // Signed, then changed in transit.
    const tampered = await webhook({ ...body, amount: '30' }, signWebhook(SECRET, JSON.stringify(body)));
    expect(tampered.status).toBe(401);
    const missing = await webhook(body, null);
    expect([missing.status, missing.body.errors[0].description]).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await server.db.query('SELECT id FROM deposits WHERE provider_tx_id = $1', [body.txId])).toEqual([]);
  });

  it('answers NOT_FOUND for another provider, an unknown address, an unknown transfer', async () => {
    const body = { type: 'deposit', txId: 'e'.repeat(64), address: 'ltc1qunknownaddress', currencyCode: 'LTC', amount: '1', confirmations: 1 };
    const otherProvider = await webhook(body, signWebhook(SECRET, JSON.stringify(body)), 'coinpayments');
    expect([otherProvider.status, otherProvider.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const unknownAddress = await signed(body);
    expect([unknownAddress.status, unknownAddress.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const before = await ledgerTransactionCount();
    const unknownTransfer = await server.call('devChainConfirm', { body: { txId: 'd'.repeat(64), confirmations: 6 } });
    expect([unknownTransfer.status, unknownTransfer.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const unknownChainAddress = await server.call('devChainTransfer', { body: { address: 'ltc1qneverissued', amount: '1' } });
    expect([unknownChainAddress.status, unknownChainAddress.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    expect(await ledgerTransactionCount()).toBe(before);
  });

  it('refuses a webhook that contradicts the recorded transfer', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(player);
    const txId = await send(address, '0.5');
    const res = await signed({ type: 'deposit', txId, address, currencyCode: 'LTC', amount: '5', confirmations: 6 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].fields).toEqual([{ field: 'amount', code: 'mismatch' }]);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0.5' });
  });

  it('has no chain with the simulator off', async () => {
    const off = await startTestServer({ SIMULATOR: 'off' });
    try {
      const res = await off.call('devChainConfirm', { body: { txId: 'a'.repeat(64), confirmations: 1 } });
      expect([res.status, res.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    } finally {
      await off.close();
    }
  });
});

describe('many transfers at once', () => {
  it('are recorded and credited in shared transactions, each notification answered as if it had run alone', async () => {
    // Thirteen sign-ups from one address: three hours' worth of its limit (10 an hour). Addresses are asked
    // for at once; from then on only the provider speaks.
    const players: Player[] = [];
    const addresses: string[] = [];
    for (const size of [5, 4, 4]) {
      server.clock.advance(HOUR);
      const group = await Promise.all(Array.from({ length: size }, () => registeredPlayer(server)));
      players.push(...group);
      addresses.push(...(await Promise.all(group.map((player) => depositAddress(player)))));
    }
    // The last player has a deposit limit (room enough): their credit is reckoned against it, in the same batches.
    const limited = players[12]!;
    expect((await server.call('rgUpdateLimit', { token: limited.token, body: { limitType: 'deposit', daily: '100' } })).status).toBe(200);
    const pendingAndAvailable = async (player: Player) => {
      const [row] = await server.db.query<{ available: string; pending: string }>(
        `SELECT w.available::text, w.pending::text FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'`,
        [player.user.id],
      );
      return { available: Number(row!.available), pending: Number(row!.pending) };
    };
    const txIds = players.map((_, i) => `batch-${i}-${server.clock.now().getTime()}`);
    const notification = (i: number, confirmations: number, amount = '0.5') =>
      ({ type: 'deposit', txId: txIds[i]!, address: addresses[i]!, currencyCode: 'LTC', amount, confirmations });

    // The first notification of each wave is held back a moment, so that the rest arrive while it is on its
    // way and wait together, as they do under load.
    const query = server.db.query.bind(server.db);
    let held: Promise<void> | null = null;
    server.db.query = (async (sql: string, ...rest: Parameters<typeof server.db.query> extends [string, ...infer R] ? R : never) => {
      if (sql.includes('deposit_notification_apply(')) {
        held ??= new Promise((resolve) => setTimeout(resolve, 500)).then(() => {
          held = null;
        });
        await held;
      }
      return query(sql, ...rest);
    }) as typeof server.db.query;
    // Alone or in a batch, a call passes its set's transfer ids as the second parameter: one id alone (not
    // counted as a batch), each notification's in a batch.
    const { sizes: batches, stop: stopCounting } = countBatches(server.db, 'deposit_notification_apply', (params) =>
      Array.isArray(params[1]) ? params[1].length : 0,
    );
    // What the players' streams hear, in order: each notification that changed something announces its
    // deposit, the wallets, and at a credit the player's notice, batched or not.
    const heard: string[] = [];
    const stopListening = await server.db.listen(LIVE_CHANNEL, (payload) => heard.push(payload));
    const kindsHeard = (player: Player) =>
      heard.flatMap((payload) => {
        const message = parseLiveMessage(payload);
        return message !== null && message.userId === player.user.id ? [message.kind] : [];
      });
    // Player 1 (a transfer under the minimum besides its own) is left out.
    const plain = players.filter((_, i) => i !== 1);
    const heardOf = async (expected: LiveKind[]) => {
      for (let waited = 0; plain.some((player) => kindsHeard(player).length < expected.length) && waited < 5_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(plain.map(kindsHeard)).toEqual(plain.map(() => expected));
    };
    try {
      // Every transfer seen at once, beside one to an address nobody was given, one under the minimum and a
      // replay of a transfer seen in the same wave.
      const before = await ledgerTransactionCount();
      const seen = await Promise.all([
        ...players.map((_, i) => signed(notification(i, 0))),
        signed({ ...notification(0, 0), txId: `${txIds[0]}-unknown`, address: 'ltc1qnobodyhasthisaddress' }),
        signed({ ...notification(1, 0, '0.00001'), txId: `${txIds[1]}-small` }),
        signed(notification(2, 0)),
      ]);
      expect(seen.slice(0, 13).map((res) => [res.status, res.body.data.deposit.status, res.body.data.deposit.changed])).toEqual(
        Array(13).fill([200, 'pending', true]),
      );
      expect([seen[13]!.status, seen[13]!.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
      expect(seen[14]!.body.data.deposit).toMatchObject({ status: 'below_minimum', changed: true });
      expect(seen[15]!.body.data.deposit).toMatchObject({ txId: txIds[2], status: 'pending', confirmations: 0, changed: false });
      expect(await ledgerTransactionCount()).toBe(before + 13);
      for (const player of players) expect(await pendingAndAvailable(player)).toEqual({ available: 0, pending: 0.5 });
      await heardOf(['deposit', 'wallets']);

      // Every transfer confirmed at once, beside one that contradicts its recorded amount.
      const credited = await Promise.all([
        ...players.map((_, i) => signed(notification(i, i % 2 === 0 ? 6 : 7))),
        signed(notification(3, 6, '5')),
      ]);
      expect(credited.slice(0, 13).map((res) => [res.status, res.body.data.deposit.status, res.body.data.deposit.confirmations])).toEqual(
        players.map((_, i) => [200, 'credited', i % 2 === 0 ? 6 : 7]),
      );
      expect([credited[13]!.status, credited[13]!.body.errors[0].fields]).toEqual([400, [{ field: 'amount', code: 'mismatch' }]]);
      expect(await ledgerTransactionCount()).toBe(before + 26);
      for (const player of players) expect(await pendingAndAvailable(player)).toEqual({ available: 0.5, pending: 0 });
      await heardOf(['deposit', 'wallets', 'deposit', 'wallets', 'notification']);

      // Each player was told once, and each credit is the posting the ledger would have made.
      const told = await server.db.query<{ user_id: number; n: number }>(
        'SELECT user_id, count(*)::int AS n FROM user_notifications WHERE user_id = ANY ($1) GROUP BY user_id',
        [players.map((player) => player.user.id)],
      );
      expect(told.map((row) => row.n)).toEqual(Array(13).fill(1));
      const credit = await findTransactionByIdempotency(server.db, idempotency.deposit('simulator', `${txIds[4]}:credit`));
      const pending = await findTransactionByIdempotency(server.db, idempotency.deposit('simulator', `${txIds[4]}:pending`));
      const wallet = await walletOf(server, players[4]!);
      const [stored] = await server.db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [credit!.id]);
      expect(stored!.request_hash).toBe(
        postingRequestHash({
          kind: 'deposit.credit',
          at: new Date(),
          legs: transfer(walletAccount(wallet.id, 'pending'), walletAccount(wallet.id, 'available'), parseAmount('0.5')),
          visible: { walletId: wallet.id, type: 'deposit', actionType: 'deposit', status: 'completed', amount: parseAmount('0.5') },
          relatedTransactionId: pending!.id,
        }),
      );

      // Replays of every notification move nothing.
      const replays = await Promise.all(players.map((_, i) => signed(notification(i, 6))));
      expect(replays.map((res) => [res.status, res.body.data.deposit.status, res.body.data.deposit.changed])).toEqual(
        Array(13).fill([200, 'credited', false]),
      );
      expect(await ledgerTransactionCount()).toBe(before + 26);
    } finally {
      stopCounting();
      server.db.query = query;
      await stopListening();
    }
    // Most notifications went in batches (16 at most in one).
    expect(batches.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(15);
    expect(Math.max(...batches)).toBeLessThanOrEqual(16);
  });

  it('are refused whole by the function when two name one wallet, one transfer or one player, leaving nothing written', async () => {
    // The server never gathers such a batch (one notification per transfer and per address at a time; one
    // with two of a player's wallets fails and runs each alone); the function checks it anyway, before any write.
    const [player, other] = [await registeredPlayer(server), await registeredPlayer(server)];
    const [address, otherAddress] = [await depositAddress(player), await depositAddress(other)];
    const before = await ledgerTransactionCount();
    const batch = (txIds: string[], addresses: string[]) =>
      server.db.query('SELECT * FROM deposit_notification_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
        'simulator',
        txIds,
        addresses,
        addresses.map(() => 'LTC'),
        addresses.map(() => '0.5'),
        addresses.map(() => 0),
        'LTC',
        'deposit:simulator',
        txIds,
        server.clock.now(),
      ]);
    await expect(batch(['same-wallet-1', 'same-wallet-2'], [address, address])).rejects.toThrow('one notification per transfer and per wallet');
    await expect(batch(['same-transfer', 'same-transfer'], [address, otherAddress])).rejects.toThrow('one notification per transfer and per wallet');
    const btc = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.001', currencyCode: 'BTC' } });
    expect(btc.status, JSON.stringify(btc.body)).toBe(200);
    await expect(batch(['same-player-1', 'same-player-2'], [address, btc.body.data.address as string])).rejects.toThrow('one per player');
    expect(await ledgerTransactionCount()).toBe(before);
    // The same two, each on its own wallet and transfer, are recorded.
    const rows = await batch(['own-wallet-1', 'own-wallet-2'], [address, otherAddress]);
    expect(rows.map((row) => (row as { out_status: string }).out_status)).toEqual(['pending', 'pending']);
    expect(await ledgerTransactionCount()).toBe(before + 2);
    // A refusal beside them is answered alone, having written nothing; the other notification is applied.
    const mixed = await batch(['mixed-unknown', 'own-wallet-1'], ['ltc1qnobodyhasthisaddress', otherAddress]);
    expect(mixed.map((row) => (row as { out_status: string; out_code: string | null }))).toMatchObject([
      { out_status: 'refused', out_code: 'NOT_FOUND' },
      { out_status: 'refused', out_field: 'address', out_code: 'mismatch' },
    ]);
    const [seen] = await batch(['own-wallet-2'], [otherAddress]);
    expect(seen).toMatchObject({ out_status: 'pending', out_changed: false });
    expect(await ledgerTransactionCount()).toBe(before + 2);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0.5' });
    expect(await ltcWallet(other)).toEqual({ available: '0', pending: '0.5' });
  });
});

describe('a restart', () => {
  it('keeps the simulated chain: a transfer sent before it is confirmed and credited after it', async () => {
    const db = await createTestDb();
    try {
      const before = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET }, { db });
      await before.app.listen({ port: 0, host: '127.0.0.1' });
      const player = await registeredPlayer(before);
      const address = (await before.call('paymentDeposit', { token: player.token, body: { amount: '1', currencyCode: 'LTC' } })).body.data.address;
      const txId = (await before.call('devChainTransfer', { body: { address, amount: '1' } })).body.data.txId as string;
      await before.close();

      const after = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET }, { db });
      try {
        await after.app.listen({ port: 0, host: '127.0.0.1' });
        const confirmed = await after.call('devChainConfirm', { body: { txId, confirmations: 6 } });
        expect(confirmed.body.data.transfer).toMatchObject({ confirmations: 6, settled: true });
        const [wallet] = await db.query<{ available: string }>(
          "SELECT w.available FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
          [player.user.id],
        );
        expect(Number(wallet!.available)).toBe(1);
        expect((await verifyLedger(db)).ok).toBe(true);
      } finally {
        await after.close();
      }
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('SIMULATOR_BLOCK_MS', () => {
  it('mines blocks on its own until the deposit is credited, then stops calling back', async () => {
    const mining = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET, SIMULATOR_BLOCK_MS: '20' });
    try {
      await mining.app.listen({ port: 0, host: '127.0.0.1' });
      const player = await registeredPlayer(mining);
      const address = (await mining.call('paymentDeposit', { token: player.token, body: { amount: '1', currencyCode: 'LTC' } })).body.data.address;
      const sent = await mining.call('devChainTransfer', { body: { address, amount: '1' } });
      expect(sent.status).toBe(200);
      const deadline = Date.now() + 10_000;
      let available = '0';
      while (available !== '1' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const wallets = await mining.call('userGetWallets', { token: player.token });
        available = (wallets.body.data.wallets as { currencyCode: string; available: string }[]).find((w) => w.currencyCode === 'LTC')!.available;
      }
      expect(available).toBe('1');
      // The simulator records the server's answer just after the server has committed the credit.
      let transfer: { confirmations: number; settled: boolean } | undefined;
      while (!transfer?.settled && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        [transfer] = await mining.db.query<{ confirmations: number; settled: boolean }>('SELECT confirmations, settled FROM simulator_transfers');
      }
      expect(transfer!.settled).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [later] = await mining.db.query<{ confirmations: number }>('SELECT confirmations FROM simulator_transfers');
      expect(later!.confirmations).toBe(transfer!.confirmations);
      expect((await verifyLedger(mining.db)).ok).toBe(true);
    } finally {
      await mining.close();
    }
  }, 120_000);
});
