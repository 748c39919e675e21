import { formatAmount, formatFixed, MAX_TRANSFER_AMOUNT, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import type { AppContext } from '../context.ts';
import { announceCommitted, announcedAtCommit, LIVE_CHANNEL } from '../live.ts';
import { maybeOne, one, type Db, type Queryable } from '../db/db.ts';
import { DomainError, badRequest } from './errors.ts';
import { PaymentProviderError, type DepositNotification } from '../providers/payment.ts';
import { Batcher, latestCallTime } from './batcher.ts';
import { getSettings } from './common.ts';
import { currencyStep, idempotency } from './ledger.ts';
import { LIMITS_CURRENCY } from './held-deposits.ts';
import { paymentTarget, providerFailureError, webhookUrl, type PaymentCurrency } from './payments.ts';

/**
 * Crypto deposits (SPEC §9): what a notification does to the money is deposit_notification_apply's
 * (server/db/schema). This file checks the address request, asks the provider for the address, hands
 * notifications to the database (batched under load) and answers.
 */

export type DepositStatus = 'pending' | 'credited' | 'below_minimum';

export interface DepositAddressView {
  address: string;
  network: string;
  currencyCode: string;
  amount: string;
  minDeposit: string;
  confirmations: number;
}

/** Refuses a deposit that would take the player past a deposit limit (deposit_limit_room, server/db/schema). */
async function assertWithinDepositLimits(ctx: AppContext, userId: number, currency: PaymentCurrency, amount: bigint): Promise<void> {
  if (currency.code !== LIMITS_CURRENCY) return;
  const { room } = await one<{ room: string | null }>(ctx.db, 'SELECT deposit_limit_room($1, $2, $3) AS room', [userId, currency.id, ctx.now()]);
  if (room !== null && amount > parseSignedAmount(room)) throw new DomainError('DEPOSIT_LIMIT_EXCEED');
}

/**
 * paymentDeposit: checks the request, then returns the wallet's deposit address, asking the provider for
 * one on the first call. Not inside a database transaction: the provider may take its time (and the
 * simulator writes through the same database); two concurrent first calls keep the first address stored.
 */
export async function requestDepositAddress(
  ctx: AppContext,
  userId: number,
  input: { amount: string; currencyCode: string; paymentProviderId?: number },
): Promise<DepositAddressView> {
  const issue = amountIssue(input.amount);
  if (issue) throw badRequest([{ field: 'amount', code: issue }]);
  const amount = parseAmount(input.amount);

  const { currency, wallet } = await paymentTarget(ctx, userId, 'deposit', input);
  // SPEC §5/§8: at most 10000 a request.
  if (amount > MAX_TRANSFER_AMOUNT) throw new DomainError('MAXIMUM_DEPOSIT_AMOUNT_LIMIT');
  const minDeposit = currency.minDeposit;
  if (amount < minDeposit) throw new DomainError('MINIMUM_DEPOSIT_AMOUNT_LIMIT');
  if (amount % currencyStep(currency.decimals) !== 0n) throw badRequest([{ field: 'amount', code: 'amount.decimals' }]);
  await assertWithinDepositLimits(ctx, userId, currency, amount);

  const settings = await getSettings(ctx.db);
  const view = (address: string, network: string): DepositAddressView => ({
    address,
    network,
    currencyCode: currency.code,
    amount: formatAmount(amount),
    minDeposit: formatAmount(minDeposit),
    confirmations: settings.depositConfirmations,
  });
  const findAddress = () =>
    maybeOne<{ address: string; network: string }>(ctx.db, 'SELECT address, network FROM deposit_addresses WHERE wallet_id = $1 AND provider = $2', [
      wallet.walletId,
      ctx.payments.key,
    ]);
  const existing = await findAddress();
  if (existing) return view(existing.address, existing.network);

  const url = webhookUrl(ctx);
  let created;
  try {
    created = await ctx.payments.createDepositAddress({ walletId: wallet.walletId, currencyCode: currency.code, network: currency.network, webhookUrl: url });
  } catch (error) {
    // Nothing was stored: asking again later is safe.
    // Creating an address, any refusal is the provider's own (PAYMENT_ERROR).
    if (error instanceof PaymentProviderError) throw providerFailureError(error.failure === 'unavailable' ? 'unavailable' : 'rejected');
    throw error;
  }
  await ctx.db.query(
    `INSERT INTO deposit_addresses (wallet_id, provider, address, network, webhook_url, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (wallet_id, provider) DO NOTHING`,
    [wallet.walletId, ctx.payments.key, created.address, created.network, url, ctx.now()],
  );
  const stored = await findAddress();
  if (!stored) throw new Error(`deposit address of wallet ${wallet.walletId} vanished`);
  return view(stored.address, stored.network);
}

// ---------------------------------------------------------------------------------------------------
// Notifications

export interface DepositView {
  txId: string;
  address: string;
  currencyCode: string;
  amount: string;
  confirmations: number;
  requiredConfirmations: number;
  status: DepositStatus;
  /** False when the notification moved nothing. */
  changed: boolean;
}

/** A notification as deposit_notification_apply (server/db/schema) takes it. */
interface NoticeParams {
  txId: string;
  address: string;
  currencyCode: string;
  amount: string;
  confirmations: number;
  ledgerScope: string;
  ledgerKey: string;
  at: Date;
}

/** What it did: the deposit's state after it, or a refusal (`out_field` null for NOT_FOUND) having written nothing. */
interface NoticeRow {
  out_status: DepositStatus | 'refused';
  out_field: string | null;
  out_code: string | null;
  out_confirmations: number | null;
  out_required: number;
  out_changed: boolean | null;
  out_announce: string[];
}

const NOTICE_COLUMNS = ['out_n', 'out_status', 'out_field', 'out_code', 'out_confirmations', 'out_required', 'out_changed'] as const;

/** deposit_notification_apply's call over a set of notifications; `channel` set to announce at its commit. */
function noticeCall(provider: string, calls: readonly NoticeParams[], channel: boolean): [string, unknown[]] {
  const column = <K extends keyof NoticeParams>(name: K) => calls.map((call) => call[name]);
  const call = 'deposit_notification_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
  return [
    channel ? announcedAtCommit(call, NOTICE_COLUMNS, '$11') : `SELECT * FROM ${call}`,
    [provider, column('txId'), column('address'), column('currencyCode'), column('amount'), column('confirmations'), LIMITS_CURRENCY,
      calls[0]?.ledgerScope ?? '', column('ledgerKey'), latestCallTime(calls), ...(channel ? [LIVE_CHANNEL] : [])],
  ];
}

/** One notification alone: a set of one, its own database transaction; the caller announces its live updates once committed. */
async function noticeOne(db: Queryable, provider: string, p: NoticeParams): Promise<NoticeRow> {
  const [sql, params] = noticeCall(provider, [p], false);
  return one<NoticeRow>(db, sql, params, { prepared: 'deposit_notification_apply' });
}

/**
 * Notifications of several transfers in one database transaction, the same function over the set: each
 * answers as it would have alone. Their live updates are announced at the commit, as a game wallet batch's
 * are (game-wallet.ts).
 */
async function noticeBatch(db: Queryable, provider: string, calls: readonly NoticeParams[]): Promise<NoticeRow[]> {
  const [sql, params] = noticeCall(provider, calls, true);
  const rows = await db.query<NoticeRow>(sql, params, { prepared: 'deposit_notification_apply_batch' });
  if (rows.length !== calls.length) throw new Error(`deposit_notification_apply answered ${rows.length} of ${calls.length} notifications`);
  return rows;
}

/**
 * Per database and provider, as for bets and wins (server/domain/game-wallet.ts): at most 16 notifications
 * in a batch, two on their way, the second started once 8 wait. Each batch is a transaction of its own on
 * a connection of the pool, so the two run side by side and share their commits' flushes: a transfer's
 * and an address's (so a wallet's) notifications are in one batch at a time, and the one lock two batches
 * may share, a player's deposit-limit lock (two of their wallets), each takes before any other, in player
 * order (deposit_notification_apply). The sizes are those measured when the second batch went over a
 * pipelined connection behind the first (three alternated pairs of `npm run bench:server`'s deposits at 16
 * players: 1,184 / 1,506 / 1,418 deposits a second against 1,069 / 1,433 / 1,148 with three on their way
 * on pooled connections), not measured again since.
 */
const NOTICE_BATCH_SIZE = 16;
const NOTICE_BATCHES_IN_FLIGHT = 2;
const NOTICE_BATCH_MIN_WHILE_BUSY = 8;
const noticeBatchers = new WeakMap<object, Map<string, Batcher<NoticeParams, NoticeRow>>>();

function noticeBatcher(db: Db, provider: string): Batcher<NoticeParams, NoticeRow> {
  let byProvider = noticeBatchers.get(db);
  if (!byProvider) {
    byProvider = new Map();
    noticeBatchers.set(db, byProvider);
  }
  let batcher = byProvider.get(provider);
  if (!batcher) {
    batcher = new Batcher<NoticeParams, NoticeRow>({
      maxBatch: NOTICE_BATCH_SIZE,
      maxInFlight: NOTICE_BATCHES_IN_FLIGHT,
      minBatchWhileBusy: NOTICE_BATCH_MIN_WHILE_BUSY,
      // A transfer's notifications one at a time, in order; an address's (so a wallet's) too.
      keys: (call) => [`tx:${call.txId}`, `address:${call.address}`],
      runOne: (call) => noticeOne(db, provider, call),
      runBatch: (calls) => noticeBatch(db, provider, calls),
    });
    byProvider.set(provider, batcher);
  }
  return batcher;
}

/**
 * Applies one verified notification of the provider `provider` (deposit_notification_apply), alone or in a
 * batch with others. A batch with two notifications of one player (two of their wallets) fails whole and the
 * batcher runs each alone.
 */
export async function applyDepositNotification(ctx: AppContext, provider: string, notification: DepositNotification): Promise<DepositView> {
  const key = idempotency.deposit(provider, notification.txId);
  const row = await noticeBatcher(ctx.db, provider).submit({
    txId: notification.txId,
    address: notification.address,
    currencyCode: notification.currencyCode,
    amount: formatFixed(notification.amount),
    confirmations: notification.confirmations,
    ledgerScope: key.scope,
    ledgerKey: key.key,
    at: ctx.now(),
  });
  await announceCommitted(ctx.db, row.out_announce);
  if (row.out_status === 'refused') {
    if (row.out_field === null) throw new DomainError('NOT_FOUND');
    throw badRequest([{ field: row.out_field, code: row.out_code ?? 'invalid' }]);
  }
  return {
    txId: notification.txId,
    address: notification.address,
    currencyCode: notification.currencyCode,
    amount: formatAmount(notification.amount),
    confirmations: row.out_confirmations ?? notification.confirmations,
    requiredConfirmations: row.out_required,
    status: row.out_status,
    changed: row.out_changed === true,
  };
}
