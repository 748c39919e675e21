import { formatAmount, parseSignedAmount } from '../../src/money.ts';
import type { AppContext } from '../context.ts';
import { PaymentProviderError, type SpendRequestState } from '../providers/payment.ts';
import { applyWithdrawalNotification, failUnsent, markConfirmed } from './withdrawals.ts';

/**
 * Withdrawals whose news never came: a confirmation whose answer was lost, a webhook that never arrived,
 * a server stopped between the spend request and its confirmation, or before the spend request was even
 * recorded. Each open withdrawal with a spend request and no change for `olderThanMs`
 * (RECONCILE_AFTER_SECONDS) is asked about at the provider ({@link PaymentProvider.spendRequestState}) and
 * settled the way its webhook would have settled it, through {@link applyWithdrawalNotification}: the same
 * ledger postings, the same notice to the player, and a webhook arriving later finds the withdrawal final
 * and moves nothing.
 *
 * - `sent`: completed (the payout and its fee); `failed`: failed, amount + fee back to the wallet;
 * - `pending`: left as it is, asked again after another `olderThanMs`;
 * - `unknown` (the provider has no confirmed payout of it): the confirmation is sent again. A spend request
 *   is confirmed at most once at the provider, so this can pay once and never twice. If the provider
 *   refuses it, that refusal does not prove nothing was paid (a provider may refuse a second confirmation
 *   of a spend it has confirmed and not yet shows), so nothing is refunded on it: unless the provider,
 *   asked again, now names a state, the withdrawal is set aside for an operator (`review_reason`), its
 *   funds still in pending, and the reconciliation passes over it from then on. The operator checks the
 *   provider's records and settles it with {@link settleByOperator} (`npm run reconcile -- --settle`).
 *   No answer leaves it for the next run.
 *
 * A withdrawal still `requested` with no spend request recorded after `olderThanMs` (the server stopped
 * before it could record one) fails and its funds go back: no confirmation can have been sent for it,
 * since a confirmation needs the spend request's id, recorded first; a spend request made but never
 * recorded is never confirmed, so never paid. The request itself, should it still be under way, records
 * its spend request only on a withdrawal still waiting for one, and otherwise gives up.
 *
 * Several servers may run this at once: each withdrawal is claimed by a row lock taken with SKIP LOCKED
 * and its updated_at moved to now, so another run passes over it (until `olderThanMs` has gone by again)
 * and none waits on another. A webhook settling it meanwhile is serialised by the same row lock.
 */

export type ReconcileResult =
  /** Paid out, as the provider's `sent` webhook would have done. */
  | 'completed'
  /** Failed at the provider, or never sent to it (no spend request recorded): the funds went back. */
  | 'failed'
  /** Confirmed and not yet sent or failed: asked again later. */
  | 'pending'
  /** The provider had no confirmed payout: its confirmation was sent again (it settles by webhook or a later run). */
  | 'reconfirmed'
  /** The provider could not be asked (or did not answer the confirmation): asked again later. */
  | 'unreachable'
  /** A webhook settled it between the claim and the settlement: nothing moved. */
  | 'already_settled'
  /** Not safe to settle unattended: set aside for an operator, funds still held in pending. */
  | 'needs_review';

export interface ReconcileOutcome {
  withdrawalId: number;
  /** Null for a withdrawal whose spend request was never recorded. */
  spendRequestId: string | null;
  /** What the provider said, when it answered. */
  providerState: SpendRequestState['state'] | null;
  result: ReconcileResult;
}

export interface ReconcileOptions {
  /** Only withdrawals unchanged for this long; RECONCILE_AFTER_SECONDS by default. */
  olderThanMs?: number;
  /** At most this many withdrawals in one run. */
  limit?: number;
}

interface Claimed {
  id: number;
  spend_request_id: string | null;
}

/**
 * Claims the next open withdrawal unchanged since `cutoff` and not set aside for an operator: locked
 * (others skip it) and its updated_at moved to now.
 */
