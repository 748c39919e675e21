import { randomBytes } from 'node:crypto';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import {
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookSignatureError,
  type DepositAddress,
  type DepositAddressRequest,
  type DepositNotification,
  type PaymentProvider,
  type WebhookRequest,
} from './payment.ts';

/**
 * The payment simulator: a stand-in for the real provider that needs no network but behaves like one.
 * It keeps its own little chain (simulator_addresses, simulator_transfers in the database, so a restart
 * keeps it), and on every transfer and every confirmation it POSTs a signed webhook, over real HTTP, to
 * the URL the server gave with the address. With `blockMs` set it mines a block every so often: each
 * transfer the server has not yet settled gains a confirmation, and its webhook goes out.
 */

/** The webhook body the simulator sends (openapi.yaml PaymentWebhook). */
export interface SimulatorWebhookBody {
  type: 'deposit';
  txId: string;
  address: string;
  currencyCode: string;
  amount: string;
  confirmations: number;
}

export interface ChainTransfer {
  txId: string;
  address: string;
  currencyCode: string;
  amount: bigint;
  confirmations: number;
  /** The server answered a webhook with a final status: mined blocks no longer call back for it. */
  settled: boolean;
  /** HTTP status of the last webhook delivery; null when it could not be delivered. */
  lastCallbackStatus: number | null;
}

export class UnknownChainAddressError extends Error {
  override readonly name = 'UnknownChainAddressError';
}

export class UnknownChainTransferError extends Error {
  override readonly name = 'UnknownChainTransferError';
}

export interface SimulatorPaymentProvider extends PaymentProvider {
  readonly key: 'simulator';
  /** An incoming transfer to one of the simulator's addresses, with 0 confirmations; its webhook is sent. */
  transfer(address: string, amount: bigint): Promise<ChainTransfer>;
  /** Adds confirmations to a transfer and sends its webhook (even when the server had settled it). */
  confirm(txId: string, confirmations: number): Promise<ChainTransfer>;
  /** One block: every unsettled transfer gains a confirmation. Returns how many transfers it touched. */
  mineBlock(): Promise<number>;
}

