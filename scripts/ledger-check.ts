/**
 * Proves the ledger of the database the server uses:
 *
 *   npm run ledger:check
 *
 * Every cached wallet balance (available, pending, bonus) must equal the sum of its ledger entries,
 * every transaction must have two entries or more summing to zero per currency, and every player-visible
 * record's before and after balances must differ by its wallet's change. Prints a summary per currency.
 *
 * Uses DATABASE_URL when set, else the PGlite folder under DATA_DIR (default .data), like the server.
 * PGlite allows one process per folder: while a server has it open the check refuses (stop the server,
 * or use PostgreSQL, where the check runs beside it in one consistent snapshot).
 *
 * Exit status: 0 consistent, 1 inconsistent, 2 could not check (folder in use, no database, not migrated).
 */
import { loadConfig } from '../server/config.ts';
import { SYSTEM_ACCOUNT_KINDS, verifyLedger, type LedgerCheckReport } from '../server/domain/ledger.ts';
import { formatAmount } from '../src/money.ts';
import { CannotRun, openCommandDb, runCommand } from './lib/command-db.ts';

const EXIT_INCONSISTENT = 1;
/** Problems printed per kind; the counts are always complete. */
const SHOWN = 20;

function describe(report: LedgerCheckReport): { lines: string[]; problems: number } {
  const lines: string[] = [];
  const { counts } = report;
  lines.push(`  ${counts.transactions} transactions, ${counts.entries} entries, ${counts.accounts} accounts, ${counts.wallets} wallets`);
  for (const t of report.totals) {
    const system = SYSTEM_ACCOUNT_KINDS.map((kind) => `${kind} ${formatAmount(t.system[kind])}`).join(', ');
    lines.push(
      `  ${t.currencyCode.padEnd(5)} players: available ${formatAmount(t.players.available)}, pending ${formatAmount(t.players.pending)}, ` +
        `bonus ${formatAmount(t.players.bonus)}, held ${formatAmount(t.players.held)} | ${system}`,
    );
  }
  const problems: string[] = [];
  for (const m of report.walletMismatches) {
    problems.push(
      m.accountMissing
        ? `  NO ACCOUNT  wallet ${m.walletId} (user ${m.userId}, ${m.currencyCode}) has no ${m.kind} ledger account (cached ${formatAmount(m.cached)})`
        : `  MISMATCH    wallet ${m.walletId} (user ${m.userId}, ${m.currencyCode}) ${m.kind}: cached ${formatAmount(m.cached)}, ` +
            `entries sum to ${formatAmount(m.fromEntries)}`,
    );
  }
  for (const u of report.unbalancedTransactions) {
    problems.push(`  UNBALANCED  transaction ${u.transactionId}: its ${u.currencyCode} entries sum to ${formatAmount(u.sum)}`);
  }
  for (const t of report.transactionsWithTooFewEntries) {
    problems.push(`  TOO FEW     transaction ${t.transactionId} has ${t.entries} entries`);
  }
  for (const v of report.visibleMismatches) {
    problems.push(
      `  VISIBLE     transaction ${v.transactionId}: before ${formatAmount(v.beforeBalance)}, after ${formatAmount(v.afterBalance)}, ` +
        `but the available balance changed by ${formatAmount(v.availableChange)}`,
    );
  }
  lines.push(...problems.slice(0, SHOWN));
  if (problems.length > SHOWN) lines.push(`  ... and ${problems.length - SHOWN} more`);
  return { lines, problems: problems.length };
}

async function main(): Promise<number> {
  const { db, where, lock } = await openCommandDb(
    loadConfig(),
    {
      missing: (dir) => `No database in ${dir}: start the server once (npm run server), or set DATA_DIR or DATABASE_URL.`,
      inUse: (dataDir, pid) =>
        `The data folder ${dataDir} is open in another process (${pid}), most likely the server. ` +
        'PGlite lets one process at a time use its folder: stop the server and run npm run ledger:check again ' +
        '(or use PostgreSQL through DATABASE_URL, where the check runs beside the server).',
    },
    1,
  );
  try {
    const migrated = await db.query<{ present: boolean }>(`SELECT to_regclass('ledger_entries') IS NOT NULL AS present`);
    if (!migrated[0]?.present) {
      throw new CannotRun(`The database (${where}) has no ledger yet: start the server once so that it applies its migrations.`);
    }
    // One snapshot: postings committed while the check runs cannot show up half.
    const report = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return verifyLedger(tx);
    });
    const { lines, problems } = describe(report);
    console.log(`Ledger check: ${where}`);
    for (const line of lines) console.log(line);
    if (report.ok) {
      console.log('OK: every cached balance equals the sum of its entries, and every transaction balances.');
      return 0;
    }
    console.error(`FAILED: ${problems} problem${problems === 1 ? '' : 's'} found.`);
    return EXIT_INCONSISTENT;
  } finally {
    await db.close();
    lock?.release();
  }
}

runCommand(main, 'Could not check the ledger');
