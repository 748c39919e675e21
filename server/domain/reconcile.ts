import type { AppContext } from '../context.ts';
import { PaymentProviderError, type SpendRequestState } from '../providers/payment.ts';
import { applyWithdrawalNotification } from './withdrawals.ts';

/**
 * Withdrawals whose news never came: a confirmation whose answer was lost, a webhook that never arrived,
 * a server stopped between the spend request and its confirmation. Each open withdrawal with a spend
 * request and no change for `olderThanMs` (RECONCILE_AFTER_SECONDS) is asked about at the provider
 * ({@link PaymentProvider.spendRequestState}) and settled the way its webhook would have settled it, through
 * {@link applyWithdrawalNotification}: the same ledger postings, the same notice to the player, and a
 * webhook arriving later finds the withdrawal final and moves nothing.
 *
 * - `sent`: completed (the payout and its fee); `failed`: failed, amount + fee back to available;
 * - `pending`: left as it is, asked again after another `olderThanMs`;
 * - `unknown` (the provider has no confirmed payout of it): the confirmation is sent again. A spend request
 *   is confirmed at most once at the provider, so this can pay once and never twice. If the provider
 *   refuses it and, asked again, still knows no payout of it, nothing was or will be paid: the withdrawal
 *   fails and the funds go back. Any other answer settles it as above; no answer leaves it for the next run.
 *
 * Several servers may run this at once: each withdrawal is claimed by a row lock taken with SKIP LOCKED
 * and its updated_at moved to now, so another run passes over it (until `olderThanMs` has gone by again)
 * and none waits on another. A webhook settling it meanwhile is serialised by the same row lock.
 */

export type ReconcileResult =
  /** Paid out, as the provider's `sent` webhook would have done. */
  | 'completed'
  /** Failed at the provider, or never confirmed and refused: the funds went back. */
  | 'failed'
  /** Confirmed and not yet sent or failed: asked again later. */
  | 'pending'
  /** The provider had no confirmed payout: its confirmation was sent again (it settles by webhook or a later run). */
  | 'reconfirmed'
  /** The provider could not be asked (or did not answer the confirmation): asked again later. */
  | 'unreachable'
  /** A webhook settled it between the claim and the settlement: nothing moved. */
  | 'already_settled';

export interface ReconcileOutcome {
  withdrawalId: number;
  spendRequestId: string;
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
  spend_request_id: string;
}

/** Claims the next open withdrawal unchanged since `cutoff`: locked (others skip it) and its updated_at moved to now. */
async function claimNext(ctx: AppContext, cutoff: Date): Promise<Claimed | undefined> {
  const rows = await ctx.db.query<Claimed>(
    `UPDATE withdrawals SET updated_at = $3
     WHERE id = (
       SELECT id FROM withdrawals
       WHERE provider = $1 AND status IN ('requested', 'pending') AND spend_request_id IS NOT NULL AND updated_at < $2
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

async function reconcileOne(ctx: AppContext, claimed: Claimed): Promise<ReconcileOutcome> {
  const spendRequestId = claimed.spend_request_id;
  const outcome = (providerState: SpendRequestState['state'] | null, result: ReconcileResult): ReconcileOutcome => ({
    withdrawalId: claimed.id,
    spendRequestId,
    providerState,
    result,
  });
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
    // Refused. Asked once more: only a provider that still knows no payout of it makes it fail.
    let again: SpendRequestState;
    try {
      again = await ctx.payments.spendRequestState(spendRequestId);
    } catch (second) {
      if (second instanceof PaymentProviderError) return outcome('unknown', 'unreachable');
      throw second;
    }
    return outcome(again.state, await settle(ctx, spendRequestId, again.state === 'unknown' ? { state: 'failed' } : again));
  }
  await ctx.db.query("UPDATE withdrawals SET status = 'pending', updated_at = $2 WHERE id = $1 AND status = 'requested'", [claimed.id, ctx.now()]);
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
