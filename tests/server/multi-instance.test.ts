import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { freePort, waitForHealth } from '../../scripts/lib/processes.ts';
import { HOUSE_PROVIDER, REFERENCE_GAME_COUNT } from '../../server/db/seed.ts';
import { DEMO_PLAYER } from '../../server/domain/demo.ts';
import { TEST_PASSWORD_HASHING, newPlayer } from '../helpers/api.ts';
import { checkResponse, operation, recordCoverage } from '../helpers/contract.ts';

/*
 * Two server processes (the build of this run, tests/setup/global.ts), each with its own data folder, on
 * one PostgreSQL database and with no JWT_SECRET, as two instances behind a load balancer run: what one
 * counts, signs, revokes or announces, the other sees. PostgreSQL only: PGlite is one process's database
 * (vitest.config.ts leaves this file out of the PGlite pass; scripts/test.mjs runs it in the PostgreSQL one).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('multi-instance.test.ts runs on PostgreSQL only (TEST_DATABASE_URL)');

const SERVER_COMMAND = [join(inject('serverBuild'), 'main.js')];
const PAYOUT_ADDRESS = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';
const PASSWORD = 'Secret@123'; // newPlayer's

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  dataDir: string;
  output(): string;
}

const databaseName = `casino_multi_${randomBytes(6).toString('hex')}`;
const url = new URL(adminUrl);
url.pathname = `/${databaseName}`;
const databaseUrl = url.toString();
let db: pg.Client;
let a: Instance;
let b: Instance;

async function startInstance(name: string): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), `casino-${name}-`));
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...TEST_PASSWORD_HASHING,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SIMULATOR: 'on',
    PAYMENT_WEBHOOK_SECRET: 'multi-instance-webhook-secret',
    RATE_LIMIT: 'on',
    LOG_LEVEL: 'warn',
  };
  // The secret is what the instances must find in the database by themselves.
  delete env.JWT_SECRET;
  delete env.TEST_DATABASE_URL;
  const child = spawn(process.execPath, SERVER_COMMAND, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const instance = { name, url: `http://127.0.0.1:${port}`, child, dataDir, output: () => output };
  await waitForHealth(child, `${instance.url}/api/v1/health`, () => output);
  return instance;
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  if (instance.child.exitCode === null) {
    const exited = new Promise((resolve) => instance.child.once('exit', resolve));
    instance.child.kill('SIGTERM');
    await exited;
  }
  rmSync(instance.dataDir, { recursive: true, force: true });
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Empty: the two instances start at once and must migrate and seed it once between them.
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
}, 180_000);

afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
  await db?.end();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
});

// Every request comes from 127.0.0.1: each test starts from no counts, so limits are met on purpose only.
beforeEach(async () => {
  await db.query('DELETE FROM rate_limits');
});

interface Answer {
  status: number;
  code: string | undefined;
  // Responses are checked against openapi.yaml; tests read them loosely.
  body: any;
  headers: Headers;
}

/** One operation of openapi.yaml on an instance, over HTTP, its answer checked against the contract. */
async function call(
  instance: Instance,
  operationId: string,
  options: { body?: unknown; query?: Record<string, string>; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const { method, path } = operation(operationId);
  const query = new URLSearchParams(options.query ?? {}).toString();
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${instance.url}/api/v1${path}${query ? `?${query}` : ''}`, {
    method: method.toUpperCase(),
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const body: unknown = contentType.startsWith('application/json') ? await response.json() : await response.text();
  const violation = checkResponse(operationId, response.status, contentType, body);
  if (violation) throw new Error(`${operationId} on ${instance.name} answered ${response.status} against openapi.yaml: ${violation}`);
  const code = (body as { errors?: { description?: string }[] }).errors?.[0]?.description;
  recordCoverage(operationId, response.status, code ?? null);
  return { status: response.status, code, body, headers: response.headers };
}

const brief = (answer: Answer) => [answer.status, answer.code ?? null];
const password = (plain: string) => Buffer.from(plain, 'utf8').toString('base64');

interface Player {
  email: string;
  token: string;
}

/** Signed up on one instance, verified through the other's mailbox, logged in on the first. */
async function player(signUpOn: Instance, verifyOn: Instance): Promise<Player> {
  const payload = newPlayer();
  expect((await call(signUpOn, 'userSignup', { body: payload })).status).toBe(200);
  const mailbox = await call(verifyOn, 'devGetMailbox', { query: { to: payload.email } });
  const link = new URL(mailbox.body.data.messages[0].links[0] as string);
  expect((await call(verifyOn, 'userVerifyEmail', { query: { token: link.searchParams.get('token')! } })).status).toBe(200);
  const login = await call(signUpOn, 'userLogin', { body: { email: payload.email, password: password(PASSWORD) } });
  expect(login.status).toBe(200);
  return { email: payload.email, token: login.body.data.accessToken as string };
}

describe('two instances on one PostgreSQL', () => {
  it('migrate and seed an empty database once between them, having started at once', async () => {
    const migrations = readdirSync(new URL('../../server/db/migrations/', import.meta.url)).filter((file) => file.endsWith('.sql'));
    const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);
    expect(await count('SELECT count(*) AS n FROM schema_migrations')).toBe(migrations.length);
    expect(await count('SELECT count(*) AS n FROM users WHERE email = $1', [DEMO_PLAYER.email])).toBe(1);
    expect([a, b].filter((instance) => instance.output().includes('The demo player was created on this start.'))).toHaveLength(1);
    expect(await count('SELECT count(*) AS n FROM settings')).toBe(1);
    const generated = 'SELECT count(*) AS n FROM games g JOIN providers p ON p.id = g.provider_id WHERE p.slug <> $1';
    expect(await count(generated, [HOUSE_PROVIDER.slug])).toBe(REFERENCE_GAME_COUNT);
  });

  it('make one signing key between them, and each accepts the tokens the other signs', async () => {
    // Their first tokens at once: the key is made by the first that needs one, the other reads it.
    const [fromA, fromB] = await Promise.all([player(a, b), player(b, a)]);
    const { rows } = await db.query('SELECT id FROM jwt_keys WHERE retired_at IS NULL');
    expect(rows).toHaveLength(1);
    expect((await call(b, 'userGetUser', { token: fromA.token })).status).toBe(200);
    expect((await call(a, 'userGetUser', { token: fromB.token })).status).toBe(200);
  });

  it('count the rate limits together: signups, wrong passwords, forgotten passwords', async () => {
    // Signups: 10 an hour per address over both, not 10 on each.
    for (let i = 0; i < 10; i++) {
      expect((await call(i % 2 === 0 ? a : b, 'userSignup', { body: newPlayer({ zipCode: '1234' }) })).status).toBe(400);
    }
    for (const instance of [a, b]) expect(brief(await call(instance, 'userSignup', { body: newPlayer() }))).toEqual([429, 'RATE_LIMITED']);

    // Wrong passwords for one account from one address: 5 at once over both, then the delay on both.
    await db.query('DELETE FROM rate_limits');
    const target = await player(a, b);
    for (let i = 0; i < 5; i++) {
      const wrong = await call(i % 2 === 0 ? a : b, 'userLogin', { body: { email: target.email, password: password(`Wrong@${i}xyz`) } });
      expect(brief(wrong)).toEqual([422, 'WRONG_PASSWORD']);
    }
    for (const instance of [a, b]) {
      const limited = await call(instance, 'userLogin', { body: { email: target.email, password: password('Wrong@9xyz') } });
      expect(brief(limited)).toEqual([429, 'RATE_LIMITED']);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }

    // Password reset requests: 10 an hour per address over both.
    for (let i = 0; i < 10; i++) {
      expect((await call(i % 2 === 0 ? b : a, 'userForgotPassword', { body: { email: `nobody${i}@example.com` } })).status).toBe(200);
    }
    for (const instance of [a, b]) {
      expect(brief(await call(instance, 'userForgotPassword', { body: { email: 'nobody@example.com' } }))).toEqual([429, 'RATE_LIMITED']);
    }
  });

  it('end a session on both when it is ended on one: logout, and an account made inactive', async () => {
    const first = await player(a, b);
    expect((await call(b, 'userLogout', { token: first.token })).status).toBe(200);
    expect(brief(await call(a, 'userGetUser', { token: first.token }))).toEqual([401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED']);

    const second = await player(a, b);
    expect((await call(b, 'devSetUserActive', { body: { email: second.email, active: false } })).status).toBe(200);
    expect(brief(await call(a, 'userGetUser', { token: second.token }))).toEqual([403, 'USER_INACTIVE']);
    expect((await call(a, 'devSetUserActive', { body: { email: second.email, active: true } })).status).toBe(200);
    for (const instance of [a, b]) {
      expect(brief(await call(instance, 'userGetUser', { token: second.token }))).toEqual([401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED']);
    }
    const again = await call(b, 'userLogin', { body: { email: second.email, password: password(PASSWORD) } });
    expect((await call(a, 'userGetUser', { token: again.body.data.accessToken })).status).toBe(200);
  });

  it('take one pending withdrawal per player, whichever instance each request reaches', async () => {
    const funded = await player(a, b);
    const deposit = await call(a, 'paymentDeposit', { token: funded.token, body: { amount: '1', currencyCode: 'LTC' } });
    expect(deposit.status).toBe(200);
    const transfer = await call(a, 'devChainTransfer', { body: { address: deposit.body.data.address, amount: '1' } });
    expect(transfer.status).toBe(200);
    const confirmed = await call(a, 'devChainConfirm', { body: { txId: transfer.body.data.txId, confirmations: 6 } });
    expect(confirmed.body.data.transfer.settled).toBe(true);

    const requests = [a, b, a, b, a, b].map((instance) =>
      call(instance, 'paymentWithdraw', { token: funded.token, body: { amount: '0.1', address: PAYOUT_ADDRESS, currencyCode: 'LTC' } }),
    );
    const answers = (await Promise.all(requests)).map(brief);
    expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
    expect(answers.filter(([status, code]) => status === 409 && code === 'WITHDRAWAL_REQUEST_IN_PENDING')).toHaveLength(5);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE lower(u.email) = lower($1)", [
      funded.email,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('tell a player connected to one instance of a change made through the other', async () => {
    const watcher = await player(a, b);
    const controller = new AbortController();
    const response = await fetch(`${b.url}/api/v1/user/events`, {
      headers: { authorization: `Bearer ${watcher.token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    recordCoverage('userEvents', 200, null);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    const next = async (match: (event: EventSourceMessage) => boolean): Promise<EventSourceMessage> => {
      const deadline = setTimeout(() => controller.abort(), 20_000);
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) throw new Error('the stream ended');
          if (match(value)) return value;
        }
      } finally {
        clearTimeout(deadline);
      }
    };
    try {
      await next((event) => event.event === 'ready');
      // The deposit is made through A: its webhook reaches A, and B's stream hears of it from the database.
      const deposit = await call(a, 'paymentDeposit', { token: watcher.token, body: { amount: '0.5', currencyCode: 'LTC' } });
      const transfer = await call(a, 'devChainTransfer', { body: { address: deposit.body.data.address, amount: '0.5' } });
      const txId = transfer.body.data.txId as string;
      const seen = await next((event) => event.event === 'deposit' && (JSON.parse(event.data) as { txId: string }).txId === txId);
      expect(JSON.parse(seen.data)).toMatchObject({ txId, amount: '0.5', status: 'pending' });
      await next((event) => event.event === 'wallets');
    } finally {
      controller.abort();
    }
  });
});
