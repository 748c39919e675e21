/**
 * npm run bench:batching: what a game-wallet bet costs PostgreSQL when many bets share one transaction of
 * set-based statements, against one call of game_wallet_play per transaction as the server makes it today.
 * It measures what writing a batch set by set buys over applying the one implementation call by call.
 *
 * The two kinds of transaction both run on a throwaway PostgreSQL 15 (fsync on), migrated and seeded as the
 * server does it. pgbench drives them, 16 clients each keeping to 16 players of their own, so no two
 * clients wait for one wallet's lock:
 * - **one call**: game_wallet_play('bet', ...) per transaction (server/db/schema), prepared, one bet each;
 * - **a batch of B**: one statement over B players' wallets (B = 1, 4, 8, 16) that checks each bet as the
 *   one-call function does (its session, key and expiry, the player may play, no bonus in play, the balance
 *   covers it) and writes the wallets, rounds, ledger transactions, ledger entries and calls of all of them
 *   in one statement each.
 *
 * Printed: bets per second and PostgreSQL's CPU time per bet (its processes, by /proc), in two passes, the
 * second in the opposite order. The batch function is a sketch created in the throwaway database only: it
 * has no replay or refusal paths (a batch that does not write every bet raises and is counted a failure),
 * and the players' stake money is set on their wallets directly. At the end the ledger of the bets is checked: every ledger transaction's
 * entries sum to zero, and the players' balances fell by exactly the stakes their ledger records.
 *
 *   npm run bench:batching [-- --seconds 10 --clients 16]
 */
