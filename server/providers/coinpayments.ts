import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatAmount, tryParseAmount } from '../../src/money.ts';
import type { CoinPaymentsConfig } from '../config.ts';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type DepositAddress,
  type DepositAddressRequest,
  type PaymentProvider,
  type PaymentProviderFailure,
  type ProviderNotification,
  type SpendRequest,
  type SpendRequestInput,
  type SpendRequestState,
  type WebhookRequest,
} from './payment.ts';

/**
 * The CoinPayments API v2 adapter.
 *
 * The shapes follow CoinPayments' own documentation: a-docs.coinpayments.net (api/auth: "Generate API
 * Signature" and "Request Headers"; api/wallets and api/transactions routes for v2; api/webhooks:
 * "Authenticating Webhook Requests" and "Wallet Webhook Payload") and its OpenAPI sources
 * (github.com/CoinPaymentsNet/CoinPaymentsNET.github.io, openapi/paths/wallets and
 * openapi/components/responses/wallets/wallet-notification-payload.yaml).
 *
 * - Every request is signed: X-CoinPayments-Client (client id), X-CoinPayments-Timestamp (UTC,
 *   YYYY-MM-DDTHH:mm:ss) and X-CoinPayments-Signature, the base64 HMAC-SHA256 keyed with the client
 *   secret of U+FEFF + method + full URL + client id + timestamp + JSON body (empty without one).
 * - A deposit address: POST /api/v2/merchant/wallets/{walletIdStr}/addresses with a label and the
 *   address's own notificationUrl; the answer names it `networkAddress` (and `addressId`).
 * - A payout is two-step: POST .../wallets/{walletIdStr}/spend/request (toAddress, toCurrency, a decimal
 *   amount; nothing moves, the answer prices it and carries `spendRequestId`), then
 *   POST .../wallets/{walletIdStr}/spend/confirmation with that id, which publishes it.
 *   Spends are reported to the wallet's webhook URL (PUT .../wallets/{walletIdStr}/webhook), which the
 *   adapter points at the server before the first spend request of each wallet.
 * - Where a spend stands: GET .../wallets/{walletIdStr}/transaction?spendRequestId=... ("Get wallet
 *   transaction": the first spending transaction of that spend request, as a wallet transaction with
 *   transactionStatus and txHash); a 404 means no transaction was made of it (never confirmed).
 * - Webhooks carry the same three headers, signed the same way over POST + the URL they were sent to +
 *   client id + timestamp + raw body. Their body is the wallet transaction (walletId, address,
 *   transactionId, txHash, spendRequestId, transactionType, amount, symbol, confirmations, ...).
 *
 * The casino's interface only passes a spend request's id to the confirmation, while CoinPayments wants
 * the wallet in the path: the adapter's spend request id is therefore `<currency code>:<spendRequestId>`
 * (LTC:448c1624-...), the code naming the configured wallet, and withdrawal webhooks are read back into
 * the same form from their walletId.
 */

export const COINPAYMENTS_CLIENT_HEADER = 'x-coinpayments-client';
export const COINPAYMENTS_TIMESTAMP_HEADER = 'x-coinpayments-timestamp';
export const COINPAYMENTS_SIGNATURE_HEADER = 'x-coinpayments-signature';

/** The webhook body as CoinPayments sends it (the fields the casino reads; there are more). */
export interface CoinPaymentsWebhookBody {
  walletId: string;
  transactionId: string;
  transactionType: string;
  address?: string;
  txHash?: string | null;
  spendRequestId?: string | null;
  /** Net amount in the coin, as a decimal (documented as a string, tolerated as a number). */
  amount?: string | number;
  symbol?: string;
  confirmations?: number;
  requiredConfirmations?: number;
  /** Not among the documented fields: read when present, to recognise a spend that failed. */
  status?: string;
}

/** A wallet transaction as "Get wallet transaction" answers it (the fields the casino reads). */
interface CoinPaymentsWalletTransaction {
  id?: string;
  spendRequestId?: string | null;
  transactionStatus?: string;
  txHash?: string | null;
}

