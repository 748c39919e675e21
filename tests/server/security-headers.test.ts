import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/db.ts';
import { registeredPlayer, startTestServer, type TestServer } from '../helpers/api.ts';
import { createTestDb } from '../helpers/db.ts';

/*
 * The browser-facing protections (server/http/security.ts) on every kind of answer: the SPA's documents
 * and files, the house games' pages the SPA frames, the API's answers and errors; the sign-in SDKs'
 * origins only when those logins are configured; HSTS only over https; CORS only for allowed origins.
 * The browser tests (tests/e2e/visitor.test.ts, social.test.ts, house-games.test.ts) check that the
 * built SPA runs under this policy with no violation.
 */

let spaDir: string;
let db: Db;
const servers = new Map<string, Promise<TestServer>>();

/** A server with these settings on the file's database, started once. */
function server(env: Record<string, string> = {}): Promise<TestServer> {
  const key = JSON.stringify(env);
  let started = servers.get(key);
  if (!started) {
    started = startTestServer(env, { db, spaDir });
    servers.set(key, started);
  }
  return started;
}

beforeAll(async () => {
  spaDir = mkdtempSync(join(tmpdir(), 'casino-spa-'));
  mkdirSync(join(spaDir, 'assets'));
  mkdirSync(join(spaDir, 'house'));
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>casino</title><script type="module" src="/assets/index-abc.js"></script>');
  writeFileSync(join(spaDir, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(join(spaDir, 'house', 'dice.html'), '<!doctype html><title>dice</title>');
  db = await createTestDb();
});

afterAll(async () => {
  for (const started of servers.values()) await (await started).close();
  await db.close();
  rmSync(spaDir, { recursive: true, force: true });
});

/** A CSP header as its directives: name → sources. */
function directives(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

async function get(on: TestServer, url: string, headers: Record<string, string> = {}) {
  return on.app.inject({ method: 'GET', url, headers });
}

describe('security headers', () => {
  it('give the SPA, its files and its client routes a strict policy: scripts from this origin only, never framed', async () => {
    const app = await server();
    for (const url of ['/', '/assets/index-abc.js', '/casino?tab=slots', '/index.html']) {
      const response = await get(app, url);
      expect(response.statusCode, url).toBe(200);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      // The SPA frames the house games' pages, which are its own.
      expect(csp.get('frame-src'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      // goober writes its rules into a <style> element at run time: inline styles, never inline scripts.
      expect(csp.get('style-src'), url).toEqual(["'self'", "'unsafe-inline'"]);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('let the SPA frame the house games, and nobody else', async () => {
    const app = await server();
    const response = await get(app, '/house/dice.html?session=abc');
    expect(response.statusCode).toBe(200);
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('give every API answer, errors and unknown routes included, a policy that loads nothing', async () => {
    const app = await server();
    const answers = [
      await app.call('commonGetSettings'),
      await app.call('userGetUser', { token: 'not-a-token' }),
      await app.call('userLogin', { raw: { payload: '{', contentType: 'application/json' } }),
    ];
    const unknown = await get(app, '/api/v1/no-such-operation');
    const statuses = [...answers.map((answer) => answer.status), unknown.statusCode];
    expect(statuses).toEqual([200, 401, 400, 404]);
    for (const headers of [...answers.map((answer) => answer.headers), unknown.headers]) {
      const csp = directives(headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it("name Google's and Facebook's SDK origins only when those logins are configured", async () => {
    const plain = directives((await get(await server(), '/')).headers['content-security-policy']);
    expect([...plain.values()].flat().filter((source) => /google|facebook/.test(source))).toEqual([]);

    const social = await server({ GOOGLE_CLIENT_ID: 'casino-test.apps.googleusercontent.com', FACEBOOK_APP_ID: '1234567890', FACEBOOK_APP_SECRET: 'fb-secret' });
    const csp = directives((await get(social, '/login')).headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/client', 'https://connect.facebook.net']);
    expect(csp.get('frame-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/', 'https://*.facebook.com']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/', 'https://*.facebook.com']);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style']);
    // The house games' pages never load the SDKs.
    const house = directives((await get(social, '/house/dice.html')).headers['content-security-policy']);
    expect(house.get('script-src')).toEqual(["'self'"]);

    // A Facebook app id without its secret shows no Facebook button: its SDK is not allowed either.
    const idOnly = directives((await get(await server({ FACEBOOK_APP_ID: '1234567890' }), '/')).headers['content-security-policy']);
    expect(idOnly.get('script-src')).toEqual(["'self'"]);
  });

  it('send HSTS when the public address is https', async () => {
    const app = await server({ PUBLIC_URL: 'https://casino.example' });
    for (const url of ['/', '/assets/index-abc.js', '/house/dice.html', '/api/v1/common/get-settings', '/api/v1/nope']) {
      expect((await get(app, url)).headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
  });
});

describe('CORS', () => {
  it('is same origin by default: no CORS header for another origin, and no preflight', async () => {
    const app = await server();
    const read = await get(app, '/api/v1/common/get-settings', { origin: 'https://elsewhere.example' });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/user/login',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.json()).toEqual({ data: {}, errors: [{ name: 'NotFound', description: 'NOT_FOUND' }] });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the allowed origins call the API, and no other', async () => {
    const app = await server({ CORS_ORIGINS: 'https://app.example, http://localhost:5173' });
    const allowed = await get(app, '/api/v1/common/get-settings', { origin: 'https://app.example' });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(allowed.headers.vary).toMatch(/Origin/);
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
    // The SPA on that origin reads Retry-After, and Date for the server's clock (src/api/serverClock.ts).
    expect(allowed.headers['access-control-expose-headers']).toBe('retry-after, date');

    const preflight = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/payment/coin-payments/withdraw',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));

    const other = await get(app, '/api/v1/common/get-settings', { origin: 'https://app.example.evil.test' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const otherPreflight = await app.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/user/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(otherPreflight.statusCode).toBe(404);
    expect(otherPreflight.headers['access-control-allow-origin']).toBeUndefined();
    // The SPA's own pages are never shared cross-origin.
    expect((await get(app, '/', { origin: 'https://app.example' })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it("gives the live-updates stream, which its handler writes itself, the API's headers and CORS", async () => {
    const app = await server({ CORS_ORIGINS: 'https://app.example, http://localhost:5173' });
    const { token } = await registeredPlayer(app);
    const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    try {
      const response = await fetch(`${address}/api/v1/user/events`, {
        headers: { authorization: `Bearer ${token}`, origin: 'https://app.example' },
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(directives(response.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      abort.abort();
    }
  });

  it('refuses CORS_ORIGINS entries that are not origins', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example,http://b.example:8080' }).corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    for (const bad of ['*', 'https://a.example/', 'a.example', 'https://a.example/path', 'ftp://a.example']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});

describe('the pages the policy is written for', () => {
  it('have no inline script: every <script> of index.html and the house pages loads a file', () => {
    const pages = ['index.html', ...readdirSync('house').filter((name) => name.endsWith('.html')).map((name) => join('house', name))];
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      const scripts = readFileSync(page, 'utf8').match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, page).toMatch(/\bsrc=/);
      expect(readFileSync(page, 'utf8'), page).not.toMatch(/\son[a-z]+=/i);
    }
  });
});
