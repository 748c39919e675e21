import { performance } from 'node:perf_hooks';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/db.ts';
import { createTokenService, databaseKeys } from '../../server/domain/tokens.ts';
import { encodePassword } from '../../src/rules/password.ts';
import { newPlayer, registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { checkResponse, recordCoverage } from '../helpers/contract.ts';
import { createTestDb, secondConnection } from '../helpers/db.ts';

/*
 * What keeps guessing, flooding and old sessions out, as every server instance on one database sees it:
 * the counters live in the database (two servers count together), wrong passwords slow their address
 * down without locking the owner out, the availability check is limited, an unknown login costs a hash
 * like a known one, the signing keys are shared through the database, and an inactivated account's
 * sessions stay ended.
 */

const PASSWORD = 'Secret@123'; // newPlayer's
const MINUTE = 60_000;

let db: Db;
let server: TestServer;
beforeAll(async () => {
  db = await createTestDb();
  server = await startTestServer({}, { db });
});
afterAll(async () => {
  await server?.close();
  await db?.close();
});
beforeEach(() => server.ctx.limiter.reset());

interface Answer {
  status: number;
  code: string | undefined;
  retryAfter: number | null;
  body: { data: Record<string, unknown>; errors: { description: string }[] };
}

/** userLogin from a client address of our choosing (app.inject's remoteAddress), checked against openapi.yaml. */
async function loginFrom(address: string, email: string, password = PASSWORD, target: TestServer = server): Promise<Answer> {
  const res = await target.app.inject({
    method: 'POST',
    url: '/api/v1/user/login',
    remoteAddress: address,
    payload: { email, password: encodePassword(password) },
  });
  const body = res.json<Answer['body']>();
  const violation = checkResponse('userLogin', res.statusCode, String(res.headers['content-type']), body);
  if (violation) throw new Error(violation);
  const code = body.errors[0]?.description;
  recordCoverage('userLogin', res.statusCode, code ?? null);
  const retryAfter = res.headers['retry-after'];
  return { status: res.statusCode, code, retryAfter: retryAfter === undefined ? null : Number(retryAfter), body };
}

const brief = (a: Answer) => [a.status, a.code ?? null];

describe('counters every server on the database shares', () => {
  it('counts signups of one address on two servers together: 10 an hour, not 10 on each', async () => {
    const other = await secondConnection(db);
    const second = await startTestServer({}, { db: other });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await (i % 2 === 0 ? server : second).call('userSignup', { body: newPlayer({ zipCode: '1234' }) });
        expect(res.status).toBe(400);
      }
      for (const s of [server, second]) {
        const limited = await s.call('userSignup', { body: newPlayer() });
        expect([limited.status, limited.body.errors[0].description]).toEqual([429, 'RATE_LIMITED']);
      }
    } finally {
      await second.close();
      await other.close();
    }
  });

  it('slows one address guessing one account down on both servers alike', async () => {
    const other = await secondConnection(db);
    const second = await startTestServer({}, { db: other });
    second.clock.set(server.clock.now());
    try {
      const { payload } = await registeredPlayer(server);
      for (let i = 0; i < 5; i++) {
        expect(brief(await loginFrom('203.0.113.7', payload.email, `Wrong@${i}x`, i % 2 === 0 ? server : second))).toEqual([
          422,
          'WRONG_PASSWORD',
        ]);
      }
      const limited = await loginFrom('203.0.113.7', payload.email, 'Wrong@9x', second);
      expect(brief(limited)).toEqual([429, 'RATE_LIMITED']);
      expect(limited.retryAfter).toBe(1);
    } finally {
      await second.close();
      await other.close();
    }
  });
});