import { spawnSync } from 'node:child_process';
import { rmSync, mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { postgresCpuMs } from './lib/cpu.ts';
// @ts-expect-error plain JavaScript helper shared with the test runner
import { postgresAvailable, startPostgres } from './lib/postgres.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, clients: { type: 'string', default: '16' } } });
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const PLAYERS_PER_CLIENT = 16;
const BATCHES = [1, 4, 8, 16];
const STAKE = '0.0001';
const FUNDS = '1000';

/** The sketch: B bets in one transaction, each checked as game_wallet_play checks it, written set by set. */
const BATCH_FUNCTION = `
CREATE FUNCTION bench_bet_batch(p_wallets bigint[], p_amount numeric, p_secret text, p_at timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_written integer;
BEGIN
  PERFORM set_config('casino.announce', 'by_server', true), set_config('casino.ledger_balanced_by_batch', 'on', true);
  WITH items AS (
    SELECT w.id AS wallet_id, w.user_id, w.currency_id, s.id AS session_id, s.game_id, g.identifier, g.provider_id,
      gen_random_uuid() AS public_id, md5(random()::text || clock_timestamp()::text) AS round_id
    FROM unnest(p_wallets) AS x(wallet_id) JOIN wallets w ON w.id = x.wallet_id
    JOIN game_sessions s ON s.user_id = w.user_id AND s.currency_code = 'LTC' AND s.expires_at > p_at
    JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id AND p.wallet_secret = p_secret
    JOIN users u ON u.id = w.user_id AND u.active AND NOT u.self_exclusion_permanent
      AND (u.self_excluded_until IS NULL OR u.self_excluded_until <= p_at)
    WHERE NOT EXISTS (SELECT 1 FROM user_bonuses b WHERE b.user_id = w.user_id AND b.wallet_id = w.id AND b.status IN ('active', 'queued'))
      AND NOT EXISTS (SELECT 1 FROM gambling_limits l WHERE l.user_id = w.user_id AND l.kind IN ('bet', 'loss'))
  ), debited AS (
    UPDATE wallets w SET available = w.available - p_amount FROM items i WHERE w.id = i.wallet_id AND w.available >= p_amount
    RETURNING w.id, w.available, w.bonus
  ), rounds AS (
    INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, staked_available, created_at, updated_at)
    SELECT i.provider_id, i.round_id, i.session_id, i.user_id, i.wallet_id, i.currency_id, i.game_id, p_amount, p_at, p_at
    FROM items i JOIN debited d ON d.id = i.wallet_id
    ON CONFLICT (provider_id, round_id) DO NOTHING
    RETURNING id, wallet_id
  ), t AS (
    INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id,
      type, action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
    SELECT i.public_id, 'game.bet', 'bench-batch', i.round_id || ':bet', md5(i.round_id), i.user_id, i.wallet_id, i.currency_id,
      'casino', 'bet', 'completed', p_amount, d.available + p_amount, d.available, i.identifier, p_at
    FROM items i JOIN debited d ON d.id = i.wallet_id
    ON CONFLICT (idempotency_scope, idempotency_key) DO NOTHING
    RETURNING id, wallet_id, currency_id
  ), e AS (
    INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount)
    SELECT t.id, a.id, t.currency_id, -p_amount FROM t JOIN ledger_accounts a ON a.wallet_id = t.wallet_id AND a.kind = 'available'
    UNION ALL
    SELECT t.id, a.id, t.currency_id, p_amount FROM t JOIN ledger_accounts a ON a.wallet_id IS NULL AND a.currency_id = t.currency_id AND a.kind = 'house'
    RETURNING 1
  ), calls AS (
    INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, ledger_transaction_id,
      available_after, bonus_after, created_at)
    SELECT r.id, 'bet', 'bet-' || i.round_id, i.user_id, p_amount, 0, md5(i.round_id), t.id, d.available, d.bonus, p_at
    FROM items i JOIN rounds r ON r.wallet_id = i.wallet_id JOIN t ON t.wallet_id = i.wallet_id JOIN debited d ON d.id = i.wallet_id
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM calls)::integer + (SELECT count(*) FROM e)::integer INTO v_written;
  IF v_written <> 3 * cardinality(p_wallets) THEN
    RAISE EXCEPTION 'the batch wrote % rows for % bets', v_written, cardinality(p_wallets);
  END IF;
  RETURN cardinality(p_wallets);
END
$$;
-- The batch's ledger transactions balance by construction, as the one-call function's does (migration 0023).
DROP TRIGGER ledger_transactions_balanced ON ledger_transactions;
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (current_setting('casino.ledger_balanced_by', true) IS DISTINCT FROM NEW.public_id::text
    AND current_setting('casino.ledger_balanced_by_batch', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION ledger_assert_transaction_balanced();
`;

async function main(): Promise<void> {
  if (!postgresAvailable()) {
    console.log('No PostgreSQL binaries (set PG_BIN_DIR): nothing to measure');
    return;
  }
  const server = (await startPostgres({ durable: true })) as { url: string; port: number; binDir: string; stop: () => void };
  const scripts = mkdtempSync(join(tmpdir(), 'casino-bench-batching-'));
  chmodSync(scripts, 0o755);
  try {
    console.log('Migrating and seeding a throwaway PostgreSQL...');
    const seed = spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/seed.ts', '--games', '10'], { env: { ...process.env, DATABASE_URL: server.url }, encoding: 'utf8' });
    if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);
    const db = new pg.Client({ connectionString: server.url });
    await db.connect();
    const players = CLIENTS * PLAYERS_PER_CLIENT;
    const game = (
      await db.query<{ id: string; identifier: string; provider_id: number; wallet_secret: string; currency_id: number }>(
        `SELECT g.id, g.identifier, p.id AS provider_id, p.wallet_secret, (SELECT id FROM currencies WHERE code = 'LTC') AS currency_id
         FROM games g JOIN providers p ON p.id = g.provider_id WHERE p.slug <> 'house' AND g.active ORDER BY g.id LIMIT 1`,
      )
    ).rows[0];
    if (!game) throw new Error('no real-money game in the seeded catalogue');
    await db.query(`INSERT INTO users (email, username, referral_code) SELECT 'batch' || i || '@example.com', 'batch' || i, 'BATCH' || i FROM generate_series(1, $1) i`, [players]);
    await db.query(
      `INSERT INTO wallets (user_id, currency_id, available) SELECT id, $1, $2 FROM users WHERE username LIKE 'batch%' ORDER BY id`,
      [game.currency_id, FUNDS],
    );
    await db.query(
      `INSERT INTO game_sessions (id, user_id, game_id, demo, currency_code, expires_at)
       SELECT encode(sha256(convert_to('bench-batching-' || u.id, 'UTF8')), 'hex'), u.id, $1, false, 'LTC', now() + interval '1 day'
       FROM users u WHERE u.username LIKE 'batch%'`,
      [game.id],
    );
    // Client c keeps to players c*16 .. c*16+15 (pgbench's client_id).
    await db.query(
      `CREATE TABLE bench_players AS
       SELECT w.id AS wallet_id, w.user_id, s.id AS session_id, (row_number() OVER (ORDER BY w.id) - 1) AS n
       FROM wallets w JOIN users u ON u.id = w.user_id JOIN game_sessions s ON s.user_id = u.id WHERE u.username LIKE 'batch%'`,
    );
    await db.query(`CREATE UNIQUE INDEX ON bench_players (n)`);
    await db.query(`CREATE TABLE bench_clients AS SELECT n / ${PLAYERS_PER_CLIENT} AS client, array_agg(wallet_id ORDER BY n) AS wallets FROM bench_players GROUP BY 1`);
    await db.query(`CREATE UNIQUE INDEX ON bench_clients (client)`);
    await db.query(BATCH_FUNCTION);
    await db.query('CHECKPOINT');

    const url = new URL(server.url);
    const pgbench = (name: string, script: string, betsPerTransaction: number) => {
      const file = join(scripts, `${name}.sql`);
      writeFileSync(file, script);
      chmodSync(file, 0o644);
      const args = ['-n', '-M', 'prepared', '-T', String(SECONDS), '-c', String(CLIENTS), '-j', '2', '-h', url.hostname, '-p', url.port, '-U', 'postgres', '-f', file, 'postgres'];
      const command = join(server.binDir, 'pgbench');
      const before = postgresCpuMs(server.port) ?? 0;
      const run = process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
        : spawnSync(command, args, { encoding: 'utf8' });
      // The connections' processes end with pgbench; the postmaster counts their CPU once it has reaped them.
      const settled = Date.now() + 1000;
      while (Date.now() < settled) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      const cpuMs = (postgresCpuMs(server.port) ?? 0) - before;
      const transactions = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
      const tps = Number(/tps = ([0-9.]+)/.exec(run.stdout)?.[1] ?? 0);
      if (run.status !== 0 || transactions === 0) throw new Error(`pgbench failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
      const bets = transactions * betsPerTransaction;
      return { name, betsPerSecond: Math.round(tps * betsPerTransaction), cpuMsPerBet: Number((cpuMs / bets).toFixed(3)), bets };
    };
    const oneCall = `\\set k random(0, ${PLAYERS_PER_CLIENT - 1})
\\set n :client_id * ${PLAYERS_PER_CLIENT} + :k
\\set r random(1, 1000000000000)
SELECT g.* FROM bench_players b, game_wallet_play('bet', b.wallet_id, b.user_id, ${game.currency_id}, false, ${game.provider_id}, b.session_id,
  ${game.id}, '${game.identifier}', 'one-' || :client_id || '-' || :r, 'bet-' || :client_id || '-' || :r, ${STAKE}, md5(:r::text),
  gen_random_uuid(), 'bench-one', :client_id || '-' || :r, now(), '${game.wallet_secret}', NULL) g WHERE b.n = :n;
`;
    const rows: ReturnType<typeof pgbench>[] = [];
    for (let pass = 1; pass <= 2; pass++) {
      console.log(`Pass ${pass}: ${CLIENTS} clients, ${SECONDS} s each...`);
      // The second pass in the opposite order: what the growing tables and the checkpoints cost later runs
      // falls on each kind of transaction alike.
      const runs = [
        () => pgbench('one call (game_wallet_play) per transaction', oneCall, 1),
        ...BATCHES.map(
          (size) => () =>
            pgbench(
              `a batch of ${size} in one transaction`,
              `SELECT bench_bet_batch((SELECT wallets[1:${size}] FROM bench_clients WHERE client = :client_id), ${STAKE}, '${game.wallet_secret}', now());\n`,
              size,
            ),
        ),
      ];
      for (const run of pass === 1 ? runs : runs.reverse()) rows.push(run());
    }

    const unbalanced = await db.query(`SELECT count(*)::integer AS n FROM (SELECT transaction_id FROM ledger_entries GROUP BY 1 HAVING sum(amount) <> 0) x`);
    const drift = await db.query(
      `SELECT count(*)::integer AS n FROM bench_players b JOIN wallets w ON w.id = b.wallet_id
       WHERE w.available <> $1::numeric - coalesce((SELECT sum(t.amount) FROM ledger_transactions t WHERE t.wallet_id = w.id AND t.action_type = 'bet'), 0)`,
      [FUNDS],
    );
    await db.end();

    console.log('\n| transaction | bets/s | PostgreSQL CPU ms per bet |\n| --- | --- | --- |');
    for (const name of [...new Set(rows.map((row) => row.name))]) {
      const runs = rows.filter((row) => row.name === name);
      console.log(`| ${name} | ${runs.map((row) => row.betsPerSecond).join(', ')} | ${runs.map((row) => row.cpuMsPerBet).join(', ')} |`);
    }
    const total = rows.reduce((sum, row) => sum + row.bets, 0);
    console.log(
      `\n${total} bets; ledger transactions whose entries do not balance: ${unbalanced.rows[0]?.n}; ` +
        `players whose balance is not their funds less their ledger's stakes: ${drift.rows[0]?.n}`,
    );
    if (unbalanced.rows[0]?.n !== 0 || drift.rows[0]?.n !== 0) process.exitCode = 1;
  } finally {
    server.stop();
    rmSync(scripts, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
