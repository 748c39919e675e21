import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { verifyLedger } from '../../server/domain/ledger.ts';
import { reconcileWithdrawals } from '../../server/domain/reconcile.ts';
import { segwitAddress } from '../../server/addresses.ts';
import { CoinPaymentsWebhookError, createCoinPaymentsProvider, type CoinPaymentsProvider } from '../../server/providers/coinpayments.ts';
import { PaymentProviderError, WebhookSignatureError, type PaymentProviderFailure } from '../../server/providers/payment.ts';
import { formatAmount, parseAmount } from '../../src/money.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';

/**
 * The CoinPayments API v2 adapter against a stand-in for CoinPayments: a local HTTP server that checks
 * every request's signature and headers the way CoinPayments documents them (computed here on its own,
 * not with the adapter's code) and answers from the fixtures in tests/fixtures/coinpayments, which
 * follow CoinPayments' documented shapes. Then the whole server with the adapter selected: a deposit
 * address from the stand-in, and signed wallet webhooks to /payment/coinpayments/webhook.
 */

const CLIENT_ID = 'cp-test-client-id';
const CLIENT_SECRET = 'cp-test-client-secret';
const LTC_WALLET = '0a54b29f-51cb-44a8-9bed-111c5cb1b335';
const WEBHOOK_URL = 'http://casino.test/api/v1/payment/coinpayments/webhook';

interface Exchange {
  request: { method: string; path: string; body: unknown };
  response: { status: number; body?: unknown };
}
type Reply = { status: number; body?: unknown } | 'hang' | 'reset';

function fixture<T = Exchange>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/coinpayments/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** CoinPayments' recipe: base64 HMAC-SHA256 (client secret) of BOM + method + URL + client id + timestamp + body. */
function sign(secret: string, method: string, url: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`\ufeff${method}${url}${CLIENT_ID}${timestamp}${body}`).digest('base64');
}

interface Received {
  method: string;
  path: string;
  body: unknown;
}

/** The stand-in for the CoinPayments API. */
class FakeCoinPayments {
  readonly received: Received[] = [];
  /** Requests it refused for their headers or signature; a test that leaves any here fails. */
  readonly refused: string[] = [];
  private readonly replies = new Map<string, Reply[]>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Queues answers for one route; a route with none answers 404. */
  reply(method: string, path: string, ...replies: Reply[]): void {
    this.replies.set(`${method} ${path}`, [...(this.replies.get(`${method} ${path}`) ?? []), ...replies]);
  }

  /** Queues an exchange's answer. */
  expectExchange(exchange: Exchange): void {
    this.reply(exchange.request.method, exchange.request.path, exchange.response);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '';
    const method = req.method ?? '';
    const timestamp = String(req.headers['x-coinpayments-timestamp'] ?? '');
    const problems = [
      req.headers['x-coinpayments-client'] !== CLIENT_ID && 'client header',
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(timestamp) && 'timestamp format',
      Math.abs(Date.parse(`${timestamp}Z`) - Date.now()) > 60_000 && 'timestamp not now',
      raw !== '' && !String(req.headers['content-type']).startsWith('application/json') && 'content type',
      req.headers['x-coinpayments-signature'] !== sign(CLIENT_SECRET, method, `${this.url}${path}`, timestamp, raw) && 'signature',
    ].filter(Boolean);
    if (problems.length > 0) {
      this.refused.push(`${method} ${path}: ${problems.join(', ')}`);
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Unauthorized', status: 401 }));
      return;
    }
    this.received.push({ method, path, body: raw ? (JSON.parse(raw) as unknown) : null });
    const reply = this.replies.get(`${method} ${path}`)?.shift() ?? { status: 404, body: { title: 'Not Found', status: 404 } };
    if (reply === 'hang') return;
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    if (reply.body === undefined) res.writeHead(reply.status).end();
    else res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  }
}

const fake = new FakeCoinPayments();
beforeAll(async () => fake.start());
afterAll(async () => fake.stop());
afterEach(() => {
  const refused = fake.refused.splice(0);
  expect(refused, 'requests the CoinPayments stand-in refused').toEqual([]);
});

function adapter(overrides: { clientSecret?: string; timeoutMs?: number } = {}): CoinPaymentsProvider {
  return createCoinPaymentsProvider({
    clientId: CLIENT_ID,
    clientSecret: overrides.clientSecret ?? CLIENT_SECRET,
    apiUrl: fake.url,
    wallets: { LTC: { walletId: LTC_WALLET, currencyId: '2' } },
    webhookUrls: () => [WEBHOOK_URL],
    timeoutMs: overrides.timeoutMs,
  });
}

