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
 * Exit status: 0 done, 1 the provider could not be asked about some withdrawals, 2 could not run.
 */
import { loadConfig } from '../server/config.ts';
import { createContext } from '../server/context-factory.ts';
import { reconcileWithdrawals } from '../server/domain/reconcile.ts';
import { CannotRun, openCommandDb, runCommand } from './lib/command-db.ts';

const EXIT_UNREACHABLE = 1;

async function main(): Promise<number> {
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
    console.log(`Reconciliation: ${where}, provider ${ctx.payments.key}, withdrawals unchanged for ${config.reconcileAfterSeconds} s`);
    const outcomes = await reconcileWithdrawals(ctx);
    for (const o of outcomes) {
      console.log(`  withdrawal ${o.withdrawalId} (${o.spendRequestId}): provider says ${o.providerState ?? 'nothing (unreachable)'} -> ${o.result}`);
    }
    const counts = new Map<string, number>();
    for (const o of outcomes) counts.set(o.result, (counts.get(o.result) ?? 0) + 1);
    const summary = [...counts].map(([result, n]) => `${n} ${result}`).join(', ');
    console.log(outcomes.length === 0 ? 'Nothing to reconcile.' : `Reconciled ${outcomes.length}: ${summary}.`);
    return counts.has('unreachable') ? EXIT_UNREACHABLE : 0;
  } finally {
    await db.close();
    lock?.release();
  }
}

runCommand(main, 'Could not reconcile');