async function claimNext(ctx: AppContext, cutoff: Date): Promise<Claimed | undefined> {
  const rows = await ctx.db.query<Claimed>(
    `UPDATE withdrawals SET updated_at = $3
     WHERE id = (
       SELECT id FROM withdrawals
       WHERE provider = $1 AND status IN ('requested', 'pending') AND review_reason IS NULL AND updated_at < $2
       ORDER BY updated_at, id LIMIT 1
       FOR UPDATE SKIP LOCKED
     )
     RETURNING id, spend_request_id`,
    [ctx.payments.key, cutoff, ctx.now()],
  );
  return rows[0];
}

/** Settles a withdrawal as the provider's webhook would, from what the provider answered. */
async function settle(ctx: AppContext, spendRequestId: string, state: SpendRequestState): Promise<ReconcileResult> {
  if (state.state === 'pending' || state.state === 'unknown') return 'pending';
  const view = await applyWithdrawalNotification(ctx, ctx.payments.key, {
    spendRequestId,
    outcome: state.state === 'sent' ? 'confirmed' : 'failed',
    ...(state.state === 'sent' && state.txId !== undefined ? { txId: state.txId } : {}),
  });
  if (!view.changed) return 'already_settled';
  return view.status === 'completed' ? 'completed' : 'failed';
}

/** Why a withdrawal is set aside for an operator (withdrawals.review_reason). */
const REVIEW_REFUSED_RECONFIRMATION =
  'The provider knows no payout of this spend request and refused to confirm it again: check its records, then settle it by hand.';

async function setAside(ctx: AppContext, withdrawalId: number, reason: string): Promise<void> {
  await ctx.db.query(
    "UPDATE withdrawals SET review_reason = $2, review_since = $3, updated_at = $3 WHERE id = $1 AND status IN ('requested', 'pending')",
    [withdrawalId, reason, ctx.now()],
  );
}

