import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postTransaction, systemAccount, transfer, verifyLedger, walletAccount } from '../../server/domain/ledger.ts';
import { signWebhook } from '../../server/providers/payment.ts';
import { formatAmount, MAX_PROVIDER_AMOUNT, MAX_STORABLE_UNITS, parseSignedAmount, PROVIDER_AMOUNT_PATTERN } from '../../src/money.ts';
import { loadOpenApi } from '../../server/http/openapi.ts';
import { playableGame, signedGameWalletCall, registeredPlayer, startTestServer, type CallResult, type TestServer } from '../helpers/api.ts';
import { depositAddress, expectLedgerBalanced, fundedPlayer, ledgerTransactionCount } from '../helpers/money.ts';

/**
 * Amounts that come from providers (a payment webhook's deposit, a game wallet bet or win) are capped
 * per call at MAX_PROVIDER_AMOUNT (openapi.yaml ProviderAmount) and refused with 400 amount.max before
 * anything moves; and the ledger check reads totals past what one NUMERIC(30,8) column holds.
 */

const SECRET = 'provider-amounts-test-webhook-secret';
const OVER = '10000000000';
const HUGE = '9999999999999999999999';

let server: TestServer;
let game: { id: number; secret: string };

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: SECRET });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { id, secret } = await playableGame(server);
  game = { id, secret };
});
afterAll(async () => server.close());
afterEach(() => expectLedgerBalanced(server));

function refusal(res: CallResult): [number, string, unknown] {
  return [res.status, res.body.errors[0]?.description as string, res.body.errors[0]?.fields];
}

function signedWebhook(body: Record<string, unknown>) {
  const payload = JSON.stringify(body);
  return server.call('paymentWebhook', {
    params: { provider: 'simulator' },
    raw: { payload, contentType: 'application/json' },
    headers: { 'x-webhook-signature': signWebhook(SECRET, payload) },
  });
}

async function ltcWallet(userId: number): Promise<{ available: string; pending: string }> {
  const [row] = await server.db.query<{ available: string; pending: string }>(
    "SELECT w.available::text, w.pending::text FROM wallets w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND c.code = 'LTC'",
    [userId],
  );
  return { available: formatAmount(parseSignedAmount(row!.available)), pending: formatAmount(parseSignedAmount(row!.pending)) };
}

describe('the per-call maximum', () => {
  it('is the one openapi.yaml states, under what a column holds', () => {
    const schemas = (loadOpenApi() as unknown as { components: { schemas: Record<string, { pattern?: string; maxLength?: number }> } }).components.schemas;
    expect(schemas.ProviderAmount?.pattern).toBe(PROVIDER_AMOUNT_PATTERN);
    expect(formatAmount(MAX_PROVIDER_AMOUNT)).toBe('9999999999.99999999');
    expect(schemas.ProviderAmount?.maxLength).toBe(formatAmount(MAX_PROVIDER_AMOUNT).length);
    expect(MAX_PROVIDER_AMOUNT * 1_000_000_000n).toBeLessThan(MAX_STORABLE_UNITS);
  });
});

describe('a signed deposit webhook', () => {
  it('over the maximum is refused with amount.max and records nothing; the maximum itself is taken', async () => {
    const player = await registeredPlayer(server);
    const address = await depositAddress(server, player);
    const before = await ledgerTransactionCount(server);
    for (const amount of [OVER, HUGE, `${HUGE}.99999999`]) {
      const body = { type: 'deposit', txId: `over-${amount.length}-${process.pid}`, address, currencyCode: 'LTC', amount, confirmations: 6 };
      const [status, code, fields] = refusal(await signedWebhook(body));
      expect([status, code]).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
      // The body is one of two forms: the withdrawal form's complaints come along.
      expect(fields).toContainEqual({ field: 'amount', code: 'amount.max' });
      // A replay is refused the same way: no 500, nothing stored.
      expect((await signedWebhook(body)).status).toBe(400);
    }
    expect(await ledgerTransactionCount(server)).toBe(before);
    const [deposits] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM deposits WHERE user_id = $1', [player.user.id]);
    expect(deposits!.n).toBe(0);
    expect(await ltcWallet(player.user.id as number)).toEqual({ available: '0', pending: '0' });

    // The simulator's chain takes no transfer a webhook could not carry.
    const sent = await server.call('devChainTransfer', { body: { address, amount: OVER } });
    expect(refusal(sent)).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'amount', code: 'amount.max' }]]);

    const largest = formatAmount(MAX_PROVIDER_AMOUNT);
    const taken = await signedWebhook({ type: 'deposit', txId: `max-${process.pid}`, address, currencyCode: 'LTC', amount: largest, confirmations: 6 });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await ltcWallet(player.user.id as number)).toEqual({ available: largest, pending: '0' });
  });
});