const spendInput = {
  withdrawalId: 42,
  walletId: 7,
  currencyCode: 'LTC',
  network: 'Litecoin',
  address: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9',
  amount: 25_000_000n,
  webhookUrl: WEBHOOK_URL,
};

async function failureOf(promise: Promise<unknown>): Promise<PaymentProviderFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PaymentProviderError)) throw new Error(`expected a PaymentProviderError, got ${String(error)}`);
  return error.failure;
}

describe('CoinPayments requests', () => {
  it('creates a deposit address with its own webhook URL', async () => {
    const exchange = fixture('create-address');
    fake.expectExchange(exchange);
    const created = await adapter().createDepositAddress({ walletId: 7, currencyCode: 'LTC', network: 'Litecoin', webhookUrl: WEBHOOK_URL });
    expect(created).toEqual({ address: 'LNUPQLeQFfF67RtH1dqFBiwJhYBNZCW7pm', network: 'Litecoin' });
    expect(fake.received.at(-1)).toEqual(exchange.request);
  });

  it('asks for a spend request, then confirms it, pointing the wallet webhook at the server once', async () => {
    const provider = adapter();
    const [webhook, request, confirmation] = [fixture('wallet-webhook'), fixture('spend-request'), fixture('spend-confirmation')];
    fake.expectExchange(webhook);
    fake.expectExchange(request);
    fake.expectExchange(confirmation);
    const start = fake.received.length;
    const spend = await provider.createSpendRequest(spendInput);
    expect(spend).toEqual({ spendRequestId: 'LTC:448c1624-98e7-43c9-85f4-75ed0c97a8bb' });
    await provider.confirmSpendRequest(spend.spendRequestId);
    expect(fake.received.slice(start)).toEqual([webhook.request, request.request, confirmation.request]);

    // The wallet's webhook is set already: the next payout is only its spend request.
    fake.expectExchange(request);
    await provider.createSpendRequest(spendInput);
    expect(fake.received.slice(start + 3).map((r) => r.path)).toEqual([request.request.path]);
  });

  it('maps every refusal and outage to a PaymentProviderError', async () => {
    const provider = adapter({ timeoutMs: 300 });
    // The wallet webhook is set by the first call; refusals below concern the spend request itself.
    fake.expectExchange(fixture('wallet-webhook'));
    const spendPath = fixture('spend-request').request.path;
    const confirmPath = fixture('spend-confirmation').request.path;
    const cases: [Reply, PaymentProviderFailure][] = [
      [fixture('error-not-enough-funds'), 'insufficient_funds'],
      [fixture('error-invalid-address'), 'invalid_address'],
      [fixture('error-forbidden'), 'rejected'],
      [{ status: 503, body: { title: 'Service Unavailable', status: 503 } }, 'unavailable'],
      [{ status: 429 }, 'unavailable'],
      ['reset', 'unavailable'],
      ['hang', 'unavailable'],
      [{ status: 202, body: { fromWalletId: LTC_WALLET } }, 'rejected'],
    ];
    for (const [reply, failure] of cases) {
      fake.reply('POST', spendPath, reply);
      expect(await failureOf(provider.createSpendRequest(spendInput)), JSON.stringify(reply)).toBe(failure);
    }
    fake.reply('POST', confirmPath, { status: 404, body: { title: 'Spend confirmation not found', status: 404 } });
    expect(await failureOf(provider.confirmSpendRequest('LTC:448c1624-98e7-43c9-85f4-75ed0c97a8bb'))).toBe('rejected');
    fake.reply('POST', fixture('create-address').request.path, { status: 500 });
    expect(await failureOf(provider.createDepositAddress({ walletId: 7, currencyCode: 'LTC', network: 'Litecoin', webhookUrl: WEBHOOK_URL }))).toBe(
      'unavailable',
    );
    // No wallet for the currency: refused without asking.
    const asked = fake.received.length;
    expect(await failureOf(provider.createDepositAddress({ walletId: 7, currencyCode: 'BTC', network: 'Bitcoin', webhookUrl: WEBHOOK_URL }))).toBe('rejected');
    expect(fake.received.length).toBe(asked);
    // Nothing listens there.
    const closed = createCoinPaymentsProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: 'http://127.0.0.1:1',
      wallets: { LTC: { walletId: LTC_WALLET, currencyId: '2' } },
      webhookUrls: () => [WEBHOOK_URL],
    });
    expect(await failureOf(closed.createDepositAddress({ walletId: 7, currencyCode: 'LTC', network: 'Litecoin', webhookUrl: WEBHOOK_URL }))).toBe(
      'unavailable',
    );
  });

  it('reads where a spend request stands from its wallet transaction: sent, under way, failed, unknown', async () => {
    const provider = adapter();
    const exchange = fixture('wallet-transaction');
    const id = 'LTC:448c1624-98e7-43c9-85f4-75ed0c97a8bb';
    const body = exchange.response.body as Record<string, unknown>;
    fake.expectExchange(exchange);
    expect(await provider.spendRequestState(id)).toEqual({ state: 'sent', txId: body.txHash });
    // A signed GET without a body, the query in the signed URL.
    expect(fake.received.at(-1)).toEqual(exchange.request);
    const path = exchange.request.path;
    fake.reply('GET', path, { status: 200, body: { ...body, txHash: null, transactionStatus: 'Pending', confirmations: 0 } });
    expect(await provider.spendRequestState(id)).toEqual({ state: 'pending' });
    fake.reply('GET', path, { status: 200, body: { ...body, txHash: null, transactionStatus: 'Failed' } });
    expect(await provider.spendRequestState(id)).toEqual({ state: 'failed' });
    // The schema's list form is read too.
    fake.reply('GET', path, { status: 200, body: [body] });
    expect(await provider.spendRequestState(id)).toEqual({ state: 'sent', txId: body.txHash });
    // No transaction of it: never confirmed.
    fake.reply('GET', path, { status: 404, body: { title: 'Not Found', status: 404 } });
    expect(await provider.spendRequestState(id)).toEqual({ state: 'unknown' });
    fake.reply('GET', path, { status: 503 }, 'reset');
    expect(await failureOf(provider.spendRequestState(id))).toBe('unavailable');
    expect(await failureOf(provider.spendRequestState(id))).toBe('unavailable');
    fake.reply('GET', path, fixture<{ status: number; body: unknown }>('error-forbidden'));
    expect(await failureOf(provider.spendRequestState(id))).toBe('rejected');
  });

  it('is refused by CoinPayments when signed with the wrong secret', async () => {
    const exchange = fixture('create-address');
    const failure = await failureOf(
      adapter({ clientSecret: 'not-the-secret' }).createDepositAddress({ walletId: 7, currencyCode: 'LTC', network: 'Litecoin', webhookUrl: WEBHOOK_URL }),
    );
    expect(failure).toBe('rejected');
    expect(fake.refused.splice(0)).toEqual([`POST ${exchange.request.path}: signature`]);
  });
});