/** The payload is signed and well-formed but tells nothing the casino acts on, or lacks what it needs. */
export class CoinPaymentsWebhookError extends Error {
  override readonly name = 'CoinPaymentsWebhookError';
  constructor(
    readonly reason: 'ignored' | 'malformed',
    message: string,
    /** For `malformed`: the body field that is missing or unreadable. */
    readonly field?: 'address' | 'amount' | 'symbol',
  ) {
    super(message);
  }
}

export interface CoinPaymentsOptions extends CoinPaymentsConfig {
  /**
   * Every URL CoinPayments may have been given for this server's webhooks: their signature covers the
   * URL they were sent to, which the request itself does not carry behind a proxy.
   */
  webhookUrls: () => string[];
  /** Request timeout; 10 s unless told. */
  timeoutMs?: number;
  /** The wall clock for request timestamps (CoinPayments compares them with its own). */
  wallClock?: () => Date;
}

export interface CoinPaymentsProvider extends PaymentProvider {
  readonly key: 'coinpayments';
}

/** The message CoinPayments signs, for a request or a webhook. */
export function coinPaymentsSignature(secret: string, parts: { method: string; url: string; clientId: string; timestamp: string; body: string }): string {
  const message = `\ufeff${parts.method}${parts.url}${parts.clientId}${parts.timestamp}${parts.body}`;
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}

/** UTC ISO-8601 to the second, without milliseconds or zone, as the API wants it. */
export function coinPaymentsTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

const RECEIVE_TYPES = new Set(['internalreceive', 'utxoexternalreceive', 'accountbasedexternalreceive', 'sameuserreceive', 'accountbasedexternaltokenreceive']);
const SPEND_TYPES = new Set(['externalspend', 'internalspend', 'sameuserspend', 'accountbasedtokenspend']);
const FAILED_STATUS = /^(failed|failure|cancell?ed|rejected|error)$/i;

function header(headers: WebhookRequest['headers'], name: string): string | null {
  const value = headers[name];
  return typeof value === 'string' ? value : null;
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'base64');
  const b = /^[A-Za-z0-9+/]+={0,2}$/.test(given) ? Buffer.from(given, 'base64') : Buffer.alloc(0);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A coin amount to units of 1e-8. Coins with more decimals (ETH has 18) are cut to 8, downwards: the
 * casino never credits more than the provider holds.
 */
function readAmount(value: string | number | undefined): bigint | null {
  if (value === undefined) return null;
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? value.toFixed(8) : '') : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const integer = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').slice(0, 8).replace(/0+$/, '');
  return tryParseAmount(fraction ? `${integer}.${fraction}` : integer);
}

