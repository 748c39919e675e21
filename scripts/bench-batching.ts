/**
 * npm run bench:batching: what a game-wallet bet costs PostgreSQL when B bets of different players share
 * one call of game_wallet_play (server/db/schema), the server's batch, against one bet a call: the figure
 * that says what gathering calls into batches (server/domain/batcher.ts) buys.
 *
 * On a throwaway PostgreSQL 15 (fsync on), migrated and seeded as the server does it, pgbench drives
 * game_wallet_play with B = 1, 4, 8 and 16 bets a call (one database transaction each), 16 clients each
 * keeping to 16 players of their own, so no two clients wait for one wallet's lock. The players' stake
 * money is set on their wallets directly.
 *
 * Printed: bets per second, PostgreSQL's CPU time per bet (its processes, by /proc) and the time a call
 * spends inside game_wallet_play and, of that, inside the ledger_post_many it calls (pg_stat_user_functions:
 * wall time, with the clients sharing the cores, so its shares count), in two passes, the second in the
 * opposite order. A call that does not answer 'done' for every bet fails the run. At the end the ledger of
 * the bets is checked: every ledger transaction's entries sum to zero, and the players' balances fell by
 * exactly the stakes their ledger records.
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

async function main(): Promise<void> {
  if (!postgresAvailable()) {
    console.log('No PostgreSQL binaries (set PG_BIN_DIR): nothing to measure');
    return;
  }
  // track_functions: the time inside game_wallet_play, and inside the ledger_post_many it calls, per call.
  const server = (await startPostgres({ durable: true, settings: ['track_functions=pl'] })) as { url: string; port: number; binDir: string; stop: () => void };
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
    await db.query('CHECKPOINT');

    const url = new URL(server.url);
    /** Milliseconds spent so far inside each function, its callees included (pg_stat_user_functions). */
    const functionTimes = async (): Promise<Record<string, number>> => {
      const { rows } = await db.query<{ funcname: string; total: number }>(
        `SELECT funcname, total_time AS total FROM pg_stat_user_functions WHERE funcname IN ('game_wallet_play', 'ledger_post_many')`,
      );
      return Object.fromEntries(rows.map((row) => [row.funcname, row.total]));
    };
    const pgbench = async (name: string, script: string, betsPerTransaction: number) => {
      const file = join(scripts, `${name}.sql`);
      writeFileSync(file, script);
      chmodSync(file, 0o644);
      const args = ['-n', '-M', 'prepared', '-T', String(SECONDS), '-c', String(CLIENTS), '-j', '2', '-h', url.hostname, '-p', url.port, '-U', 'postgres', '-f', file, 'postgres'];
      const command = join(server.binDir, 'pgbench');
      const before = postgresCpuMs(server.port) ?? 0;
      const functionsBefore = await functionTimes();
      const run = process.getuid?.() === 0
        ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
        : spawnSync(command, args, { encoding: 'utf8' });
      // The connections' processes end with pgbench; the postmaster counts their CPU once it has reaped them.
      const settled = Date.now() + 1000;
      while (Date.now() < settled) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      const cpuMs = (postgresCpuMs(server.port) ?? 0) - before;
      const functionsAfter = await functionTimes();
      const transactions = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
      const msACall = (name: string) => Number(((functionsAfter[name] ?? 0) - (functionsBefore[name] ?? 0)) / transactions).toFixed(3);
      const tps = Number(/tps = ([0-9.]+)/.exec(run.stdout)?.[1] ?? 0);
      if (run.status !== 0 || transactions === 0) throw new Error(`pgbench failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
      const bets = transactions * betsPerTransaction;
      return {
        name,
        betsPerSecond: Math.round(tps * betsPerTransaction),
        cpuMsPerBet: Number((cpuMs / bets).toFixed(3)),
        inFunctions: `${msACall('game_wallet_play')} / ${msACall('ledger_post_many')}`,
        bets,
      };
    };
    // B bets of client c's first B players in one call, each with a round of its own.
    const batchOf = (size: number) => `\\set r random(1, 1000000000000)
SELECT count(*) FILTER (WHERE g.out_status = 'done') / (count(*) FILTER (WHERE g.out_status = 'done') = ${size})::integer
FROM (
  SELECT array_agg(b.wallet_id ORDER BY b.n) AS wallets, array_agg(b.user_id ORDER BY b.n) AS users, array_agg(b.session_id ORDER BY b.n) AS sessions,
    array_agg('batch-' || :client_id || '-' || :r || '-' || b.n ORDER BY b.n) AS rounds
  FROM bench_players b WHERE b.n >= :client_id * ${PLAYERS_PER_CLIENT} AND b.n < :client_id * ${PLAYERS_PER_CLIENT} + ${size}
) p, game_wallet_play(array_fill('bet'::text, ARRAY[${size}]), p.wallets, p.users, array_fill(${game.currency_id}, ARRAY[${size}]),
  array_fill(false, ARRAY[${size}]), array_fill(${game.provider_id}, ARRAY[${size}]), p.sessions, array_fill(${game.id}::bigint, ARRAY[${size}]),
  array_fill('${game.identifier}'::text, ARRAY[${size}]), p.rounds, p.rounds, array_fill(${STAKE}::numeric, ARRAY[${size}]),
  (SELECT array_agg(md5(r) ORDER BY k) FROM unnest(p.rounds) WITH ORDINALITY AS x(r, k)),
  (SELECT array_agg(gen_random_uuid()) FROM generate_series(1, ${size})), array_fill('bench-batch'::text, ARRAY[${size}]), p.rounds,
  array_fill('${game.wallet_secret}'::text, ARRAY[${size}]), array_fill(NULL::text, ARRAY[${size}]), now()) g;
`;
    const rows: Awaited<ReturnType<typeof pgbench>>[] = [];
    for (let pass = 1; pass <= 2; pass++) {
      console.log(`Pass ${pass}: ${CLIENTS} clients, ${SECONDS} s each...`);
      // The second pass in the opposite order: what the growing tables and the checkpoints cost later runs
      // falls on each kind of transaction alike.
      const runs = BATCHES.map((size) => () => pgbench(size === 1 ? 'one bet a call' : `${size} bets a call`, batchOf(size), size));
      for (const run of pass === 1 ? runs : runs.reverse()) rows.push(await run());
    }

    const unbalanced = await db.query(`SELECT count(*)::integer AS n FROM (SELECT transaction_id FROM ledger_entries GROUP BY 1 HAVING sum(amount) <> 0) x`);
    const drift = await db.query(
      `SELECT count(*)::integer AS n FROM bench_players b JOIN wallets w ON w.id = b.wallet_id
       WHERE w.available <> $1::numeric - coalesce((SELECT sum(t.amount) FROM ledger_transactions t WHERE t.wallet_id = w.id AND t.action_type = 'bet'), 0)`,
      [FUNDS],
    );
    await db.end();

    console.log(
      '\n| transaction | bets/s | PostgreSQL CPU ms per bet | wall ms a call inside game_wallet_play / of it inside ledger_post_many |\n| --- | --- | --- | --- |',
    );
    for (const name of [...new Set(rows.map((row) => row.name))]) {
      const runs = rows.filter((row) => row.name === name);
      const column = (pick: (row: (typeof runs)[number]) => string | number) => runs.map(pick).join(', ');
      console.log(`| ${name} | ${column((row) => row.betsPerSecond)} | ${column((row) => row.cpuMsPerBet)} | ${column((row) => row.inFunctions)} |`);
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