/** A webhook as CoinPayments sends it: signed over POST, the URL it goes to, the client id, a timestamp and the body. */
function signedWebhook(body: unknown, options: { url?: string; secret?: string; client?: string } = {}) {
  const rawBody = JSON.stringify(body);
  const timestamp = new Date().toISOString().slice(0, 19);
  return {
    rawBody,
    body: JSON.parse(rawBody) as unknown,
    headers: {
      'x-coinpayments-client': options.client ?? CLIENT_ID,
      'x-coinpayments-timestamp': timestamp,
      'x-coinpayments-signature': sign(options.secret ?? CLIENT_SECRET, 'POST', options.url ?? WEBHOOK_URL, timestamp, rawBody),
    },
  };
}

describe('CoinPayments webhooks', () => {
  const receive = fixture<Record<string, unknown>>('webhook-receive');
  const spend = fixture<Record<string, unknown>>('webhook-spend');

  it('reads a receive as a deposit and an on-chain spend as a confirmed withdrawal', () => {
    const provider = adapter();
    expect(provider.parseWebhook(signedWebhook(receive))).toEqual({
      type: 'deposit',
      txId: 'f8ea1354-b3c9-470f-af09-c2ba96f2e391',
      address: 'LNUPQLeQFfF67RtH1dqFBiwJhYBNZCW7pm',
      currencyCode: 'LTC',
      amount: 50_000_000n,
      confirmations: 2,
    });
    // Amounts as numbers, and with more than 8 decimals (cut, never rounded up).
    expect(provider.parseWebhook(signedWebhook({ ...receive, amount: 0.00004 }))).toMatchObject({ amount: 4_000n });
    expect(provider.parseWebhook(signedWebhook({ ...receive, amount: '1.123456789' }))).toMatchObject({ amount: 112_345_678n });
    expect(provider.parseWebhook(signedWebhook(spend))).toEqual({
      type: 'withdrawal',
      spendRequestId: 'LTC:448c1624-98e7-43c9-85f4-75ed0c97a8bb',
      outcome: 'confirmed',
      txId: spend.txHash,
    });
    expect(provider.parseWebhook(signedWebhook({ ...spend, txHash: null, status: 'Failed' }))).toMatchObject({ outcome: 'failed' });
    const others = [{ ...spend, txHash: null }, { ...receive, transactionType: 'Conversion' }, { ...spend, spendRequestId: null }, { ...spend, walletId: 'another-wallet' }];
    for (const ignored of others) {
      expect(() => provider.parseWebhook(signedWebhook(ignored))).toThrow(CoinPaymentsWebhookError);
    }
  });

  it('refuses a wrong signature, another client, another URL and a changed body', () => {
    const provider = adapter();
    expect(() => provider.parseWebhook(signedWebhook(receive, { secret: 'not-the-secret' }))).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(signedWebhook(receive, { client: 'someone-else' }))).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(signedWebhook(receive, { url: 'https://elsewhere.test/hook' }))).toThrow(WebhookSignatureError);
    const tampered = signedWebhook(receive);
    expect(() => provider.parseWebhook({ ...tampered, rawBody: tampered.rawBody.replace('"0.5"', '"5"') })).toThrow(WebhookSignatureError);
    const { 'x-coinpayments-signature': _dropped, ...unsigned } = signedWebhook(receive).headers;
    expect(() => provider.parseWebhook({ ...signedWebhook(receive), headers: unsigned })).toThrow(WebhookSignatureError);
  });
});

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/casino-config-test' };
  const credentials = { COINPAYMENTS_CLIENT_ID: CLIENT_ID, COINPAYMENTS_CLIENT_SECRET: CLIENT_SECRET, COINPAYMENTS_WALLETS: `LTC:2:${LTC_WALLET}` };

  it('selects CoinPayments when its credentials are set, the simulator otherwise', () => {
    expect(loadConfig(base).paymentProvider).toBe('simulator');
    const config = loadConfig({ ...base, ...credentials });
    expect(config.paymentProvider).toBe('coinpayments');
    expect(config.coinpayments).toEqual({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: 'https://a-api.coinpayments.net',
      wallets: { LTC: { walletId: LTC_WALLET, currencyId: '2' } },
    });
    expect(loadConfig({ ...base, ...credentials, PAYMENT_PROVIDER: 'simulator' }).paymentProvider).toBe('simulator');
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'coinpayments' })).toThrow(/COINPAYMENTS_CLIENT_ID/);
    expect(() => loadConfig({ ...base, ...credentials, COINPAYMENTS_WALLETS: '' })).toThrow(/COINPAYMENTS_WALLETS/);
    expect(() => loadConfig({ ...base, ...credentials, COINPAYMENTS_WALLETS: 'LTC-2' })).toThrow(/CODE:currencyId:walletId/);
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER/);
  });
});