/** Words of a refusal (RFC 7807 problem details, or whatever came) to tell its kind. */
function refusalText(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

function failureOf(status: number, text: string): PaymentProviderFailure {
  // Nothing happened that the casino can count on: try again later.
  if (status >= 500 || status === 408 || status === 429) return 'unavailable';
  // Credentials, permissions, unknown wallets: refusals whatever their wording.
  if (status !== 400 && status !== 422) return 'rejected';
  const words = refusalText(text);
  // Documented for spend requests: 400 "Not enough funds".
  if (/insufficient|not enough (funds|balance)/i.test(words)) return 'insufficient_funds';
  if (/address/i.test(words) && /invalid|not valid|malformed|wrong|unsupported|incorrect/i.test(words)) return 'invalid_address';
  return 'rejected';
}

export function createCoinPaymentsProvider(options: CoinPaymentsOptions): CoinPaymentsProvider {
  const { clientId, clientSecret, apiUrl, wallets } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const wallClock = options.wallClock ?? (() => new Date());
  /** Wallets whose webhook URL was set by this process, with the URL. */
  const walletWebhooks = new Map<string, string>();

  function walletFor(currencyCode: string) {
    const wallet = wallets[currencyCode];
    if (!wallet) throw new PaymentProviderError('rejected', `no CoinPayments wallet is configured for ${currencyCode}`);
    return wallet;
  }

  /** One signed request (a GET has no body, and an empty one is signed); its status and text. */
  async function send(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const url = `${apiUrl}${path}`;
    const payload = body === undefined ? '' : JSON.stringify(body);
    const timestamp = coinPaymentsTimestamp(wallClock());
    try {
      const response = await fetch(url, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          'X-CoinPayments-Client': clientId,
          'X-CoinPayments-Timestamp': timestamp,
          'X-CoinPayments-Signature': coinPaymentsSignature(clientSecret, { method, url, clientId, timestamp, body: payload }),
        },
        ...(body === undefined ? {} : { body: payload }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      throw new PaymentProviderError('unavailable', `CoinPayments ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One signed call; answers the parsed JSON body of a 2xx, throws PaymentProviderError otherwise. */
  async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown> {
    const { status, text } = await send(method, path, body);
    if (status < 200 || status >= 300) {
      throw new PaymentProviderError(failureOf(status, text), `CoinPayments ${method} ${path} answered ${status}: ${text.slice(0, 500)}`);
    }
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new PaymentProviderError('rejected', `CoinPayments ${method} ${path} answered ${status} with a body that is not JSON`);
    }
  }

  /** The wallet and CoinPayments' own id of an adapter spend request id (`<currency code>:<spendRequestId>`). */
  function spendParts(spendRequestId: string): { walletId: string; id: string } {
    const split = spendRequestId.indexOf(':');
    if (split <= 0) throw new PaymentProviderError('rejected', `not a CoinPayments spend request id: ${spendRequestId}`);
    return { walletId: walletFor(spendRequestId.slice(0, split)).walletId, id: spendRequestId.slice(split + 1) };
  }

  function stringField(answer: unknown, name: string, what: string): string {
    const value = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>)[name] : undefined;
    if (typeof value !== 'string' || value === '') throw new PaymentProviderError('rejected', `CoinPayments ${what} answer has no ${name}`);
    return value;
  }

  async function ensureWalletWebhook(walletId: string, webhookUrl: string): Promise<void> {
    if (walletWebhooks.get(walletId) === webhookUrl) return;
    await call('PUT', `/api/v2/merchant/wallets/${encodeURIComponent(walletId)}/webhook`, { notificationUrl: webhookUrl });
    walletWebhooks.set(walletId, webhookUrl);
  }

  function verify(request: WebhookRequest): void {
    const client = header(request.headers, COINPAYMENTS_CLIENT_HEADER);
    const timestamp = header(request.headers, COINPAYMENTS_TIMESTAMP_HEADER);
    const signature = header(request.headers, COINPAYMENTS_SIGNATURE_HEADER);
    if (client !== clientId || timestamp === null || signature === null) {
      throw new WebhookSignatureError('the webhook is not signed for this CoinPayments client');
    }
    const matches = options
      .webhookUrls()
      .some((url) => sameSignature(coinPaymentsSignature(clientSecret, { method: 'POST', url, clientId, timestamp, body: request.rawBody }), signature));
    if (!matches) throw new WebhookSignatureError('the webhook signature does not match its body');
  }

  return {
    key: 'coinpayments',
    currencies: Object.keys(wallets),

    async createDepositAddress(request: DepositAddressRequest): Promise<DepositAddress> {
      const wallet = walletFor(request.currencyCode);
      const answer = await call('POST', `/api/v2/merchant/wallets/${encodeURIComponent(wallet.walletId)}/addresses`, {
        label: `casino-wallet-${request.walletId}`,
        notificationUrl: request.webhookUrl,
      });
      return { address: stringField(answer, 'networkAddress', 'address'), network: request.network };
    },

    async createSpendRequest(request: SpendRequestInput): Promise<SpendRequest> {
      const wallet = walletFor(request.currencyCode);
      await ensureWalletWebhook(wallet.walletId, request.webhookUrl);
      const answer = await call('POST', `/api/v2/merchant/wallets/${encodeURIComponent(wallet.walletId)}/spend/request`, {
        toAddress: request.address,
        toCurrency: wallet.currencyId,
        amount: formatAmount(request.amount),
        memo: `withdrawal ${request.withdrawalId}`,
        // The player receives the amount asked for; the network and CoinPayments fees come on top.
        receiverPaysFee: false,
      });
      return { spendRequestId: `${request.currencyCode}:${stringField(answer, 'spendRequestId', 'spend request')}` };
    },

    async confirmSpendRequest(spendRequestId: string): Promise<void> {
      const spend = spendParts(spendRequestId);
      await call('POST', `/api/v2/merchant/wallets/${encodeURIComponent(spend.walletId)}/spend/confirmation`, { spendRequestId: spend.id });
    },

    async spendRequestState(spendRequestId: string): Promise<SpendRequestState> {
      const spend = spendParts(spendRequestId);
      const path = `/api/v2/merchant/wallets/${encodeURIComponent(spend.walletId)}/transaction?spendRequestId=${encodeURIComponent(spend.id)}`;
      const { status, text } = await send('GET', path);
      // No transaction of this spend request: it was never confirmed (or expired unconfirmed).
      if (status === 404) return { state: 'unknown' };
      if (status < 200 || status >= 300) {
        throw new PaymentProviderError(failureOf(status, text), `CoinPayments GET ${path} answered ${status}: ${text.slice(0, 500)}`);
      }
      let answer: unknown;
      try {
        answer = text.trim() === '' ? null : (JSON.parse(text) as unknown);
      } catch {
        throw new PaymentProviderError('rejected', `CoinPayments GET ${path} answered ${status} with a body that is not JSON`);
      }
      // Documented as one transaction, its schema as a list of them: either is read.
      const candidates = (Array.isArray(answer) ? answer : [answer]).filter(
        (item): item is CoinPaymentsWalletTransaction => typeof item === 'object' && item !== null,
      );
      const transaction = candidates.find((item) => item.spendRequestId === spend.id) ?? candidates.find((item) => !item.spendRequestId);
      if (!transaction) return { state: 'unknown' };
      if (typeof transaction.transactionStatus === 'string' && FAILED_STATUS.test(transaction.transactionStatus)) return { state: 'failed' };
      // Published on chain: the coins have left the wallet.
      if (typeof transaction.txHash === 'string' && transaction.txHash !== '') return { state: 'sent', txId: transaction.txHash };
      return { state: 'pending' };
    },

    parseWebhook(request: WebhookRequest): ProviderNotification {
      verify(request);
      const body = request.body as CoinPaymentsWebhookBody;
      const type = String(body.transactionType).toLowerCase();
      const walletCurrency = Object.entries(wallets).find(([, wallet]) => wallet.walletId === body.walletId)?.[0];

      if (RECEIVE_TYPES.has(type)) {
        const amount = readAmount(body.amount);
        const currencyCode = walletCurrency ?? body.symbol?.toUpperCase();
        if (!body.address) throw new CoinPaymentsWebhookError('malformed', 'a CoinPayments receive without an address', 'address');
        if (amount === null) throw new CoinPaymentsWebhookError('malformed', 'a CoinPayments receive without a readable amount', 'amount');
        if (!currencyCode) throw new CoinPaymentsWebhookError('malformed', 'a CoinPayments receive of an unknown wallet, without symbol', 'symbol');
        return {
          type: 'deposit',
          // CoinPayments' transaction id is there from the first sighting; the chain hash may come later.
          txId: body.transactionId,
          address: body.address,
          currencyCode,
          amount,
          confirmations: body.confirmations ?? 0,
        };
      }

      // Spends of other wallets, or without a spend request, are not the casino's payouts.
      if (SPEND_TYPES.has(type) && body.spendRequestId && walletCurrency) {
        const spendRequestId = `${walletCurrency}:${body.spendRequestId}`;
        if (body.status !== undefined && FAILED_STATUS.test(body.status)) return { type: 'withdrawal', spendRequestId, outcome: 'failed' };
        // Published on chain: the coins have left the wallet.
        if (body.txHash) return { type: 'withdrawal', spendRequestId, outcome: 'confirmed', txId: body.txHash };
        throw new CoinPaymentsWebhookError('ignored', `spend ${spendRequestId} is not on chain yet`);
      }

      // Conversions, sweeps, test funds, spends the casino did not request: nothing to book.
      throw new CoinPaymentsWebhookError('ignored', `CoinPayments ${body.transactionType} notifications are not used`);
    },
  };
}
