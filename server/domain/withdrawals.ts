import { notifyPlayer, withdrawalCompletedNotice, withdrawalFailedNotice } from './notifications.ts';
import { formatAmount, MAX_TRANSFER_AMOUNT, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { DomainError, badRequest } from './errors.ts';
import { PaymentProviderError, type PaymentProviderFailure, type WithdrawalNotification } from '../providers/payment.ts';
import { assertCashoutAllowed } from './bonuses.ts';
import {
  currencyStep,
  feeUnits,
  idempotency,
  InsufficientBalanceError,
  postTransaction,
  systemAccount,
  transfer,
  walletAccount,
  type IdempotencyKey,
} from './ledger.ts';
import { isProviderFailure, paymentTarget, providerFailureError, webhookUrl } from './payments.ts';
import { isValidAddress } from '../addresses.ts';
import { findEarlier, playerRequest, recordWithdrawal, takeKey, type EarlierRequest } from './player-requests.ts';

/**
 * Crypto withdrawals (SPEC §5, §9): the player asks for a payout of `amount` to `address`; the casino's
 * fee is charged on top.
 *
 * 1. In one database transaction with the wallet row locked (concurrent requests of one wallet queue
 *    here): the checks, then amount + fee moves available → pending, what available lacks held →
 *    pending (one visible pending `withdraw`), and
 *    the withdrawal row is written `requested`. The partial unique index on open withdrawals backs the
 *    one-at-a-time rule even if a check were wrong.
 * 2. Outside it (a provider may take its time): the provider's spend request, then its confirmation; the
 *    row turns `pending`. A refusal ({@link PaymentProviderError}) returns the funds in a new transaction
 *    (pending → available, and back to held what the withdrawal took from held; visible `withdrawRefund`,
 *    failed) and the player gets the refusal's code.
 * 3. The provider's webhook ({@link applyWithdrawalNotification}), keyed by the spend request id:
 *    confirmed: pending → provider_clearing (amount, visible completed `withdraw`) and pending → fees
 *    (the fee, visible completed `withdrawFee`); failed: pending → available and held, as a refusal (visible
 *    failed `withdrawRefund`). A replayed or late notification finds the row final and moves nothing.
 */

export type WithdrawalStatus = 'requested' | 'pending' | 'completed' | 'failed';

/** paymentWithdraw's answer. */
export interface WithdrawalRequestView {
  spendRequestId: string;
  status: 'pending';
  amount: string;
  fee: string;
  currencyCode: string;
  address: string;
}

/** A withdrawal as the webhook answers it (openapi.yaml WebhookWithdrawal). */
export interface WithdrawalView {
  spendRequestId: string;
  address: string;
  currencyCode: string;
  amount: string;
  fee: string;
  status: 'completed' | 'failed';
  txId: string | null;
  /** False when the notification moved nothing. */
  changed: boolean;
}

export interface WithdrawalInput {
  amount: string;
  address: string;
  currencyCode: string;
  paymentProviderId?: number;
}

/** Failure recorded for a payout the provider reported failed by webhook (after it had accepted it). */
const REPORTED_FAILURE = 'provider_failed';

// ---------------------------------------------------------------------------------------------------
// Requests

interface WithdrawalRow {
  id: number;
  wallet_id: number;
  user_id: number;
  currency_id: number;
  code: string;
  address: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
  spend_request_id: string | null;
  provider_tx_id: string | null;
  failure: string | null;
  hold_transaction_id: number;
  held_amount: string;
}

const WITHDRAWAL_COLUMNS = `w.id, w.wallet_id, w.user_id, w.currency_id, c.code, w.address, w.amount, w.fee, w.status, w.spend_request_id,
  w.provider_tx_id, w.failure, w.hold_transaction_id, w.held_amount`;

/**
 * Fails a withdrawal whose row `tx` holds locked: its amount + fee go back from pending, what it took from the
 * held balance (deposits over a deposit limit) to held, the rest to available (visible failed
 * `withdrawRefund`), `failure` recorded, and the player told when `notify`.
 */
async function refund(tx: Queryable, row: WithdrawalRow, failure: string, key: IdempotencyKey | null, notify: boolean, now: Date): Promise<void> {
  const amount = parseSignedAmount(row.amount);
  const fee = parseSignedAmount(row.fee);
  const held = parseSignedAmount(row.held_amount);
  const pending = walletAccount(row.wallet_id, 'pending');
  const posted = await postTransaction(tx, {
    kind: 'withdraw.refund',
    at: now,
    legs: [
      ...(amount + fee > held ? transfer(pending, walletAccount(row.wallet_id, 'available'), amount + fee - held) : []),
      ...(held > 0n ? transfer(pending, walletAccount(row.wallet_id, 'held'), held) : []),
    ],
    idempotency: key,
    visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdrawRefund', status: 'failed', amount: amount + fee },
    relatedTransactionId: row.hold_transaction_id,
  });
  await tx.query(`UPDATE withdrawals SET status = 'failed', failure = $2, refund_transaction_id = $3, updated_at = $4 WHERE id = $1`, [
    row.id,
    failure,
    posted.transaction.id,
    now,
  ]);
  if (notify) await notifyPlayer(tx, row.user_id, ...withdrawalFailedNotice(amount, fee, row.code), now);
}

function requestView(row: WithdrawalRow): WithdrawalRequestView {
  if (row.spend_request_id === null) throw new Error(`withdrawal ${row.id} has no spend request yet`);
  return {
    spendRequestId: row.spend_request_id,
    status: 'pending',
    amount: formatAmount(parseSignedAmount(row.amount)),
    fee: formatAmount(parseSignedAmount(row.fee)),
    currencyCode: row.code,
    address: row.address,
  };
}

/**
 * What a repeat of an accepted request (the same key and body, player-requests.ts) answers: its first
 * response. A request the provider refused answered that refusal; one the provider accepted answered
 * pending, whatever became of it since; one still with the provider has no answer yet, so it is the
 * pending request that blocks a second one.
 */
async function replay(db: Queryable, earlier: EarlierRequest): Promise<WithdrawalRequestView> {
  if (earlier.withdrawalId === null) throw new Error('a withdrawal request without its withdrawal');
  const row = await loadWithdrawal(db, earlier.withdrawalId);
  if (row.status === 'failed' && isProviderFailure(row.failure)) throw providerFailureError(row.failure);
  if (row.status === 'requested' || row.spend_request_id === null) throw new DomainError('WITHDRAWAL_REQUEST_IN_PENDING');
  return requestView(row);
}

function loadWithdrawal(db: Queryable, id: number): Promise<WithdrawalRow> {
  return one<WithdrawalRow>(db, `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE w.id = $1`, [id]);
}

/**
 * Fails a withdrawal still `requested`, in one transaction with its row locked (refund). `unsent` also
 * requires that no spend request was recorded. The failed withdrawal, or undefined when it had moved on
 * meanwhile (nothing done).
 */
async function failRequested(ctx: AppContext, withdrawalId: number, failure: PaymentProviderFailure, unsent: boolean): Promise<WithdrawalRow | undefined> {
  return ctx.db.transaction(async (tx) => {
    const row = await one<WithdrawalRow>(
      tx,
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE w.id = $1 FOR UPDATE OF w`,
      [withdrawalId],
    );
    // A webhook may have settled it meanwhile (a provider that failed it before answering us).
    if (row.status !== 'requested' || (unsent && row.spend_request_id !== null)) return undefined;
    // The player who asked was answered with the refusal; one whose request was cut short is told here.
    await refund(tx, row, failure, null, unsent, ctx.now());
    return row;
  });
}

/**
 * Fails a withdrawal still `requested` with no spend request recorded (the server stopped before it
 * recorded one; called by the reconciliation, ./reconcile.ts): its funds go back as a refusal's would,
 * recorded as the provider unreachable (a repeat of the request with its Idempotency-Key answers that),
 * and the player is told. False when it has moved on meanwhile (nothing done).
 */
export async function failUnsent(ctx: AppContext, withdrawalId: number): Promise<boolean> {
  return (await failRequested(ctx, withdrawalId, 'unavailable', true)) !== undefined;
}

/**
 * paymentWithdraw. `idempotencyKey` is the optional Idempotency-Key header (player-requests.ts): a key is
 * remembered once a request with it was accepted (funds held), with the withdrawal it made; a request
 * refused before that moved nothing, so trying it again is harmless and is checked afresh.
 */
export async function requestWithdrawal(
  ctx: AppContext,
  userId: number,
  input: WithdrawalInput,
  idempotencyKey?: string,
): Promise<WithdrawalRequestView> {
  const request = playerRequest(userId, 'paymentWithdraw', idempotencyKey, [
    input.amount,
    input.address,
    input.currencyCode,
    input.paymentProviderId ?? null,
  ]);
  if (request) {
    const earlier = await findEarlier(ctx.db, request);
    if (earlier) return replay(ctx.db, earlier);
  }

  const issue = amountIssue(input.amount);
  if (issue) throw badRequest([{ field: 'amount', code: issue }]);
  const amount = parseAmount(input.amount);

  const { currency, wallet } = await paymentTarget(ctx, userId, 'withdraw', input);
  // SPEC §5/§8: at most 10000 a request.
  if (amount > MAX_TRANSFER_AMOUNT) throw new DomainError('MAXIMUM_WITHDRAW_AMOUNT_LIMIT');
  if (amount % currencyStep(currency.decimals) !== 0n) throw badRequest([{ field: 'amount', code: 'amount.decimals' }]);
  if (amount < currency.minWithdraw) throw new DomainError('MINIMUM_WITHDRAW_AMOUNT_LIMIT');
  if (!isValidAddress(currency.network, input.address)) throw new DomainError('INVALID_ADDRESS');
  const fee = feeUnits(currency.withdrawFee, currency.decimals);
  const total = amount + fee;

  const held = await ctx.db.transaction(async (tx): Promise<{ replayed: WithdrawalRequestView } | { withdrawalId: number }> => {
    const now = ctx.now();
    let ledgerKey: IdempotencyKey | null = null;
    if (request) {
      // Two requests with one key queue here; the second answers from the first's withdrawal.
      const earlier = await takeKey(tx, request, now);
      if (earlier) return { replayed: await replay(tx, earlier) };
      ledgerKey = idempotency.playerRequest(userId, 'paymentWithdraw', request.key);
    }
    // The wallet row lock serialises this wallet's withdrawals: the checks below see every earlier one.
    const locked = await one<{ available: string }>(tx, 'SELECT available FROM wallets WHERE id = $1 FOR UPDATE', [wallet.walletId]);
    await assertCashoutAllowed(tx, wallet.walletId, now);
    const open = await maybeOne<{ id: number }>(tx, "SELECT id FROM withdrawals WHERE wallet_id = $1 AND status IN ('requested', 'pending')", [
      wallet.walletId,
    ]);
    if (open) throw new DomainError('WITHDRAWAL_REQUEST_IN_PENDING');
    const available = parseSignedAmount(locked.available);
    // Held deposit money (over a deposit limit, server/domain/held-deposits.ts) may always be withdrawn:
    // what available lacks goes from held straight to pending, never playable on the way, and is not
    // counted as deposited. The one row shows the whole amount + fee, its balances the available part
    // (as its refund's do). The withdrawal records the held part, so a refund gives it back to held.
    const fromHeld = available < total ? total - available : 0n;
    const pending = walletAccount(wallet.walletId, 'pending');
    const hold = await postTransaction(tx, {
      kind: 'withdraw.request',
      at: now,
      legs: [
        ...(total > fromHeld ? transfer(walletAccount(wallet.walletId, 'available'), pending, total - fromHeld) : []),
        ...(fromHeld > 0n ? transfer(walletAccount(wallet.walletId, 'held'), pending, fromHeld) : []),
      ],
      idempotency: ledgerKey,
      visible: { walletId: wallet.walletId, type: 'withdraw', actionType: 'withdraw', status: 'pending', amount: total },
    }).catch((error: unknown) => {
      // More than available and held together: the ledger refuses to take held below zero.
      throw error instanceof InsufficientBalanceError ? new DomainError('INSUFFICIENT_BALANCE') : error;
    });
    const inserted = await one<{ id: number }>(
      tx,
      `INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, hold_transaction_id, created_at,
         updated_at, held_amount)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'requested', $8, $9, $9, $10) RETURNING id`,
      [
        ctx.payments.key,
        wallet.walletId,
        userId,
        currency.id,
        input.address,
        formatAmount(amount),
        formatAmount(fee),
        hold.transaction.id,
        now,
        formatAmount(fromHeld),
      ],
    );
    if (request) await recordWithdrawal(tx, request, inserted.id);
    return { withdrawalId: inserted.id };
  });
  if ('replayed' in held) return held.replayed;

  // The provider, outside the database transaction: it may be slow, and the simulator writes through
  // the same database.
  const withdrawalId = held.withdrawalId;
  let spendRequested = false;
  try {
    const spend = await ctx.payments.createSpendRequest({
      withdrawalId,
      walletId: wallet.walletId,
      currencyCode: currency.code,
      network: currency.network,
      address: input.address,
      amount,
      webhookUrl: webhookUrl(ctx),
    });
    // Recorded before the confirmation, so a webhook that outruns the confirmation's answer finds it; and
    // only while the withdrawal still waits for it: one the reconciliation failed meanwhile (a provider
    // slower than RECONCILE_AFTER_SECONDS) has given its funds back, and is not confirmed now.
    const recorded = await ctx.db.query(
      "UPDATE withdrawals SET spend_request_id = $2, updated_at = $3 WHERE id = $1 AND status = 'requested' AND spend_request_id IS NULL RETURNING id",
      [withdrawalId, spend.spendRequestId, ctx.now()],
    );
    if (recorded.length === 0) throw providerFailureError('unavailable');
    spendRequested = true;
    await ctx.payments.confirmSpendRequest(spend.spendRequestId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // A confirmation that went unanswered may still have reached the provider: refunding now could pay
    // the player twice. The funds stay held and the withdrawal pending until the provider's webhook
    // settles it, or the reconciliation (./reconcile.ts) asks the provider. A clear refusal refunds.
    if (!(spendRequested && error.failure === 'unavailable')) {
      await failRequested(ctx, withdrawalId, error.failure, false);
      throw providerFailureError(error.failure);
    }
  }
  await markConfirmed(ctx.db, withdrawalId, ctx.now());
  return requestView(await loadWithdrawal(ctx.db, withdrawalId));
}

/** A withdrawal still `requested` whose spend request the provider confirmed turns `pending`. */
export async function markConfirmed(db: Queryable, withdrawalId: number, now: Date): Promise<void> {
  await db.query("UPDATE withdrawals SET status = 'pending', updated_at = $2 WHERE id = $1 AND status = 'requested'", [withdrawalId, now]);
}

// ---------------------------------------------------------------------------------------------------
// Notifications

/**
 * Applies one verified withdrawal notification of the provider `provider`, in one database transaction
 * with the withdrawal row locked. Only an open withdrawal moves; a final one answers its state with
 * `changed: false` (a replay, or a late notification contradicting what was settled).
 */
export async function applyWithdrawalNotification(ctx: AppContext, provider: string, notification: WithdrawalNotification): Promise<WithdrawalView> {
  return ctx.db.transaction(async (tx) => {
    const row = await maybeOne<WithdrawalRow>(
      tx,
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id
       WHERE w.provider = $1 AND w.spend_request_id = $2 FOR UPDATE OF w`,
      [provider, notification.spendRequestId],
    );
    if (!row) throw new DomainError('NOT_FOUND');
    const spendRequestId = notification.spendRequestId;
    const amount = parseSignedAmount(row.amount);
    const fee = parseSignedAmount(row.fee);
    let status = row.status;
    let txId = row.provider_tx_id;
    let changed = false;

    if (status === 'requested' || status === 'pending') {
      const now = ctx.now();
      const pending = walletAccount(row.wallet_id, 'pending');
      if (notification.outcome === 'confirmed') {
        const payout = await postTransaction(tx, {
          kind: 'withdraw.payout',
          at: now,
          legs: transfer(pending, systemAccount(row.currency_id, 'provider_clearing'), amount),
          idempotency: idempotency.withdrawal(spendRequestId, 'payout'),
          visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdraw', status: 'completed', amount },
          relatedTransactionId: row.hold_transaction_id,
        });
        let feeId: number | null = null;
        if (fee > 0n) {
          const charged = await postTransaction(tx, {
            kind: 'withdraw.fee',
            at: now,
            legs: transfer(pending, systemAccount(row.currency_id, 'fees'), fee),
            idempotency: idempotency.withdrawal(spendRequestId, 'fee'),
            visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdrawFee', status: 'completed', amount: fee },
            relatedTransactionId: row.hold_transaction_id,
          });
          feeId = charged.transaction.id;
        }
        status = 'completed';
        txId = notification.txId ?? null;
        await tx.query(
          `UPDATE withdrawals SET status = 'completed', provider_tx_id = $2, payout_transaction_id = $3, fee_transaction_id = $4, updated_at = $5
           WHERE id = $1`,
          [row.id, txId, payout.transaction.id, feeId, now],
        );
        await notifyPlayer(tx, row.user_id, ...withdrawalCompletedNotice(amount, row.code, row.address), now);
      } else {
        status = 'failed';
        await refund(tx, row, REPORTED_FAILURE, idempotency.withdrawal(spendRequestId, 'refund'), true, now);
      }
      changed = true;
    }
    return {
      spendRequestId,
      address: row.address,
      currencyCode: row.code,
      amount: formatAmount(amount),
      fee: formatAmount(fee),
      // Whatever the notification, the withdrawal it leaves is final.
      status,
      txId,
      changed,
    };
  });
}
