import { randomBytes } from 'node:crypto';
import { formatAmount, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { maybeOne, one, type Db, type Queryable } from '../db/db.ts';
import { base58CheckAddress, segwitAddress } from '../addresses.ts';
import {
  PaymentProviderError,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookSignatureError,
  type DepositAddress,
  type DepositAddressRequest,
  type ProviderNotification,
  type PaymentProvider,
  type SpendRequest,
  type SpendRequestInput,
  type SpendRequestState,
  type WebhookRequest,
  type WithdrawalOutcome,
} from './payment.ts';

/**
 * The payment simulator: a stand-in for the real provider that needs no network but behaves like one.
 * It keeps its own little chain (simulator_addresses, simulator_transfers in the database, so a restart
 * keeps it), and on every transfer and every confirmation it POSTs a signed webhook, over real HTTP, to
 * the URL the server gave with the address. With `blockMs` set it mines a block every so often: each
 * transfer the server has not yet settled gains a confirmation, and its webhook goes out.
 *
 * Payouts work as a real provider's do, so that every refusal the server must handle can happen:
 * a hot wallet per currency (simulator_hot_wallets: a float, plus incoming transfers, less payouts)
 * that a payout must fit (insufficient_funds); its own deposit addresses refused as destinations
 * (invalid_address); payouts of a currency switched off (payouts_enabled = false: rejected); and an
 * outage switch (`setOnline(false)`: unavailable). A confirmed payout waits until /dev/withdrawals/settle
 * sends it or fails it; either way its signed webhook goes to the payout's webhook URL.
 */

/** The webhook bodies the simulator sends (openapi.yaml PaymentWebhook). */
export type SimulatorWebhookBody =
  | { type: 'deposit'; txId: string; address: string; currencyCode: string; amount: string; confirmations: number }
  | { type: 'withdrawal'; spendRequestId: string; outcome: WithdrawalOutcome; txId?: string };

export type PayoutStatus = 'created' | 'confirmed' | 'sent' | 'failed';

export interface SimulatorPayout {
  spendRequestId: string;
  address: string;
  currencyCode: string;
  amount: bigint;
  status: PayoutStatus;
  /** The chain transaction of a sent payout. */
  txId: string | null;
  /** HTTP status of the last webhook delivery; null when none was delivered. */
  lastCallbackStatus: number | null;
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

/** No confirmed payout with this spend request id (unknown, or never confirmed). */
export class UnknownPayoutError extends Error {
  override readonly name = 'UnknownPayoutError';
}

export interface SimulatorPaymentProvider extends PaymentProvider {
  readonly key: 'simulator';
  /** An incoming transfer to one of the simulator's addresses, with 0 confirmations; its webhook is sent. */
  transfer(address: string, amount: bigint): Promise<ChainTransfer>;
  /** Adds confirmations to a transfer and sends its webhook (even when the server had settled it). */
  confirm(txId: string, confirmations: number): Promise<ChainTransfer>;
  /** One block: every unsettled transfer gains a confirmation. Returns how many transfers it touched. */
  mineBlock(): Promise<number>;
  /**
   * Ends a confirmed payout (sent on chain, or failed: its amount goes back to the hot wallet) and sends
   * its webhook. A payout already ended keeps its outcome: settling it again re-sends that webhook.
   */
  settlePayout(spendRequestId: string, outcome: WithdrawalOutcome): Promise<SimulatorPayout>;
  /** The outage switch: while offline, spend requests and confirmations fail as unreachable. */
  setOnline(online: boolean): void;
  /**
   * The next confirmation takes effect but its answer never arrives (a timeout after the provider
   * acted): the caller sees 'unavailable' although the payout goes ahead.
   */
  loseNextConfirmationAnswer(): void;
  /** The next confirmation never reaches the provider (lost on the way): the caller sees 'unavailable' and nothing happens. */
  dropNextConfirmation(): void;
}

export interface SimulatorOptions {
  db: Db;
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
  /** What a currency's hot wallet holds before any transfer: units of 1e-8 (default 1000 coins). */
  payoutFloat?: bigint;
  log?: (message: string, error?: unknown) => void;
}

/**
 * A valid address of the currency's network, checksum included (openapi.yaml CryptoAddress:
 * [A-Za-z0-9:]), so that it passes the checks a withdrawal to it goes through.
 */
function fakeAddress(currencyCode: string): string {
  switch (currencyCode) {
    case 'LTC':
      return segwitAddress('ltc', 0, randomBytes(20));
    case 'BTC':
      return segwitAddress('bc', 0, randomBytes(20));
    case 'ETH':
      return `0x${randomBytes(20).toString('hex')}`;
    case 'USDT':
      return base58CheckAddress(0x41, randomBytes(20));
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

interface PayoutRow {
  spend_request_id: string;
  address: string;
  currency_code: string;
  amount: string;
  status: PayoutStatus;
  tx_id: string | null;
  last_callback_status: number | null;
  webhook_url: string;
}

const PAYOUT_COLUMNS = 'spend_request_id, address, currency_code, amount, status, tx_id, last_callback_status, webhook_url';

function toPayout(row: PayoutRow): SimulatorPayout {
  return {
    spendRequestId: row.spend_request_id,
    address: row.address,
    currencyCode: row.currency_code,
    amount: parseSignedAmount(row.amount),
    status: row.status,
    txId: row.tx_id,
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
  const payoutFloat = formatAmount(options.payoutFloat ?? 1000n * 100_000_000n);
  let timer: NodeJS.Timeout | null = null;
  let mining: Promise<unknown> | null = null;
  let online = true;
  let loseConfirmationAnswer = false;
  let dropConfirmation = false;

  function assertOnline(): void {
    if (!online) throw new PaymentProviderError('unavailable', 'the payment simulator is offline');
  }

  /** Adds `amount` (negative: takes it) to a currency's hot wallet, opening it with the float. */
  async function creditHotWallet(tx: Queryable, currencyCode: string, amount: bigint): Promise<void> {
    await tx.query(
      `INSERT INTO simulator_hot_wallets (currency_code, balance) VALUES ($1, $2::numeric + $3::numeric)
       ON CONFLICT (currency_code) DO UPDATE SET balance = simulator_hot_wallets.balance + $3::numeric`,
      [currencyCode, payoutFloat, formatAmount(amount)],
    );
  }

  /** A currency's hot wallet (opened with the float on first sight), locked when `tx` is a transaction. */
  async function hotWallet(tx: Queryable, currencyCode: string, lock: boolean): Promise<{ balance: bigint; payoutsEnabled: boolean }> {
    await tx.query('INSERT INTO simulator_hot_wallets (currency_code, balance) VALUES ($1, $2) ON CONFLICT (currency_code) DO NOTHING', [
      currencyCode,
      payoutFloat,
    ]);
    const row = await one<{ balance: string; payouts_enabled: boolean }>(
      tx,
      `SELECT balance, payouts_enabled FROM simulator_hot_wallets WHERE currency_code = $1${lock ? ' FOR UPDATE' : ''}`,
      [currencyCode],
    );
    return { balance: parseSignedAmount(row.balance), payoutsEnabled: row.payouts_enabled };
  }

  /** Refuses a payout the hot wallet cannot make now. */
  function assertPayable(wallet: { balance: bigint; payoutsEnabled: boolean }, currencyCode: string, amount: bigint): void {
    if (!wallet.payoutsEnabled) throw new PaymentProviderError('rejected', `payouts in ${currencyCode} are suspended`);
    if (wallet.balance < amount) throw new PaymentProviderError('insufficient_funds', `the ${currencyCode} hot wallet cannot cover ${formatAmount(amount)}`);
  }

  async function loadPayout(spendRequestId: string): Promise<SimulatorPayout> {
    return toPayout(await one<PayoutRow>(db, `SELECT ${PAYOUT_COLUMNS} FROM simulator_payouts WHERE spend_request_id = $1`, [spendRequestId]));
  }

  async function load(txId: string): Promise<ChainTransfer> {
    const row = await one<TransferRow>(
      db,
      `SELECT ${TRANSFER_COLUMNS} FROM simulator_transfers t JOIN simulator_addresses a ON a.address = t.address WHERE t.tx_id = $1`,
      [txId],
    );
    return toTransfer(row);
  }

  /** POSTs a signed webhook; its HTTP status and parsed answer, or null when it could not be delivered. */
  async function post(webhookUrl: string, body: SimulatorWebhookBody, what: string): Promise<{ status: number; ok: boolean; answer: unknown } | null> {
    const raw = JSON.stringify(body);
    const self = options.selfUrl?.() ?? null;
    const target = self ? new URL(new URL(webhookUrl).pathname, self).toString() : webhookUrl;
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, raw) },
        body: raw,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer: unknown = await response.json().catch(() => null);
      return { status: response.status, ok: response.ok, answer };
    } catch (error) {
      log(`payment simulator: webhook for ${what} to ${target} failed`, error);
      return null;
    }
  }

  /** POSTs the transfer's current state to its address's webhook URL; records the outcome. */
  async function deliver(row: TransferRow): Promise<void> {
    const delivered = await post(
      row.webhook_url,
      {
        type: 'deposit',
        txId: row.tx_id,
        address: row.address,
        currencyCode: row.currency_code,
        amount: formatAmount(parseSignedAmount(row.amount)),
        confirmations: row.confirmations,
      },
      row.tx_id,
    );
    const status = delivered?.status ?? null;
    const settled = delivered !== null && delivered.ok && settledBy(delivered.answer);
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
      assertOnline();
      const address = fakeAddress(request.currencyCode);
      await db.query(
        'INSERT INTO simulator_addresses (address, currency_code, network, webhook_url, created_at) VALUES ($1, $2, $3, $4, $5)',
        [address, request.currencyCode, request.network, request.webhookUrl, now()],
      );
      return { address, network: request.network };
    },

    async createSpendRequest(request: SpendRequestInput): Promise<SpendRequest> {
      assertOnline();
      const own = await maybeOne<{ address: string }>(db, 'SELECT address FROM simulator_addresses WHERE address = $1', [request.address]);
      if (own) throw new PaymentProviderError('invalid_address', 'a payout to one of the provider\'s own deposit addresses');
      assertPayable(await hotWallet(db, request.currencyCode, false), request.currencyCode, request.amount);
      // The casino's withdrawal id is the client reference: asking again returns the same spend request.
      await db.query(
        `INSERT INTO simulator_payouts (spend_request_id, withdrawal_id, currency_code, network, address, amount, webhook_url, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'created', $8) ON CONFLICT (withdrawal_id) DO NOTHING`,
        [
          `sp_${randomBytes(12).toString('hex')}`,
          request.withdrawalId,
          request.currencyCode,
          request.network,
          request.address,
          formatAmount(request.amount),
          request.webhookUrl,
          now(),
        ],
      );
      const row = await one<{ spend_request_id: string }>(db, 'SELECT spend_request_id FROM simulator_payouts WHERE withdrawal_id = $1', [
        request.withdrawalId,
      ]);
      return { spendRequestId: row.spend_request_id };
    },

    async confirmSpendRequest(spendRequestId: string): Promise<void> {
      assertOnline();
      if (dropConfirmation) {
        dropConfirmation = false;
        throw new PaymentProviderError('unavailable', 'the confirmation timed out');
      }
      await db.transaction(async (tx) => {
        const payout = await maybeOne<PayoutRow>(tx, `SELECT ${PAYOUT_COLUMNS} FROM simulator_payouts WHERE spend_request_id = $1 FOR UPDATE`, [
          spendRequestId,
        ]);
        if (!payout) throw new PaymentProviderError('rejected', `no spend request ${spendRequestId}`);
        // Confirmed before: a retried confirmation changes nothing.
        if (payout.status !== 'created') return;
        const amount = parseSignedAmount(payout.amount);
        // The balance may have moved since the spend request was priced: checked again, under lock.
        assertPayable(await hotWallet(tx, payout.currency_code, true), payout.currency_code, amount);
        await creditHotWallet(tx, payout.currency_code, -amount);
        await tx.query("UPDATE simulator_payouts SET status = 'confirmed' WHERE spend_request_id = $1", [spendRequestId]);
      });
      if (loseConfirmationAnswer) {
        loseConfirmationAnswer = false;
        throw new PaymentProviderError('unavailable', 'the confirmation timed out');
      }
    },

    loseNextConfirmationAnswer() {
      loseConfirmationAnswer = true;
    },

    dropNextConfirmation() {
      dropConfirmation = true;
    },

    async spendRequestState(spendRequestId: string): Promise<SpendRequestState> {
      assertOnline();
      const payout = await maybeOne<PayoutRow>(db, `SELECT ${PAYOUT_COLUMNS} FROM simulator_payouts WHERE spend_request_id = $1`, [spendRequestId]);
      switch (payout?.status) {
        case 'confirmed':
          return { state: 'pending' };
        case 'sent':
          return payout.tx_id ? { state: 'sent', txId: payout.tx_id } : { state: 'sent' };
        case 'failed':
          return { state: 'failed' };
        default:
          // Never heard of, or priced and never confirmed: nothing was drawn from the hot wallet.
          return { state: 'unknown' };
      }
    },

    async settlePayout(spendRequestId: string, outcome: WithdrawalOutcome): Promise<SimulatorPayout> {
      const payout = await db.transaction(async (tx) => {
        const row = await maybeOne<PayoutRow>(tx, `SELECT ${PAYOUT_COLUMNS} FROM simulator_payouts WHERE spend_request_id = $1 FOR UPDATE`, [
          spendRequestId,
        ]);
        if (!row || row.status === 'created') throw new UnknownPayoutError(`no confirmed payout ${spendRequestId}`);
        if (row.status !== 'confirmed') return row;
        if (outcome === 'confirmed') {
          return one<PayoutRow>(
            tx,
            `UPDATE simulator_payouts SET status = 'sent', tx_id = $2 WHERE spend_request_id = $1 RETURNING ${PAYOUT_COLUMNS}`,
            [spendRequestId, randomBytes(32).toString('hex')],
          );
        }
        // A failed payout never left: the coins are the hot wallet's again.
        await creditHotWallet(tx, row.currency_code, parseSignedAmount(row.amount));
        return one<PayoutRow>(tx, `UPDATE simulator_payouts SET status = 'failed' WHERE spend_request_id = $1 RETURNING ${PAYOUT_COLUMNS}`, [
          spendRequestId,
        ]);
      });
      const body: SimulatorWebhookBody =
        payout.status === 'sent'
          ? { type: 'withdrawal', spendRequestId, outcome: 'confirmed', ...(payout.tx_id ? { txId: payout.tx_id } : {}) }
          : { type: 'withdrawal', spendRequestId, outcome: 'failed' };
      const delivered = await post(payout.webhook_url, body, spendRequestId);
      await db.query('UPDATE simulator_payouts SET last_callback_status = $2 WHERE spend_request_id = $1', [spendRequestId, delivered?.status ?? null]);
      return loadPayout(spendRequestId);
    },

    setOnline(value: boolean) {
      online = value;
    },

    parseWebhook(request: WebhookRequest): ProviderNotification {
      if (!verifyWebhookSignature(secret, request.rawBody, request.headers[WEBHOOK_SIGNATURE_HEADER])) {
        throw new WebhookSignatureError('the webhook signature does not match its body');
      }
      const body = request.body as SimulatorWebhookBody;
      if (body.type === 'withdrawal') {
        return {
          type: 'withdrawal',
          spendRequestId: body.spendRequestId,
          outcome: body.outcome,
          ...(body.txId === undefined ? {} : { txId: body.txId }),
        };
      }
      return {
        type: 'deposit',
        txId: body.txId,
        address: body.address,
        currencyCode: body.currencyCode,
        amount: parseAmount(body.amount),
        confirmations: body.confirmations,
      };
    },

    async transfer(address: string, amount: bigint): Promise<ChainTransfer> {
      const known = await maybeOne<{ address: string; currency_code: string }>(db, 'SELECT address, currency_code FROM simulator_addresses WHERE address = $1', [
        address,
      ]);
      if (!known) throw new UnknownChainAddressError(`no simulator address ${address}`);
      const txId = randomBytes(32).toString('hex');
      await db.query('INSERT INTO simulator_transfers (tx_id, address, amount, confirmations, created_at) VALUES ($1, $2, $3, 0, $4)', [
        txId,
        address,
        formatAmount(amount),
        now(),
      ]);
      // The provider holds what its addresses receive: payouts are made from it.
      await creditHotWallet(db, known.currency_code, amount);
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