export interface SimulatorOptions {
  db: Queryable;
  secret: string;
  now: () => Date;
  /** Mine a block every this many milliseconds; null: only /dev/chain/confirm confirms. */
  blockMs: number | null;
  /**
   * Where the server listens now, if it does. The simulator runs inside the server it calls, so it sends
   * each webhook to the path of the address's webhook URL at that origin: a restart on another port
   * still reaches the server. Null: the webhook URL as recorded.
   */
  selfUrl?: () => string | null;
  /** Webhook delivery timeout. */
  timeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function randomFrom(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** An address that looks like one of the currency's network (openapi.yaml CryptoAddress: [A-Za-z0-9:]). */
function fakeAddress(currencyCode: string): string {
  switch (currencyCode) {
    case 'LTC':
      return `ltc1q${randomFrom(BECH32, 38)}`;
    case 'BTC':
      return `bc1q${randomFrom(BECH32, 38)}`;
    case 'ETH':
      return `0x${randomBytes(20).toString('hex')}`;
    case 'USDT':
      return `T${randomFrom(BASE58, 33)}`;
    default:
      return `sim${randomBytes(16).toString('hex')}`;
  }
}

interface TransferRow {
  tx_id: string;
  address: string;
  currency_code: string;
  amount: string;
  confirmations: number;
  settled: boolean;
  last_callback_status: number | null;
  webhook_url: string;
}

const TRANSFER_COLUMNS = `t.tx_id, t.address, a.currency_code, t.amount, t.confirmations, t.settled, t.last_callback_status, a.webhook_url`;

function toTransfer(row: TransferRow): ChainTransfer {
  return {
    txId: row.tx_id,
    address: row.address,
    currencyCode: row.currency_code,
    amount: parseSignedAmount(row.amount),
    confirmations: row.confirmations,
    settled: row.settled,
    lastCallbackStatus: row.last_callback_status,
  };
}

/** The server's answer says the deposit reached a final status (openapi.yaml paymentWebhook 200). */
function settledBy(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const deposit = (answer as { data?: { deposit?: { status?: unknown; confirmations?: unknown; requiredConfirmations?: unknown } } }).data?.deposit;
  if (deposit?.status === 'credited') return true;
  // Below the minimum it is never credited, but the server still books it once it is confirmed.
  return (
    deposit?.status === 'below_minimum' &&
    typeof deposit.confirmations === 'number' &&
    typeof deposit.requiredConfirmations === 'number' &&
    deposit.confirmations >= deposit.requiredConfirmations
  );
}

export function createSimulatorPaymentProvider(options: SimulatorOptions): SimulatorPaymentProvider {
  const { db, secret, now } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const log = options.log ?? (() => undefined);
  let timer: NodeJS.Timeout | null = null;
  let mining: Promise<unknown> | null = null;

  async function load(txId: string): Promise<ChainTransfer> {
    const row = await one<TransferRow>(
      db,
      `SELECT ${TRANSFER_COLUMNS} FROM simulator_transfers t JOIN simulator_addresses a ON a.address = t.address WHERE t.tx_id = $1`,
      [txId],
    );
    return toTransfer(row);
  }

  /** POSTs the transfer's current state to its address's webhook URL; records the outcome. */
  async function deliver(row: TransferRow): Promise<void> {
    const body: SimulatorWebhookBody = {
      type: 'deposit',
      txId: row.tx_id,
      address: row.address,
      currencyCode: row.currency_code,
      amount: formatAmount(parseSignedAmount(row.amount)),
      confirmations: row.confirmations,
    };
    const raw = JSON.stringify(body);
    const self = options.selfUrl?.() ?? null;
    const target = self ? new URL(new URL(row.webhook_url).pathname, self).toString() : row.webhook_url;
    let status: number | null = null;
    let settled = false;
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, raw) },
        body: raw,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      const answer: unknown = await response.json().catch(() => null);
      settled = response.ok && settledBy(answer);
    } catch (error) {
      log(`payment simulator: webhook for ${row.tx_id} to ${target} failed`, error);
    }
    await db.query('UPDATE simulator_transfers SET last_callback_status = $2, settled = settled OR $3 WHERE tx_id = $1', [
      row.tx_id,
      status,
      settled,
    ]);
  }

  async function mineBlock(): Promise<number> {
    const rows = await db.query<TransferRow>(
      `WITH mined AS (
         UPDATE simulator_transfers SET confirmations = confirmations + 1 WHERE NOT settled RETURNING *
       )
       SELECT ${TRANSFER_COLUMNS} FROM mined t JOIN simulator_addresses a ON a.address = t.address ORDER BY t.created_at, t.tx_id`,
    );
    for (const row of rows) await deliver(row);
    return rows.length;
  }

  return {
    key: 'simulator',

    async createDepositAddress(request: DepositAddressRequest): Promise<DepositAddress> {
      const address = fakeAddress(request.currencyCode);
      await db.query(
        'INSERT INTO simulator_addresses (address, currency_code, network, webhook_url, created_at) VALUES ($1, $2, $3, $4, $5)',
        [address, request.currencyCode, request.network, request.webhookUrl, now()],
      );
      return { address, network: request.network };
    },

    parseWebhook(request: WebhookRequest): DepositNotification {
      if (!verifyWebhookSignature(secret, request.rawBody, request.headers[WEBHOOK_SIGNATURE_HEADER])) {
        throw new WebhookSignatureError('the webhook signature does not match its body');
      }
      const body = request.body as SimulatorWebhookBody;
      return {
        txId: body.txId,
        address: body.address,
        currencyCode: body.currencyCode,
        amount: parseAmount(body.amount),
        confirmations: body.confirmations,
      };
    },

    async transfer(address: string, amount: bigint): Promise<ChainTransfer> {
      const known = await maybeOne<{ address: string }>(db, 'SELECT address FROM simulator_addresses WHERE address = $1', [address]);
      if (!known) throw new UnknownChainAddressError(`no simulator address ${address}`);
      const txId = randomBytes(32).toString('hex');
      await db.query('INSERT INTO simulator_transfers (tx_id, address, amount, confirmations, created_at) VALUES ($1, $2, $3, 0, $4)', [
        txId,
        address,
        formatAmount(amount),
        now(),
      ]);
      const row = await one<TransferRow>(
        db,
        `SELECT ${TRANSFER_COLUMNS} FROM simulator_transfers t JOIN simulator_addresses a ON a.address = t.address WHERE t.tx_id = $1`,
        [txId],
      );
      await deliver(row);
      return load(txId);
    },

    async confirm(txId: string, confirmations: number): Promise<ChainTransfer> {
      const row = await maybeOne<TransferRow>(
        db,
        `WITH confirmed AS (
           UPDATE simulator_transfers SET confirmations = confirmations + $2 WHERE tx_id = $1 RETURNING *
         )
         SELECT ${TRANSFER_COLUMNS} FROM confirmed t JOIN simulator_addresses a ON a.address = t.address`,
        [txId, confirmations],
      );
      if (!row) throw new UnknownChainTransferError(`no simulator transfer ${txId}`);
      await deliver(row);
      return load(txId);
    },

    mineBlock,

    start() {
      const blockMs = options.blockMs;
      if (blockMs === null || timer) return;
      timer = setInterval(() => {
        // One block at a time: a slow webhook delays the next block instead of overlapping it.
        if (mining) return;
        mining = mineBlock()
          .catch((error: unknown) => log('payment simulator: mining a block failed', error))
          .finally(() => {
            mining = null;
          });
      }, blockMs);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await mining;
    },
  };
}