describe('wrong passwords', () => {
  it('never hold the owner back on an address with no failures, whatever other addresses tried', async () => {
    const { payload } = await registeredPlayer(server);
    // 5 wrong passwords from one address, then one from each of 35 others: 40 in all (a count per account
    // that refused every password after 10 locked the owner out for 15 minutes).
    for (let i = 0; i < 5; i++) expect((await loginFrom('198.51.100.200', payload.email, `Guess@${i}x`)).status).toBe(422);
    for (let a = 0; a < 35; a++) expect((await loginFrom(`198.51.100.${a}`, payload.email, `Guess@${a}x`)).status).toBe(422);
    expect((await loginFrom('198.51.100.200', payload.email)).status).toBe(429);
    const owner = await loginFrom('192.0.2.10', payload.email);
    expect(owner.status).toBe(200);
    expect(owner.body.data.accessToken).toEqual(expect.any(String));
  });

  it('hold back an address that failed on an account under attack, by the account\'s own delay', async () => {
    const { payload } = await registeredPlayer(server);
    // 10 addresses, one wrong password each: each is under its own 5, the account reaches its 10.
    for (let a = 0; a < 10; a++) expect((await loginFrom(`198.51.100.${a}`, payload.email, `Guess@${a}x`)).status).toBe(422);
    const again = await loginFrom('198.51.100.0', payload.email, 'Guess@0y');
    expect(brief(again)).toEqual([429, 'RATE_LIMITED']);
    expect(again.retryAfter).toBe(1);
    // An address that has not failed is not held back by the account's count.
    expect((await loginFrom('198.51.100.99', payload.email, 'Guess@99x')).status).toBe(422);
    server.clock.advance(2_000);
    expect((await loginFrom('198.51.100.0', payload.email, 'Guess@0y')).status).toBe(422);
    // The account's delay grows with its failures (12 now: 4 s), and stops at 60 s.
    expect((await loginFrom('198.51.100.1', payload.email, 'Guess@1y')).retryAfter).toBe(4);
  });

  it('check only one of concurrent guesses past the free ones; the rest wait', async () => {
    const { payload } = await registeredPlayer(server);
    for (let i = 0; i < 5; i++) expect((await loginFrom('203.0.113.9', payload.email, `Wrong@${i}x`)).status).toBe(422);
    server.clock.advance(1_000);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => loginFrom('203.0.113.9', payload.email, `Wrong@1${i}x`)));
    expect(answers.filter((a) => a.status === 422)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
  });

  it('forget an address\'s failures 30 minutes after the last one', async () => {
    const { payload } = await registeredPlayer(server);
    for (let i = 0; i < 5; i++) expect((await loginFrom('203.0.113.11', payload.email, `Wrong@${i}x`)).status).toBe(422);
    expect((await loginFrom('203.0.113.11', payload.email, 'Wrong@6x')).status).toBe(429);
    server.clock.advance(30 * MINUTE);
    for (let i = 0; i < 5; i++) expect((await loginFrom('203.0.113.11', payload.email, `Later@${i}x`)).status).toBe(422);
  });

  it('slow down guesses of a name no account has as they slow down a known account\'s', async () => {
    const name = `Nobody-${Date.now()}@Example.com`;
    for (let i = 0; i < 5; i++) expect(brief(await loginFrom('203.0.113.21', name, `Wrong@${i}x`))).toEqual([404, 'USER_DOES_NOT_EXISTS']);
    // Counted on the name as logins compare it (any case), and on this address only.
    const held = await loginFrom('203.0.113.21', name.toLowerCase(), 'Wrong@6x');
    expect(brief(held)).toEqual([429, 'RATE_LIMITED']);
    expect(held.retryAfter).toBe(1);
    expect(brief(await loginFrom('203.0.113.22', name, 'Wrong@7x'))).toEqual([404, 'USER_DOES_NOT_EXISTS']);
    server.clock.advance(1_000);
    expect(brief(await loginFrom('203.0.113.21', name, 'Wrong@8x'))).toEqual([404, 'USER_DOES_NOT_EXISTS']);
  });

  it('cost an unknown login a password hash too, as long as a known account\'s wrong password', async () => {
    // A dear hash (about 20 times the tests' usual), so that its time stands well above the rest of a login.
    const costly = await startTestServer({ PASSWORD_HASH_MEMORY_KIB: '4096', PASSWORD_HASH_ITERATIONS: '40' }, { db });
    try {
      const { payload } = await registeredPlayer(costly);
      const time = async (email: string) => {
        const t0 = performance.now();
        const res = await loginFrom(`203.0.113.${Math.floor(Math.random() * 200)}`, email, 'Wrong@1x', costly);
        expect([404, 422]).toContain(res.status);
        return performance.now() - t0;
      };
      await time(`nobody-${Date.now()}@example.com`); // the first one makes the dummy hash
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 7; i++) {
        known.push(await time(payload.email));
        unknown.push(await time(`nobody-${i}-${Date.now()}@example.com`));
      }
      // The fastest of each (the least disturbed by whatever else runs): without the dummy hash an unknown
      // login took a few milliseconds against the hash's tens.
      expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
    } finally {
      await costly.close();
    }
  });
});

describe('userCheckUser', () => {
  it('answers 30 checks a minute per address, then 429 with Retry-After', async () => {
    for (let i = 0; i < 30; i++) expect((await server.call('userCheckUser', { query: { username: `someone${i}` } })).status).toBe(200);
    const limited = await server.call('userCheckUser', { query: { username: 'someone' } });
    expect([limited.status, limited.body.errors[0].description]).toEqual([429, 'RATE_LIMITED']);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    server.clock.advance(MINUTE);
    expect((await server.call('userCheckUser', { query: { username: 'someone' } })).status).toBe(200);
  });
});