describe('the server with CoinPayments selected', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      COINPAYMENTS_CLIENT_ID: CLIENT_ID,
      COINPAYMENTS_CLIENT_SECRET: CLIENT_SECRET,
      COINPAYMENTS_API_URL: fake.url,
      COINPAYMENTS_WALLETS: `LTC:2:${LTC_WALLET}`,
    });
  });
  afterAll(async () => server.close());
  afterEach(async () => {
    const report = await verifyLedger(server.db);
    expect(report.ok, JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).toBe(true);
  });

  type Player = Awaited<ReturnType<typeof registeredPlayer>>;

  async function ltcWallet(player: Player): Promise<{ available: string; pending: string }> {
    const res = await server.call('userGetWallets', { token: player.token });
    const wallet = (res.body.data.wallets as { currencyCode: string; available: string; pending: string }[]).find((w) => w.currencyCode === 'LTC');
    if (!wallet) throw new Error('no LTC wallet');
    return { available: wallet.available, pending: wallet.pending };
  }

  async function ledgerTransactionCount(): Promise<number> {
    const rows = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transactions');
    return rows[0]!.n;
  }

  /** Sends a webhook to the server as CoinPayments would, signed over the URL it was given. */
  function webhook(body: unknown, url: string, options: { secret?: string; headers?: Record<string, string> } = {}) {
    const signed = signedWebhook(body, { url, secret: options.secret });
    return server.call('paymentCoinPaymentsWebhook', {
      raw: { payload: signed.rawBody, contentType: 'application/json' },
      headers: options.headers ?? signed.headers,
    });
  }

  /** A player with a CoinPayments deposit address; answers the address and the webhook URL CoinPayments was given. */
  async function playerWithAddress(address: string): Promise<{ player: Player; webhookUrl: string }> {
    const player = await registeredPlayer(server);
    fake.reply('POST', `/api/v2/merchant/wallets/${LTC_WALLET}/addresses`, { status: 201, body: { addressId: 'a-1', networkAddress: address } });
    const res = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'LTC' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ address, network: 'Litecoin', currencyCode: 'LTC', confirmations: 6 });
    const asked = fake.received.at(-1)!;
    expect(asked.path).toBe(`/api/v2/merchant/wallets/${LTC_WALLET}/addresses`);
    const sent = asked.body as { label: string; notificationUrl: string };
    expect(sent.label).toMatch(/^casino-wallet-\d+$/);
    expect(sent.notificationUrl).toMatch(/^http:\/\/casino\.test\/api\/v1\/payment\//);
    // The address is kept: asking again does not call CoinPayments.
    const count = fake.received.length;
    const again = await server.call('paymentDeposit', { token: player.token, body: { amount: '1', currencyCode: 'LTC' } });
    expect(again.body.data.address).toBe(address);
    expect(fake.received.length).toBe(count);
    return { player, webhookUrl: sent.notificationUrl };
  }

  it('gives the provider address and credits a signed deposit after enough confirmations, once', async () => {
    expect(server.ctx.payments.key).toBe('coinpayments');
    const address = 'LQ3B36Yv2rBTxdgAdYpU2UcEZsaNwXeATk';
    const { player, webhookUrl } = await playerWithAddress(address);
    const body = { ...fixture<Record<string, unknown>>('webhook-receive'), address, transactionId: 'e2e-receive-1' };

    const seen = await webhook(body, webhookUrl);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.data).toEqual({
      type: 'deposit',
      deposit: {
        txId: 'e2e-receive-1',
        address,
        currencyCode: 'LTC',
        amount: '0.5',
        confirmations: 2,
        requiredConfirmations: 6,
        status: 'pending',
        changed: true,
      },
    });
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0.5' });

    const confirmed = await webhook({ ...body, confirmations: 6 }, webhookUrl);
    expect(confirmed.body.data.deposit).toMatchObject({ status: 'credited', confirmations: 6, changed: true });
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });

    const before = await ledgerTransactionCount();
    const replay = await webhook({ ...body, confirmations: 6 }, webhookUrl);
    expect(replay.body.data.deposit).toMatchObject({ status: 'credited', changed: false });
    expect(await ledgerTransactionCount()).toBe(before);
  });

  it('answers PAYMENT_PROVIDER_LIMITS_NOT_EXISTS for a currency CoinPayments has no wallet of, without asking it', async () => {
    // Only LTC has a wallet here (COINPAYMENTS_WALLETS); BTC is an enabled currency the player holds.
    const player = await registeredPlayer(server);
    const count = fake.received.length;
    const deposit = await server.call('paymentDeposit', { token: player.token, body: { amount: '0.5', currencyCode: 'BTC' } });
    expect([deposit.status, deposit.body.errors[0].description]).toEqual([422, 'PAYMENT_PROVIDER_LIMITS_NOT_EXISTS']);
    const withdrawal = await server.call('paymentWithdraw', {
      token: player.token,
      body: { amount: '0.5', currencyCode: 'BTC', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
    });
    expect([withdrawal.status, withdrawal.body.errors[0].description]).toEqual([422, 'PAYMENT_PROVIDER_LIMITS_NOT_EXISTS']);
    // Over the maximum as well: the currency has no limits to compare with.
    const tooMuch = await server.call('paymentDeposit', { token: player.token, body: { amount: '10001', currencyCode: 'BTC' } });
    expect([tooMuch.status, tooMuch.body.errors[0].description]).toEqual([422, 'PAYMENT_PROVIDER_LIMITS_NOT_EXISTS']);
    expect(fake.received.length).toBe(count);
    expect(await server.db.query("SELECT w.id FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE c.code = 'BTC'")).toEqual([]);
    // Nor is BTC offered: the providers list names the currencies CoinPayments has a wallet of.
    const providers = await server.call('paymentGetProviders');
    expect(providers.status).toBe(200);
    expect((providers.body.data.paymentProviders as { currencies: string[] }[]).map((p) => p.currencies)).toEqual([['LTC']]);
  });

  it('changes nothing for a bad signature (401), a missing one (400) or an address it never issued (404)', async () => {
    const address = 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9';
    const { player, webhookUrl } = await playerWithAddress(address);
    const body = { ...fixture<Record<string, unknown>>('webhook-receive'), address, transactionId: 'e2e-forged-1', confirmations: 6 };
    const before = await ledgerTransactionCount();

    const forged = await webhook(body, webhookUrl, { secret: 'not-the-secret' });
    expect([forged.status, forged.body.errors[0]]).toEqual([401, { name: 'Unauthorized', description: 'INVALID_SIGNATURE' }]);
    const elsewhere = await webhook(body, 'https://elsewhere.test/hook');
    expect(elsewhere.status).toBe(401);
    const missing = await webhook(body, webhookUrl, { headers: { 'x-coinpayments-client': CLIENT_ID } });
    expect([missing.status, missing.body.errors[0].description]).toEqual([400, 'PLEASE_CHECK_REQUEST_DATA']);
    expect(await ltcWallet(player)).toEqual({ available: '0', pending: '0' });
    expect(await ledgerTransactionCount()).toBe(before);
    expect(await server.db.query('SELECT id FROM deposits WHERE provider_tx_id = $1', ['e2e-forged-1'])).toEqual([]);

    const unknown = await webhook({ ...body, address: 'LUnknownAddress1' }, webhookUrl);
    expect([unknown.status, unknown.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    const unreadable = await webhook({ ...body, amount: undefined }, webhookUrl);
    expect([unreadable.status, unreadable.body.errors[0].fields]).toEqual([400, [{ field: 'amount', code: 'required' }]]);
    // Over the per-call maximum (openapi.yaml ProviderAmount): refused before anything is recorded.
    for (const amount of ['10000000000', '9999999999999999999999', '10000000000.123456789']) {
      const huge = await webhook({ ...body, amount }, webhookUrl);
      expect([huge.status, huge.body.errors[0].fields], amount).toEqual([400, [{ field: 'amount', code: 'amount.max' }]]);
    }
    expect(await server.db.query('SELECT id FROM deposits WHERE provider_tx_id = $1', ['e2e-forged-1'])).toEqual([]);
    const unknownSpend = await webhook({ ...fixture<Record<string, unknown>>('webhook-spend'), spendRequestId: 'never-requested' }, webhookUrl);
    expect([unknownSpend.status, unknownSpend.body.errors[0].description]).toEqual([404, 'NOT_FOUND']);
    expect(await ledgerTransactionCount()).toBe(before);
  });

  it('pays a withdrawal out through a spend request and its confirmation, completed by the spend webhook', async () => {
    const address = 'LdP8Qox1VAhCzLJNqrr74YovaWYyNBUWvL';
    const { player, webhookUrl } = await playerWithAddress(address);
    const receive = { ...fixture<Record<string, unknown>>('webhook-receive'), address, transactionId: 'e2e-receive-2', confirmations: 6 };
    expect((await webhook(receive, webhookUrl)).body.data.deposit.status).toBe('credited');
    const destination = segwitAddress('ltc', 0, new Uint8Array(20).fill(7));
    const wallet = `/api/v2/merchant/wallets/${LTC_WALLET}`;

    // Refused by CoinPayments: the held funds come back and the refusal is answered.
    fake.reply('PUT', `${wallet}/webhook`, { status: 200 });
    fake.reply('POST', `${wallet}/spend/request`, fixture('error-not-enough-funds'));
    const refused = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.25', address: destination, currencyCode: 'LTC' } });
    expect([refused.status, refused.body.errors[0].description]).toEqual([422, 'NOT_ENOUGH_AMOUNT']);
    expect(await ltcWallet(player)).toEqual({ available: '0.5', pending: '0' });

    const start = fake.received.length;
    fake.reply('POST', `${wallet}/spend/request`, { status: 202, body: { ...fixture('spend-request').response.body!, spendRequestId: 'e2e-spend-1' } });
    fake.reply('POST', `${wallet}/spend/confirmation`, { status: 200 });
    const sent = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.25', address: destination, currencyCode: 'LTC' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ spendRequestId: 'LTC:e2e-spend-1', status: 'pending', amount: '0.25' });
    expect(fake.received.slice(start).map((r) => [r.path, r.body])).toEqual([
      [`${wallet}/spend/request`, expect.objectContaining({ toAddress: destination, toCurrency: '2', amount: '0.25', receiverPaysFee: false })],
      [`${wallet}/spend/confirmation`, { spendRequestId: 'e2e-spend-1' }],
    ]);
    const fee = sent.body.data.fee as string;
    expect((await ltcWallet(player)).pending).not.toBe('0');

    const spendFixture = fixture<Record<string, unknown> & { txHash: string }>('webhook-spend');
    const spend = { ...spendFixture, address: destination, spendRequestId: 'e2e-spend-1' };
    const done = await webhook(spend, webhookUrl);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({
      type: 'withdrawal',
      withdrawal: { spendRequestId: 'LTC:e2e-spend-1', status: 'completed', txId: spendFixture.txHash, changed: true },
    });
    expect(await ltcWallet(player)).toEqual({ available: formatAmount(parseAmount('0.25') - parseAmount(fee)), pending: '0' });
    const replay = await webhook(spend, webhookUrl);
    expect(replay.body.data.withdrawal).toMatchObject({ status: 'completed', changed: false });
  });

  it('completes a withdrawal whose confirmation went unanswered when the reconciliation finds its spend on chain', async () => {
    const address = 'LTwBUpAyGaBPrPh4yQGc1FBn7K2CeFaNWw';
    const { player, webhookUrl } = await playerWithAddress(address);
    const receive = { ...fixture<Record<string, unknown>>('webhook-receive'), address, transactionId: 'e2e-receive-3', confirmations: 6 };
    expect((await webhook(receive, webhookUrl)).body.data.deposit.status).toBe('credited');
    const destination = segwitAddress('ltc', 0, new Uint8Array(20).fill(9));
    const wallet = `/api/v2/merchant/wallets/${LTC_WALLET}`;
    fake.reply('PUT', `${wallet}/webhook`, { status: 200 });
    fake.reply('POST', `${wallet}/spend/request`, { status: 202, body: { ...fixture('spend-request').response.body!, spendRequestId: 'e2e-spend-2' } });
    // The confirmation's answer never comes back (CoinPayments may have acted on it).
    fake.reply('POST', `${wallet}/spend/confirmation`, 'reset');
    const sent = await server.call('paymentWithdraw', { token: player.token, body: { amount: '0.25', address: destination, currencyCode: 'LTC' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ spendRequestId: 'LTC:e2e-spend-2', status: 'pending' });
    const fee = sent.body.data.fee as string;

    server.clock.advance(11 * 60 * 1000);
    const transaction = fixture('wallet-transaction');
    const txHash = 'b'.repeat(64);
    fake.reply('GET', `${wallet}/transaction?spendRequestId=e2e-spend-2`, {
      status: 200,
      body: { ...(transaction.response.body as Record<string, unknown>), spendRequestId: 'e2e-spend-2', txHash },
    });
    const outcomes = await reconcileWithdrawals(server.ctx);
    expect(outcomes).toEqual([{ withdrawalId: expect.any(Number), spendRequestId: 'LTC:e2e-spend-2', providerState: 'sent', result: 'completed' }]);
    expect(await ltcWallet(player)).toEqual({ available: formatAmount(parseAmount('0.25') - parseAmount(fee)), pending: '0' });
    // Its webhook, late: nothing moves.
    const count = await ledgerTransactionCount();
    const spend = { ...fixture<Record<string, unknown>>('webhook-spend'), address: destination, spendRequestId: 'e2e-spend-2', txHash };
    expect((await webhook(spend, webhookUrl)).body.data.withdrawal).toMatchObject({ status: 'completed', txId: txHash, changed: false });
    expect(await ledgerTransactionCount()).toBe(count);
  });

  it('answers ignored for notifications the casino does not use', async () => {
    const conversion = { ...fixture<Record<string, unknown>>('webhook-receive'), transactionType: 'Conversion' };
    const res = await webhook(conversion, 'http://casino.test/api/v1/payment/coinpayments/webhook');
    expect([res.status, res.body.data]).toEqual([200, { type: 'ignored' }]);
  });
});