async function reconcileOne(ctx: AppContext, claimed: Claimed): Promise<ReconcileOutcome> {
  const spendRequestId = claimed.spend_request_id;
  const outcome = (providerState: SpendRequestState['state'] | null, result: ReconcileResult): ReconcileOutcome => ({
    withdrawalId: claimed.id,
    spendRequestId,
    providerState,
    result,
  });
  if (spendRequestId === null) {
    return outcome(null, (await failUnsent(ctx, claimed.id)) ? 'failed' : 'already_settled');
  }
  let state: SpendRequestState;
  try {
    state = await ctx.payments.spendRequestState(spendRequestId);
  } catch (error) {
    if (error instanceof PaymentProviderError) return outcome(null, 'unreachable');
    throw error;
  }
  if (state.state !== 'unknown') return outcome(state.state, await settle(ctx, spendRequestId, state));

  // The confirmation never reached the provider: sent again (a spend request is confirmed once at most).
  try {
    await ctx.payments.confirmSpendRequest(spendRequestId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    if (error.failure === 'unavailable') return outcome('unknown', 'unreachable');
    // Refused. Asked once more: a state now named settles it; none leaves it to an operator.
    let again: SpendRequestState;
    try {
      again = await ctx.payments.spendRequestState(spendRequestId);
    } catch (second) {
      if (second instanceof PaymentProviderError) return outcome('unknown', 'unreachable');
      throw second;
    }
    if (again.state === 'unknown') {
      await setAside(ctx, claimed.id, REVIEW_REFUSED_RECONFIRMATION);
      return outcome('unknown', 'needs_review');
    }
    return outcome(again.state, await settle(ctx, spendRequestId, again));
  }
  await markConfirmed(ctx.db, claimed.id, ctx.now());
  return outcome('unknown', 'reconfirmed');
}

/** One reconciliation run: every open withdrawal unchanged for `olderThanMs`, up to `limit`, asked about and settled. */
export async function reconcileWithdrawals(ctx: AppContext, options: ReconcileOptions = {}): Promise<ReconcileOutcome[]> {
  const olderThanMs = options.olderThanMs ?? ctx.config.reconcileAfterSeconds * 1000;
  const limit = options.limit ?? 100;
  const cutoff = new Date(ctx.now().getTime() - olderThanMs);
  const outcomes: ReconcileOutcome[] = [];
  while (outcomes.length < limit) {
    const claimed = await claimNext(ctx, cutoff);
    if (!claimed) break;
    outcomes.push(await reconcileOne(ctx, claimed));
  }
  return outcomes;
}

/** Runs {@link reconcileWithdrawals} every `intervalMs`, one run at a time; `stop` waits for a run under way. */
export function startReconciliation(
  ctx: AppContext,
  intervalMs: number,
  log: (message: string, error?: unknown) => void = () => undefined,
): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = reconcileWithdrawals(ctx)
      .then((outcomes) => {
        for (const o of outcomes) log(`reconciliation: withdrawal ${o.withdrawalId} (${o.spendRequestId}) ${o.result}`);
      })
      .catch((error: unknown) => log('reconciliation: a run failed', error))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** A withdrawal set aside for an operator (see above). */
export interface WithdrawalInReview {
  withdrawalId: number;
  spendRequestId: string | null;
  userId: number;
  currencyCode: string;
  amount: string;
  fee: string;
  reason: string;
  since: Date;
}

/** The withdrawals waiting for an operator, oldest first. */
export async function withdrawalsInReview(ctx: AppContext): Promise<WithdrawalInReview[]> {
  const rows = await ctx.db.query<{
    id: number;
    spend_request_id: string | null;
    user_id: number;
    code: string;
    amount: string;
    fee: string;
    review_reason: string;
    review_since: Date;
  }>(
    `SELECT w.id, w.spend_request_id, w.user_id, c.code, w.amount::text, w.fee::text, w.review_reason, w.review_since
     FROM withdrawals w JOIN currencies c ON c.id = w.currency_id
     WHERE w.provider = $1 AND w.status IN ('requested', 'pending') AND w.review_reason IS NOT NULL
     ORDER BY w.review_since, w.id`,
    [ctx.payments.key],
  );
  return rows.map((r) => ({
    withdrawalId: r.id,
    spendRequestId: r.spend_request_id,
    userId: r.user_id,
    currencyCode: r.code,
    amount: formatAmount(parseSignedAmount(r.amount)),
    fee: formatAmount(parseSignedAmount(r.fee)),
    reason: r.review_reason,
    since: r.review_since,
  }));
}

/**
 * An operator's settlement of a withdrawal set aside for review, after checking the provider's records:
 * `sent` completes it (with the chain transaction when known), `failed` gives the funds back, each as the
 * provider's webhook would. Refused (an Error saying why) for a withdrawal that is not waiting for review.
 */
export async function settleByOperator(
  ctx: AppContext,
  withdrawalId: number,
  outcome: 'sent' | 'failed',
  txId?: string,
): Promise<'completed' | 'failed'> {
  const rows = await ctx.db.query<{ spend_request_id: string | null; status: string; review_reason: string | null }>(
    'SELECT spend_request_id, status, review_reason FROM withdrawals WHERE id = $1 AND provider = $2',
    [withdrawalId, ctx.payments.key],
  );
  const row = rows[0];
  if (!row) throw new Error(`No withdrawal ${withdrawalId} of the provider ${ctx.payments.key}.`);
  if (row.status !== 'requested' && row.status !== 'pending') throw new Error(`Withdrawal ${withdrawalId} is already ${row.status}.`);
  if (row.review_reason === null || row.spend_request_id === null) {
    throw new Error(`Withdrawal ${withdrawalId} is not waiting for review: the reconciliation settles it by itself.`);
  }
  const view = await applyWithdrawalNotification(ctx, ctx.payments.key, {
    spendRequestId: row.spend_request_id,
    outcome: outcome === 'sent' ? 'confirmed' : 'failed',
    ...(outcome === 'sent' && txId !== undefined ? { txId } : {}),
  });
  return view.status === 'completed' ? 'completed' : 'failed';
}