describe('behind load balancers', () => {
  const loginVia = (target: TestServer, forwardedFor: string, email: string) =>
    target.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email, password: encodePassword(PASSWORD) },
    });

  it('count the client X-Forwarded-For names when the proxy is trusted (TRUST_PROXY), and ignore it otherwise', async () => {
    const behind = await startTestServer({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }, { db });
    try {
      for (let i = 0; i < 30; i++) expect((await loginVia(behind, '203.0.113.50', `ghost${i}@example.com`)).statusCode).toBe(404);
      expect((await loginVia(behind, '203.0.113.50', 'ghost@example.com')).statusCode).toBe(429);
      expect((await loginVia(behind, '203.0.113.51', 'ghost@example.com')).statusCode).toBe(404);
    } finally {
      await behind.close();
    }
    // Not trusted: a client naming itself another address each time is still one address.
    for (let i = 0; i < 30; i++) expect((await loginVia(server, `198.18.0.${i}`, `ghost${i}@example.com`)).statusCode).toBe(404);
    expect((await loginVia(server, '198.18.1.1', 'ghost@example.com')).statusCode).toBe(429);
  });

  it('keep uploads in DATA_DIR/uploads, or in UPLOADS_DIR, a folder the instances share', () => {
    expect(loadConfig({ DATA_DIR: '/srv/casino-a' }, '/app').uploadsDir).toBe('/srv/casino-a/uploads');
    expect(loadConfig({ DATA_DIR: '/srv/casino-a', UPLOADS_DIR: 'shared/uploads' }, '/app').uploadsDir).toBe('/app/shared/uploads');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});

describe('signing keys kept in the database', () => {
  it('are made once and shared: a token one server signs, another accepts; rotation and retirement', async () => {
    const now = server.clock.now();
    await db.query('DELETE FROM jwt_keys');
    const { user } = await registeredPlayer(server);
    const [a, b] = await Promise.all([createTokenService(databaseKeys(db), 3600), createTokenService(databaseKeys(db), 3600)]);
    const [fromA, fromB] = await Promise.all([a.issue(db, user.id, now), b.issue(db, user.id, now)]);
    expect((await db.query('SELECT id FROM jwt_keys')).length).toBe(1);
    expect(decodeProtectedHeader(fromA.accessToken).kid).toBe(decodeProtectedHeader(fromB.accessToken).kid);
    expect(await b.verify(db, fromA.accessToken, now)).toMatchObject({ userId: user.id, sessionId: fromA.sessionId, user: { id: user.id } });

    // A new key: servers that load the keys from now on sign with it, and the others accept its tokens.
    await db.query("INSERT INTO jwt_keys (secret) VALUES ('a-second-key-a-second-key-a-second-key-00')");
    const c = createTokenService(databaseKeys(db), 3600);
    const fromC = await c.issue(db, user.id, now);
    expect(decodeProtectedHeader(fromC.accessToken).kid).not.toBe(decodeProtectedHeader(fromA.accessToken).kid);
    // A key a server does not know is looked up at most once a second: a second later, a finds it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1_100);
      expect(await a.verify(db, fromC.accessToken, now)).toMatchObject({ userId: user.id, sessionId: fromC.sessionId, user: { id: user.id } });
    } finally {
      vi.useRealTimers();
    }

    // The first key retired: its tokens are refused.
    await db.query('UPDATE jwt_keys SET retired_at = now() WHERE id = $1', [Number(decodeProtectedHeader(fromA.accessToken).kid)]);
    const d = createTokenService(databaseKeys(db), 3600);
    expect(await d.verify(db, fromA.accessToken, now)).toBeNull();
    expect(await d.verify(db, fromC.accessToken, now)).toMatchObject({ userId: user.id, sessionId: fromC.sessionId, user: { id: user.id } });
    // b checked fromA before the retirement and keeps checked tokens: once it reads the keys again (every
    // minute), fromA is refused there too, and fromC still accepted.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await b.verify(db, fromA.accessToken, now)).toBeNull();
      expect(await b.verify(db, fromC.accessToken, now)).toMatchObject({ userId: user.id, sessionId: fromC.sessionId, user: { id: user.id } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an inactivated account', () => {
  it('keeps its sessions ended when the operator turns the flag in SQL and back', async () => {
    const { token, user } = await registeredPlayer(server);
    await db.query('UPDATE users SET active = false WHERE id = $1', [user.id]);
    const refused = await server.call('userGetUser', { token });
    expect([refused.status, refused.body.errors[0].description]).toEqual([403, 'USER_INACTIVE']);
    await db.query('UPDATE users SET active = true WHERE id = $1', [user.id]);
    const gone = await server.call('userGetUser', { token });
    expect([gone.status, gone.body.errors[0].description]).toEqual([401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED']);
  });
});
