import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { createContext } from '../../server/context-factory.ts';
import type { AppContext } from '../../server/context.ts';
import type { Db } from '../../server/db/db.ts';
import { signGameWalletRequest } from '../../server/domain/game-wallet.ts';
import './compiled-schemas.ts';
import { checkResponse, operation, recordCoverage } from './contract.ts';
import { createTestDb } from './db.ts';
import { newPlayer } from './players.ts';

export interface FilePart {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export type Part = { name: string; value: string | FilePart };

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  params?: Record<string, string | number>;
  token?: string | null;
  headers?: Record<string, string>;
  /** A multipart/form-data body instead of JSON. */
  parts?: Part[];
  /** Sent as is, with the given content type (bad-input tests). */
  raw?: { payload: string | Buffer; contentType: string };
}

export interface CallResult {
  status: number;
  // Responses are checked against openapi.yaml before they reach a test; tests read them loosely.
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----casino-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (typeof part.value === 'string') {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.value.filename}"\r\n` +
            `Content-Type: ${part.value.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(part.value.content, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  config: Config;
  clock: { now(): Date; advance(ms: number): void; set(date: Date): void };
  call(operationId: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * The cheapest Argon2id the library takes, for the test players: a hash at the production cost takes
 * about 10 ms of a core, and the tests make hundreds. One test makes its player at the production cost
 * (tests/server/accounts.test.ts).
 */
export const TEST_PASSWORD_HASHING = { PASSWORD_HASH_MEMORY_KIB: '8', PASSWORD_HASH_ITERATIONS: '1', PASSWORD_HASH_PARALLELISM: '1' };

export async function startTestServer(
  env: Record<string, string> = {},
  options: BuildOptions & { db?: Db } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'casino-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://casino.test',
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    ...TEST_PASSWORD_HASHING,
    ...env,
  });
  const db = options.db ?? (await createTestDb());
  let current = new Date();
  const clock = {
    now: () => new Date(current.getTime()),
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
    set: (date: Date) => {
      current = new Date(date.getTime());
    },
  };
  const ctx = createContext(config, db, { now: clock.now });
  const app = await buildApp(ctx, options);
  await app.ready();

  async function call(operationId: string, opts: CallOptions = {}): Promise<CallResult> {
    const { method, path } = operation(operationId);
    const url =
      '/api/v1' +
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = opts.params?.[name];
        if (value === undefined) throw new Error(`missing path parameter ${name}`);
        return encodeURIComponent(String(value));
      });
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | Buffer | undefined;
    if (opts.parts) {
      const form = multipart(opts.parts);
      payload = form.payload;
      headers['content-type'] = form.contentType;
    } else if (opts.raw) {
      payload = opts.raw.payload;
      headers['content-type'] = opts.raw.contentType;
    } else if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries(opts.query ?? {})) if (value !== undefined) query[key] = String(value);
    const response = await app.inject({
      method: method.toUpperCase() as 'GET' | 'POST',
      url,
      query,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const contentType = String(response.headers['content-type'] ?? '');
    const isJson = contentType.startsWith('application/json');
    const body: unknown = isJson ? response.json() : response.body;
    const violation = checkResponse(operationId, response.statusCode, contentType, body);
    if (violation) {
      throw new Error(`${operationId} answered ${response.statusCode} against openapi.yaml: ${violation}\n${response.body.slice(0, 2000)}`);
    }
    const code = isJson ? ((body as { errors?: { description?: string }[] }).errors?.[0]?.description ?? null) : null;
    recordCoverage(operationId, response.statusCode, code);
    return { status: response.statusCode, body, headers: response.headers, rawPayload: response.rawPayload };
  }

  return {
    app,
    ctx,
    db,
    config,
    clock,
    call,
    async close() {
      await app.close();
      if (!options.db) await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { newPlayer };

/** The link of the newest email to an address, read through the simulator mailbox. */
export async function latestLink(server: TestServer, to: string): Promise<string> {
  const mailbox = await server.call('devGetMailbox', { query: { to } });
  const link = mailbox.body.data.messages[0]?.links[0];
  if (typeof link !== 'string') throw new Error(`no email with a link to ${to}`);
  return link;
}

/** The seed's first game playable on a desktop, with its provider and the secret that signs its game-wallet calls. */
export async function playableGame(server: TestServer): Promise<{ id: number; providerId: number; secret: string }> {
  const [game] = await server.db.query<{ id: number; provider_id: number; wallet_secret: string }>(
    `SELECT g.id::int AS id, g.provider_id::int AS provider_id, p.wallet_secret FROM games g JOIN providers p ON p.id = g.provider_id
     WHERE g.active AND p.active AND 'desktop' = ANY (g.devices) ORDER BY g.id LIMIT 1`,
  );
  if (!game) throw new Error('the seed has no playable game');
  return { id: game.id, providerId: game.provider_id, secret: game.wallet_secret };
}

/** A game-wallet call as the game's provider sends it: the JSON body signed with the provider's wallet key. */
export function signedGameWalletCall(server: TestServer, secret: string, operationId: string, body: Record<string, unknown>): Promise<CallResult> {
  const payload = JSON.stringify(body);
  return server.call(operationId, {
    raw: { payload, contentType: 'application/json' },
    headers: { 'x-game-signature': signGameWalletRequest(secret, payload) },
  });
}

export function tokenFrom(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** Signs up, verifies the email and logs in; returns the token and the signup payload. */
export async function registeredPlayer(server: TestServer, overrides: Record<string, unknown> = {}) {
  const payload = newPlayer(overrides);
  const signup = await server.call('userSignup', { body: payload });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const verify = await server.call('userVerifyEmail', { query: { token: tokenFrom(await latestLink(server, payload.email)) } });
  if (verify.status !== 200) throw new Error(`verification failed: ${JSON.stringify(verify.body)}`);
  const login = await server.call('userLogin', { body: { email: payload.email, password: payload.password } });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { token: login.body.data.accessToken as string, user: login.body.data.user, payload };
}