describe('the game wallet', () => {
  let sequence = 0;
  const nextId = (prefix: string) => `${prefix}-${process.pid}-${(sequence += 1)}`;
  const gw = (operationId: string, body: Record<string, unknown>) => signedGameWalletCall(server, game.secret, operationId, body);

  it('refuses a bet, a win or a free spin over the maximum with amount.max, and moves nothing', async () => {
    const player = await fundedPlayer(server, '1');
    const session = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const sessionId = session.body.data.gameSession.sessionId as string;
    const roundId = nextId('round');
    expect((await gw('gameWalletBet', { sessionId, roundId, transactionId: nextId('bet'), amount: '0.001' })).status).toBe(200);
    const before = await ledgerTransactionCount(server);

    for (const amount of [OVER, '10001000000.5', HUGE]) {
      for (const operationId of ['gameWalletBet', 'gameWalletWin', 'gameWalletFreeSpin']) {
        const res = await gw(operationId, { sessionId, roundId: operationId === 'gameWalletFreeSpin' ? nextId('fs') : roundId, transactionId: nextId('t'), amount });
        expect(refusal(res), `${operationId} ${amount}`).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'amount', code: 'amount.max' }]]);
      }
    }
    expect(await ledgerTransactionCount(server)).toBe(before);
    expect(await ltcWallet(player.user.id as number)).toEqual({ available: '0.999', pending: '0' });
    // The round is still open: a win within the maximum is paid.
    expect((await gw('gameWalletWin', { sessionId, roundId, transactionId: nextId('win'), amount: '0.002' })).status).toBe(200);
    expect(await ltcWallet(player.user.id as number)).toEqual({ available: '1.001', pending: '0' });
  });
});

describe('the ledger check', () => {
  it('reads totals past what one column holds, exactly', async () => {
    // Two wallets at the largest balance a column holds: the players' total and the provider's
    // clearing account have 23 integer digits.
    const largest = `${'9'.repeat(22)}.99999999`;
    const walletIds: number[] = [];
    let currencyId = 0;
    for (const name of ['whale-a', 'whale-b']) {
      const [user] = await server.db.query<{ id: number }>(
        'INSERT INTO users (email, username, referral_code) VALUES ($1, $2, $3) RETURNING id',
        [`${name}-${process.pid}@example.com`, `${name.replace('-', '')}${process.pid}`, `${name.toUpperCase()}${process.pid}`],
      );
      const [wallet] = await server.db.query<{ id: number; currency_id: number }>(
        "INSERT INTO wallets (user_id, currency_id) SELECT $1, id FROM currencies WHERE code = 'LTC' RETURNING id, currency_id",
        [user!.id],
      );
      walletIds.push(wallet!.id);
      currencyId = wallet!.currency_id;
      const legs = transfer(systemAccount(currencyId, 'adjustments'), walletAccount(wallet!.id, 'available'), parseSignedAmount(largest));
      await server.db.transaction((tx) => postTransaction(tx, { kind: 'adjustment', at: new Date(), legs }));
    }
    try {
      const report = await verifyLedger(server.db);
      expect(report.ok).toBe(true);
      const ltc = report.totals.find((t) => t.currencyCode === 'LTC');
      expect(ltc!.players.available).toBeGreaterThanOrEqual(2n * parseSignedAmount(largest));
      expect(ltc!.system.adjustments).toBeLessThanOrEqual(-2n * parseSignedAmount(largest));
      expect(formatAmount(ltc!.players.available)).toMatch(/^[1-9][0-9]{22,}\.[0-9]{1,8}$/);
    } finally {
      // Leave the shared database as the other tests expect: the whales' money goes back.
      for (const walletId of walletIds) {
        const legs = transfer(walletAccount(walletId, 'available'), systemAccount(currencyId, 'adjustments'), parseSignedAmount(largest));
        await server.db.transaction((tx) => postTransaction(tx, { kind: 'adjustment', at: new Date(), legs }));
      }
    }
  });
});
