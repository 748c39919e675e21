import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotency } from '../../server/domain/ledger.ts';
import { playableGame, registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { postgresUrlOf } from '../helpers/db.ts';
import { depositAddress, expectLedgerBalanced, fundedPlayer } from '../helpers/money.ts';

/**
 * The money functions a batch calls (game_wallet_play and deposit_notification_apply, each over a
 * set of calls) and the ledger's writer they call (ledger_post_many) plan their statements once per connection and keep the plans while the tables grow. A plan made while the tables were small must still find every row by its key: no table read whole,
 * no hash built over one, whichever join method PostgreSQL takes (a second pass plans them with nested loops
 * off). The references of the rows they write are checked by the money tables' foreign keys (migration
 * 0037): PostgreSQL's own queries, each a look-up of one referred row by the referred key, planned by
 * PostgreSQL for the table's size at the time. The tables here are as small as a new casino's, analysed,
 * and PostgreSQL's auto_explain hands the plan of every statement inside the functions to the test's own
 * connection.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('batch-plans.test.ts runs on PostgreSQL only (TEST_DATABASE_URL)');

let server: TestServer;
const clients: pg.Client[] = [];
const plans: string[] = [];
const keyChecks: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ PAYMENT_WEBHOOK_SECRET: 'batch-plans-test-webhook-secret' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await server.close();
});

/**
 * What a plan may not hold: a table read whole (a sequential scan, an index read without a condition), or a
 * subquery's rows hashed. Hash joins of the batch's own rows (CTEs, arrays) are fine.
 */
function scansIn(plan: string): string[] {
  const lines = plan.split('\n');
  return lines.flatMap((line, k) => {
    if (/Seq Scan on \w+|hashed SubPlan/.test(line)) return [line.trim()];
    if (/(?:Index|Index Only|Bitmap Index) Scan (?:using|on) /.test(line) && !/Index Cond:/.test(lines[k + 1] ?? '')) return [line.trim()];
    return [];
  });
}

/** PostgreSQL's own foreign-key checks: planned anew while a table is small, not the functions' plans. */
const FOREIGN_KEY_CHECK = /^Query Text: SELECT 1 FROM ONLY /m;

/** A foreign-key check's look-up: the referred table and the columns of its key, each compared with a parameter. */
function keyLookup(plan: string): string | undefined {
  const text = /^Query Text: (.*)$/m.exec(plan)?.[1] ?? '';
  const found = /^SELECT 1 FROM ONLY "public"\."(\w+)" x WHERE (.+) FOR KEY SHARE OF x$/.exec(text);
  if (!found) return undefined;
  const columns = found[2]!.split(' AND ').map((term) => /^"(\w+)" OPERATOR\(pg_catalog\.=\) \$\d+$/.exec(term)?.[1]);
  return columns.every(Boolean) ? `${found[1]} (${columns.join(', ')})` : undefined;
}

/** The plans logged while `run` ran, one per statement inside the functions. */
async function plansOf(run: () => Promise<void>): Promise<string[]> {
  plans.length = 0;
  await run();
  return [...plans];
}

describe('the batch functions', () => {
  it('find every row by its key, with plans cached while the tables were small', async () => {
    const game = await playableGame(server);
    const players = await Promise.all([fundedPlayer(server, '1'), fundedPlayer(server, '1')]);
    const sessions = await Promise.all(
      players.map(async (player) => {
        const res = await server.call('casinoInitGame', { token: player.token, body: { gameId: game.id, currencyCode: 'LTC' } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.gameSession.sessionId as string;
      }),
    );
    const depositors = await Promise.all([registeredPlayer(server), registeredPlayer(server)]);
    const addresses = await Promise.all(depositors.map((player) => depositAddress(server, player)));

    // Statistics of tables as small as a new casino's.
    await server.db.query('ANALYZE');

    const rows = await server.db.query<{
      session_id: string;
      game_id: number;
      identifier: string;
      provider_id: number;
      wallet_secret: string;
      wallet_id: number;
      user_id: number;
      currency_id: number;
    }>(
      `SELECT s.id AS session_id, s.game_id, g.identifier, g.provider_id, p.wallet_secret, w.id AS wallet_id, w.user_id, w.currency_id
       FROM game_sessions s JOIN games g ON g.id = s.game_id JOIN providers p ON p.id = g.provider_id
         JOIN currencies c ON c.code = s.currency_code JOIN wallets w ON w.user_id = s.user_id AND w.currency_id = c.id
       WHERE s.id = ANY ($1) ORDER BY array_position($1, s.id)`,
      [sessions],
    );
    /**
     * One pass: a connection that plans the functions now, with `settings`, and the plans of its calls. The
     * second pass turns nested loops off, so PostgreSQL takes a merge or hash join wherever the statement
     * lets it: whichever join it would pick on other statistics, a row must still be found by its key.
     */
    const pass = async (settings: string[]) => {
      const client = new pg.Client({ connectionString: postgresUrlOf(server.db) });
      clients.push(client);
      await client.connect();
      client.on('notice', (notice) => {
        if (!notice.message?.includes('Query Text:')) return;
        if (FOREIGN_KEY_CHECK.test(notice.message)) keyChecks.push(notice.message);
        else plans.push(notice.message);
      });
      await client.query("LOAD 'auto_explain'");
      await client.query('SET auto_explain.log_min_duration = 0');
      await client.query('SET auto_explain.log_nested_statements = on');
      await client.query('SET client_min_messages = log');
      for (const setting of settings) await client.query(`SET ${setting}`);

      const rounds = rows.map(() => `plan-round-${randomUUID()}`);
      const transfers = randomUUID();
      const play = async (action: 'bet' | 'win', amount: string) => {
        const keys = rounds.map((round) => idempotency.game(round, action));
        const result = await client.query<{ out_status: string }>(
          'SELECT * FROM game_wallet_play($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)',
          [
            rows.map(() => action),
            rows.map((row) => row.wallet_id),
            rows.map((row) => row.user_id),
            rows.map((row) => row.currency_id),
            rows.map(() => false),
            rows.map((row) => row.provider_id),
            rows.map((row) => row.session_id),
            rows.map((row) => row.game_id),
            rows.map((row) => row.identifier),
            rounds,
            rounds.map((round) => `${round}-${action}`),
            rows.map(() => amount),
            rows.map(() => `request-${action}`),
            rows.map(() => randomUUID()),
            keys.map((key) => key.scope),
            keys.map((key) => key.key),
            rows.map((row) => row.wallet_secret),
            rows.map(() => null),
            server.clock.now(),
          ],
        );
        expect(result.rows.map((row) => row.out_status)).toEqual(['done', 'done']);
      };
      const notify = async (confirmations: number, expected: string) => {
        const txIds = addresses.map((address) => `plan-${transfers}-${address}`);
        const result = await client.query<{ out_status: string }>(
          'SELECT * FROM deposit_notification_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
          [
            'simulator',
            txIds,
            addresses,
            addresses.map(() => 'LTC'),
            addresses.map(() => '0.5'),
            addresses.map(() => confirmations),
            'LTC',
            idempotency.deposit('simulator', '').scope,
            txIds.map((txId) => idempotency.deposit('simulator', txId).key),
            server.clock.now(),
          ],
        );
        expect(result.rows.map((row) => row.out_status)).toEqual([expected, expected]);
      };

      const gamePlans = await plansOf(async () => {
        await play('bet', '0.1');
        await play('win', '0.25');
      });
      const depositPlans = await plansOf(async () => {
        await notify(0, 'pending');
        await notify(6, 'credited');
      });
      // The plans were read: the checks and the writes of both functions, every table they look rows up in.
      for (const table of ['wallets', 'game_rounds', 'game_sessions', 'users', 'game_wallet_actions', 'ledger_transactions', 'ledger_accounts']) {
        expect(gamePlans.some((plan) => plan.includes(` on ${table} `)), table).toBe(true);
      }
      for (const table of ['deposits', 'deposit_addresses', 'wallets', 'ledger_transactions', 'ledger_accounts', 'user_bonuses', 'gambling_limits']) {
        expect(depositPlans.some((plan) => plan.includes(` on ${table} `)), table).toBe(true);
      }
      // ... and none of them reads a table whole or hashes one.
      expect([...gamePlans, ...depositPlans].flatMap(scansIn), settings.join(', ') || 'as planned').toEqual([]);
    };
    keyChecks.length = 0;
    await pass([]);
    // Nested loops off cost 10^10 in the plan, far over jit_above_cost: JIT compiling every statement would
    // take seconds and change no plan.
    await pass(['enable_nestloop = off', 'jit = off']);

    // The rows the batches wrote had their references checked by the foreign keys, every check a look-up
    // of the referred row by its key: a game session, its game and provider, a wallet with its player and
    // currency, a round, a ledger transaction (with its database transaction, for an entry), an entry's
    // account of its currency, a deposit address, a player.
    const lookups = keyChecks.map(keyLookup);
    expect(lookups.filter((lookup) => lookup === undefined), 'a foreign-key check that is not a look-up by key').toEqual([]);
    expect([...new Set(lookups)].sort()).toEqual([
      'deposit_addresses (id)',
      'game_rounds (id)',
      'game_sessions (id)',
      'games (id)',
      'ledger_accounts (id, currency_id)',
      'ledger_transactions (id)',
      'ledger_transactions (id, xact)',
      'providers (id)',
      'users (id)',
      'wallets (id, user_id, currency_id)',
    ]);

    // The calls of both passes moved money as they would have one by one: the players' balances and the ledger agree.
    const balances = await server.db.query<{ user_id: number; available: string; pending: string }>(
      `SELECT w.user_id, w.available::text, w.pending::text FROM wallets w JOIN currencies c ON c.id = w.currency_id
       WHERE c.code = 'LTC' AND w.user_id = ANY ($1) ORDER BY array_position($1, w.user_id)`,
      [[...players, ...depositors].map((player) => player.user.id)],
    );
    expect(balances.map((row) => [Number(row.available), Number(row.pending)])).toEqual([
      [1.3, 0],
      [1.3, 0],
      [1, 0],
      [1, 0],
    ]);
    await expectLedgerBalanced(server);
  });
});
