/**
 * Reconciles the withdrawals left pending with the payment provider, once, as the server does every
 * RECONCILE_INTERVAL_SECONDS (server/domain/reconcile.ts):
 *
 *   npm run reconcile
 *
 * Every withdrawal unchanged for RECONCILE_AFTER_SECONDS (default 600) is asked about at the configured
 * provider and settled as its webhook would have settled it. Prints one line per withdrawal and a summary.
 *
 * Uses DATABASE_URL when set, else the PGlite folder under DATA_DIR (default .data), like the server, with
 * the server's payment settings (PAYMENT_PROVIDER, COINPAYMENTS_*). PGlite allows one process per folder:
 * while a server has it open the command refuses (the server reconciles by itself; or use PostgreSQL, where
 * the command runs beside the servers and takes only withdrawals none of them holds).
 *
 * A withdrawal the reconciliation cannot settle safely by itself (the provider knows no payout of it yet
 * refused to confirm it again: refunding could pay twice) is set aside for an operator, its funds still
 * held; every run lists those waiting. Once the provider's own records say what became of it:
 *
 *   npm run reconcile -- --settle ID --outcome sent [--tx-id CHAIN_TX]   completes it (paid out)
 *   npm run reconcile -- --settle ID --outcome failed                    gives the funds back
 *
 * Exit status: 0 done, 1 the provider could not be asked about some withdrawals, 2 could not run (or the
 * settlement was refused: not a withdrawal waiting for review).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { createContext } from '../server/context-factory.ts';
import { reconcileWithdrawals, settleByOperator, withdrawalsInReview } from '../server/domain/reconcile.ts';
import { CannotRun, openCommandDb, runCommand } from './lib/command-db.ts';

const EXIT_UNREACHABLE = 1;

/** What the command line asks: a reconciliation run, or an operator's settlement of one withdrawal. */
function readArguments(): { settle: null } | { settle: number; outcome: 'sent' | 'failed'; txId: string | undefined } {
  const { values } = parseArgs({ options: { settle: { type: 'string' }, outcome: { type: 'string' }, 'tx-id': { type: 'string' } } });
  if (values.settle === undefined) {
    if (values.outcome !== undefined || values['tx-id'] !== undefined) throw new CannotRun('--outcome and --tx-id go with --settle ID.');
    return { settle: null };
  }
  const id = Number(values.settle);
  if (!Number.isSafeInteger(id) || id <= 0) throw new CannotRun(`--settle takes a withdrawal's id, not ${JSON.stringify(values.settle)}.`);
  if (values.outcome !== 'sent' && values.outcome !== 'failed') throw new CannotRun('--settle ID needs --outcome sent or --outcome failed.');
  if (values.outcome === 'failed' && values['tx-id'] !== undefined) throw new CannotRun('--tx-id goes with --outcome sent.');
  return { settle: id, outcome: values.outcome, txId: values['tx-id'] };
}

async function main(): Promise<number> {
  const args = readArguments();
  const config = loadConfig();
  const { db, where, lock } = await openCommandDb(
    config,
    {
      missing: (dir) => `No database in ${dir}: set DATA_DIR or DATABASE_URL.`,
      inUse: (dataDir, pid) =>
        `The data folder ${dataDir} is open in another process (${pid}), most likely the server, which reconciles ` +
        'by itself every RECONCILE_INTERVAL_SECONDS. Stop it to run npm run reconcile, or use PostgreSQL through DATABASE_URL.',
    },
    2,
  );
  try {
    const migrated = await db.query<{ present: boolean }>(`SELECT to_regclass('withdrawals') IS NOT NULL AS present`);
    if (!migrated[0]?.present) throw new CannotRun(`The database (${where}) has no withdrawals yet: start the server once so that it applies its migrations.`);
    const ctx = createContext(config, db);
    if (args.settle !== null) {
      const settled = await settleByOperator(ctx, args.settle, args.outcome, args.txId).catch((error: unknown) => {
        throw new CannotRun(error instanceof Error ? error.message : String(error));
      });
      console.log(`Withdrawal ${args.settle} settled by hand: ${settled}.`);
      return 0;
    }
    console.log(`Reconciliation: ${where}, provider ${ctx.payments.key}, withdrawals unchanged for ${config.reconcileAfterSeconds} s`);
    const outcomes = await reconcileWithdrawals(ctx);
    for (const o of outcomes) {
      const asked = o.spendRequestId === null ? 'no spend request recorded' : `provider says ${o.providerState ?? 'nothing (unreachable)'}`;
      console.log(`  withdrawal ${o.withdrawalId} (${o.spendRequestId ?? 'never sent'}): ${asked} -> ${o.result}`);
    }
    const counts = new Map<string, number>();
    for (const o of outcomes) counts.set(o.result, (counts.get(o.result) ?? 0) + 1);
    const summary = [...counts].map(([result, n]) => `${n} ${result}`).join(', ');
    console.log(outcomes.length === 0 ? 'Nothing to reconcile.' : `Reconciled ${outcomes.length}: ${summary}.`);
    const inReview = await withdrawalsInReview(ctx);
    if (inReview.length > 0) {
      console.log(`Waiting for an operator (npm run reconcile -- --settle ID --outcome sent|failed): ${inReview.length}`);
      for (const w of inReview) {
        console.log(
          `  withdrawal ${w.withdrawalId} (${w.spendRequestId ?? 'no spend request'}), player ${w.userId}, ${w.amount} ${w.currencyCode} + fee ${w.fee}, since ${w.since.toISOString()}: ${w.reason}`,
        );
      }
    }
    return counts.has('unreachable') ? EXIT_UNREACHABLE : 0;
  } finally {
    await db.close();
    lock?.release();
  }
}

runCommand(main, 'Could not reconcile');
