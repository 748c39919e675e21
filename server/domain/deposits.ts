import { randomUUID } from 'node:crypto';
import { depositCreditedNotice, notifyPlayer } from './notifications.ts';
import { formatAmount, formatFixed, MAX_TRANSFER_AMOUNT, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import { LIMIT_PERIODS } from '../../src/rules/limits.ts';
import type { AppContext } from '../context.ts';
import { announceCommitted, announcedAtCommit, LIVE_CHANNEL } from '../live.ts';
import { maybeOne, one, sqlState, type Db, type Queryable } from '../db/db.ts';
import { DomainError, badRequest } from './errors.ts';
import { PaymentProviderError, type DepositNotification } from '../providers/payment.ts';
import { applyDepositBonus } from './bonuses.ts';
import { Batcher, latestCallTime } from './batcher.ts';
import { getSettings } from './common.ts';
import { currencyStep, idempotency, KEY_REUSED, postTransaction, systemAccount, transfer, walletAccount, type LedgerTransaction } from './ledger.ts';
import { currentLimit, LIMIT_PERIOD_MS } from './limits.ts';
import { depositedSince, depositRoom, LIMITS_CURRENCY, lockDepositLimits, releaseHeldInTransaction } from './held-deposits.ts';
import { paymentTarget, providerFailureError, webhookUrl, type PaymentCurrency } from './payments.ts';

/**
 * Crypto deposits (SPEC §9): a deposit address per wallet from the payment provider, and the provider's
 * notifications turned into ledger postings.
 *
 * - First sight of a transfer at or above the currency's minimum deposit: provider_clearing → the wallet's
 *   pending account (a visible pending deposit), idempotency key `<txId>:pending`.
 * - Once it has settings.depositConfirmations: pending → available (a visible completed deposit), key
 *   `<txId>:credit`; the deposit row turns `credited` in the same database transaction, so it happens once.
 * - Under the minimum: the row is `below_minimum`, never credited, never refunded, and kept out of the
 *   pending balance (it would never clear). Once confirmed the coins sit at the provider with nobody owed
 *   them: provider_clearing → adjustments (internal, key `<txId>:below_minimum`), so the books still show
 *   what the provider holds.
 * Notifications carry state, not events: a replay moves nothing.
 */

export type DepositStatus = 'pending' | 'credited' | 'below_minimum';

export { LIMITS_CURRENCY } from './held-deposits.ts';

export interface DepositAddressView {
  address: string;
  network: string;
  currencyCode: string;
  amount: string;
  minDeposit: string;
  confirmations: number;
}

/** Refuses a deposit that would take the player past a deposit limit (rolling day, week and month). */
async function assertWithinDepositLimits(ctx: AppContext, userId: number, currency: PaymentCurrency, amount: bigint): Promise<void> {
  if (currency.code !== LIMITS_CURRENCY) return;
  const now = ctx.now();
  for (const period of LIMIT_PERIODS) {
    const limit = await currentLimit(ctx.db, userId, 'deposit', period, now);
    if (limit === null) continue;
    const deposited = await depositedSince(ctx.db, userId, currency.id, new Date(now.getTime() - LIMIT_PERIOD_MS[period]));
    if (deposited + amount > limit) throw new DomainError('DEPOSIT_LIMIT_EXCEED');
  }
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

interface DepositRow {
  id: number;
  wallet_id: number;
  user_id: number;
  currency_id: number;
  amount: string;
  confirmations: number;
  status: DepositStatus;
  pending_transaction_id: number | null;
  settled_transaction_id: number | null;
}

/**
 * Called once per deposit, inside the database transaction that credited it, after the credit was
 * posted: a deposit bonus waiting for a qualifying deposit is funded here.
 */
export async function onDepositCredited(
  tx: Queryable,
  deposit: { depositId: number; userId: number; walletId: number; currencyId: number; amount: bigint; credit: LedgerTransaction },
): Promise<void> {
  await applyDepositBonus(tx, deposit);
}

/** What deposit_notification_apply (server/db/schema) raises for a notification it leaves to the general path. */
const GENERAL_PATH = 'GW001';
/** ... and when the confirmations required are no longer those the server had cached. */
const SETTINGS_CHANGED = 'GW002';

/**
 * The confirmations a deposit needs (settings), per database, read once: deposit_notification_apply
 * checks the value it is given against settings in the same statement, and a change is read again.
 */
const requiredConfirmations = new WeakMap<object, number>();

async function readRequiredConfirmations(db: Queryable): Promise<number> {
  const required = (await getSettings(db)).depositConfirmations;
  requiredConfirmations.set(db, required);
  return required;
}

/**
 * The two common notifications in one statement, one database transaction (deposit_notification_apply,
 * server/db/schema): a new transfer seen before it has its confirmations, and a pending transfer now
 * confirmed and credited, for a player with no bonus that the deposit could fund. 'general' for any other
 * notification (a replay, a refusal, a transfer confirmed at once, below the minimum, a bonus in play),
 * 'settingsChanged' when `required` is no longer the setting: nothing moved either way. Under load the
 * notification shares its database transaction with others (deposit_notification_apply_batch, migration
 * 0025), answered as if it had run alone.
 */
async function applyInOneStatement(
  ctx: AppContext,
  provider: string,
  notification: DepositNotification,
  required: number,
): Promise<DepositView | 'general' | 'settingsChanged'> {
  if (notification.amount <= 0n) return 'general';
  const key = idempotency.deposit(provider, notification.txId);
  const [title, message] = depositCreditedNotice(notification.amount, notification.currencyCode);
  const row = await noticeBatcher(ctx.db, provider).submit({
    txId: notification.txId,
    address: notification.address,
    currencyCode: notification.currencyCode,
    amount: formatFixed(notification.amount),
    confirmations: notification.confirmations,
    required,
    publicId: randomUUID(),
    ledgerScope: key.scope,
    ledgerKey: key.key,
    noticeTitle: title,
    noticeMessage: message,
    at: ctx.now(),
  });
  if (row === 'general' || row === 'settingsChanged') return row;
  await announceCommitted(ctx.db, row.out_announce);
  return {
    txId: notification.txId,
    address: notification.address,
    currencyCode: notification.currencyCode,
    amount: formatAmount(notification.amount),
    confirmations: row.out_confirmations,
    requiredConfirmations: required,
    status: row.out_status,
    changed: true,
  };
}

interface NoticeParams {
  txId: string;
  address: string;
  currencyCode: string;
  amount: string;
  confirmations: number;
  required: number;
  publicId: string;
  ledgerScope: string;
  ledgerKey: string;
  noticeTitle: string;
  noticeMessage: string;
  at: Date;
}

interface NoticeRow {
  out_status: 'pending' | 'credited';
  out_confirmations: number;
  out_announce: string[];
}

type Noticed = NoticeRow | 'general' | 'settingsChanged';

/** One notification alone: deposit_notification_apply, its own database transaction. */
async function noticeOne(db: Queryable, provider: string, p: NoticeParams): Promise<Noticed> {
  try {
    const row = await maybeOne<NoticeRow>(
      db,
      'SELECT * FROM deposit_notification_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
      [provider, p.txId, p.address, p.currencyCode, p.amount, p.confirmations, p.required, p.publicId, p.ledgerScope, p.ledgerKey,
        p.noticeTitle, p.noticeMessage, p.at],
      { prepared: 'deposit_notification_apply' },
    );
    if (!row) throw new Error('deposit_notification_apply returned no row');
    return row;
  } catch (error) {
    if (sqlState(error) === GENERAL_PATH || sqlState(error) === KEY_REUSED) return 'general';
    if (sqlState(error) === SETTINGS_CHANGED) return 'settingsChanged';
    throw error;
  }
}

/**
 * Notifications of several transfers in one database transaction (deposit_notification_apply_batch applies
 * deposit_notification_apply to each): each answers as it would have alone, with what it wrote, or 'general'
 * or 'changed' having written nothing. Their live updates are announced at the batch's commit, as a game
 * wallet batch's are (playBatch in game-wallet.ts).
 */
async function noticeBatch(db: Queryable, provider: string, calls: readonly NoticeParams[]): Promise<Noticed[]> {
  const column = <K extends keyof NoticeParams>(name: K) => calls.map((call) => call[name]);
  const rows = await db.query<{ out_n: number; out_status: 'pending' | 'credited' | 'general' | 'changed'; out_confirmations: number; out_announce: string[] }>(
    announcedAtCommit(
      'deposit_notification_apply_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
      ['out_n', 'out_status', 'out_confirmations'],
      '$14',
    ),
    [provider, column('txId'), column('address'), column('currencyCode'), column('amount'), column('confirmations'), column('required'),
      column('publicId'), calls[0]?.ledgerScope ?? '', column('ledgerKey'), column('noticeTitle'), column('noticeMessage'),
      latestCallTime(calls), LIVE_CHANNEL],
    { prepared: 'deposit_notification_apply_batch' },
  );
  if (rows.length !== calls.length) throw new Error(`deposit_notification_apply_batch answered ${rows.length} of ${calls.length} notifications`);
  return rows.map((row) =>
    row.out_status === 'general'
      ? 'general'
      : row.out_status === 'changed'
        ? 'settingsChanged'
        : { out_status: row.out_status, out_confirmations: row.out_confirmations, out_announce: row.out_announce },
  );
}

/**
 * Per database and provider, as for bets and wins (server/domain/game-wallet.ts): at most 16 notifications
 * in a batch, two on their way, the second sent over the pipelined connection behind the first once 8
 * wait. Three alternated pairs of `npm run bench:server`'s deposits at 16 players: 1,184 / 1,506 / 1,418
 * deposits a second against 1,069 / 1,433 / 1,148 with three on their way on pooled connections, another
 * beside one from 12 waiting (which, against from 6, had kept the rate and cut PostgreSQL's CPU per deposit
 * from 1.39–1.42 to 1.11–1.14 ms).
 */
const NOTICE_BATCH_SIZE = 16;
const NOTICE_BATCHES_IN_FLIGHT = 2;
const NOTICE_BATCH_MIN_WHILE_BUSY = 8;
const noticeBatchers = new WeakMap<object, Map<string, Batcher<NoticeParams, Noticed>>>();

function noticeBatcher(db: Db, provider: string): Batcher<NoticeParams, Noticed> {
  let byProvider = noticeBatchers.get(db);
  if (!byProvider) {
    byProvider = new Map();
    noticeBatchers.set(db, byProvider);
  }
  let batcher = byProvider.get(provider);
  if (!batcher) {
    const pipeline = db.pipeline();
    batcher = new Batcher<NoticeParams, Noticed>({
      maxBatch: NOTICE_BATCH_SIZE,
      maxInFlight: NOTICE_BATCHES_IN_FLIGHT,
      minBatchWhileBusy: NOTICE_BATCH_MIN_WHILE_BUSY,
      // A transfer's notifications one at a time, in order; an address's (so a wallet's) too.
      keys: (call) => [`tx:${call.txId}`, `address:${call.address}`],
      runOne: (call) => noticeOne(db, provider, call),
      runBatch: (calls) => noticeBatch(pipeline, provider, calls),
    });
    byProvider.set(provider, batcher);
  }
  return batcher;
}

/**
 * Applies one verified notification of the provider `provider`. Everything happens in one database
 * transaction with the deposit row locked, so concurrent or replayed notifications of one transfer queue
 * and the later ones find nothing left to do.
 */
export async function applyDepositNotification(ctx: AppContext, provider: string, notification: DepositNotification): Promise<DepositView> {
  const cachedRequired = requiredConfirmations.get(ctx.db);
  let applied = await applyInOneStatement(ctx, provider, notification, cachedRequired ?? (await readRequiredConfirmations(ctx.db)));
  if (applied === 'settingsChanged') applied = await applyInOneStatement(ctx, provider, notification, await readRequiredConfirmations(ctx.db));
  if (typeof applied === 'object') return applied;
  const settings = await getSettings(ctx.db);
  const required = settings.depositConfirmations;
  requiredConfirmations.set(ctx.db, required);
  return ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const target = await maybeOne<{ id: number; wallet_id: number; user_id: number; currency_id: number; code: string; decimals: number; min_deposit: string }>(
      tx,
      `SELECT d.id, d.wallet_id, w.user_id, w.currency_id, c.code, c.decimals, c.min_deposit
       FROM deposit_addresses d JOIN wallets w ON w.id = d.wallet_id JOIN currencies c ON c.id = w.currency_id
       WHERE d.provider = $1 AND d.address = $2`,
      [provider, notification.address],
    );
    if (!target) throw new DomainError('NOT_FOUND');
    if (target.code !== notification.currencyCode) throw badRequest([{ field: 'currencyCode', code: 'mismatch' }]);
    if (notification.amount <= 0n) throw badRequest([{ field: 'amount', code: 'amount.positive' }]);
    if (notification.amount % currencyStep(target.decimals) !== 0n) throw badRequest([{ field: 'amount', code: 'amount.decimals' }]);
    const belowMinimum = notification.amount < parseSignedAmount(target.min_deposit);

    const inserted = await tx.query<{ id: number }>(
      `INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (provider, provider_tx_id) DO NOTHING RETURNING id`,
      [
        provider,
        notification.txId,
        target.id,
        target.wallet_id,
        target.user_id,
        target.currency_id,
        formatAmount(notification.amount),
        notification.confirmations,
        belowMinimum ? 'below_minimum' : 'pending',
        now,
      ],
    );
    let changed = inserted.length > 0;
    const deposit = await one<DepositRow & { deposit_address_id: number }>(
      tx,
      `SELECT id, wallet_id, user_id, currency_id, amount, confirmations, status, pending_transaction_id, settled_transaction_id, deposit_address_id
       FROM deposits WHERE provider = $1 AND provider_tx_id = $2 FOR UPDATE`,
      [provider, notification.txId],
    );
    // A transfer's address and amount never change: a notification that says otherwise is refused whole.
    if (deposit.deposit_address_id !== target.id) throw badRequest([{ field: 'address', code: 'mismatch' }]);
    const amount = parseSignedAmount(deposit.amount);
    if (amount !== notification.amount) throw badRequest([{ field: 'amount', code: 'mismatch' }]);

    let confirmations = deposit.confirmations;
    if (notification.confirmations > confirmations) {
      confirmations = notification.confirmations;
      changed = true;
    }
    let status = deposit.status;
    let pendingId = deposit.pending_transaction_id;
    let settledId = deposit.settled_transaction_id;
    let creditedAt: Date | null = null;
    const wallet = (kind: 'pending' | 'available') => walletAccount(deposit.wallet_id, kind);
    const clearing = systemAccount(deposit.currency_id, 'provider_clearing');

    if (status === 'pending' && pendingId === null) {
      const posted = await postTransaction(tx, {
        kind: 'deposit.pending',
        at: now,
        legs: transfer(clearing, wallet('pending'), amount),
        idempotency: idempotency.deposit(provider, `${notification.txId}:pending`),
        visible: { walletId: deposit.wallet_id, type: 'deposit', actionType: 'deposit', status: 'pending', amount },
      });
      pendingId = posted.transaction.id;
      changed = true;
    }
    let heldPart = 0n;
    if (status === 'pending' && confirmations >= required) {
      // Deposit limits apply at credit (server/domain/held-deposits.ts): held money already waiting is
      // released first, then the part of this deposit over the limits goes to the held balance.
      await lockDepositLimits(tx, deposit.user_id);
      await releaseHeldInTransaction(tx, deposit.user_id, now);
      const room = await depositRoom(tx, deposit.user_id, deposit.currency_id, target.code, now);
      heldPart = room === null || room >= amount ? 0n : amount - room;
      const fits = amount - heldPart;
      const posted = await postTransaction(tx, {
        kind: 'deposit.credit',
        at: now,
        legs:
          heldPart === 0n
            ? transfer(wallet('pending'), wallet('available'), amount)
            : [
                { account: wallet('pending'), amount: -amount },
                ...(fits > 0n ? [{ account: wallet('available'), amount: fits }] : []),
                { account: walletAccount(deposit.wallet_id, 'held'), amount: heldPart },
              ],
        idempotency: idempotency.deposit(provider, `${notification.txId}:credit`),
        visible: { walletId: deposit.wallet_id, type: 'deposit', actionType: 'deposit', status: 'completed', amount },
        relatedTransactionId: pendingId,
      });
      settledId = posted.transaction.id;
      status = 'credited';
      creditedAt = now;
      changed = true;
      await notifyPlayer(tx, deposit.user_id, ...depositCreditedNotice(amount, target.code, heldPart), now);
      // A deposit bonus matches the part credited as playable; a deposit held whole funds none.
      if (fits > 0n) {
        await onDepositCredited(tx, {
          depositId: deposit.id,
          userId: deposit.user_id,
          walletId: deposit.wallet_id,
          currencyId: deposit.currency_id,
          amount: fits,
          credit: posted.transaction,
        });
      }
    }
    if (status === 'below_minimum' && settledId === null && confirmations >= required) {
      const posted = await postTransaction(tx, {
        kind: 'deposit.below_minimum',
        at: now,
        legs: transfer(clearing, systemAccount(deposit.currency_id, 'adjustments'), amount),
        idempotency: idempotency.deposit(provider, `${notification.txId}:below_minimum`),
      });
      settledId = posted.transaction.id;
      changed = true;
    }
    if (changed) {
      await tx.query(
        `UPDATE deposits SET confirmations = $2, status = $3, pending_transaction_id = $4, settled_transaction_id = $5,
           credited_at = coalesce(credited_at, $6), updated_at = $7, held_amount = held_amount + $8 WHERE id = $1`,
        [deposit.id, confirmations, status, pendingId, settledId, creditedAt, now, formatAmount(heldPart)],
      );
    }
    return {
      txId: notification.txId,
      address: notification.address,
      currencyCode: target.code,
      amount: formatAmount(amount),
      confirmations,
      requiredConfirmations: required,
      status,
      changed,
    };
  });
}
