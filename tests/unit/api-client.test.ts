import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, defaultBaseUrl, QUIET_UNAUTHORIZED_PATHS, REQUEST_TIMEOUT_MS } from '../../src/api/client.ts';

// Node has no page origin to resolve '/api/v1' against: the tests give the client an absolute base.
const baseUrl = 'http://casino.test/api/v1';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('the API client', () => {
  it('talks to /api/v1 on its own origin unless VITE_API_URL says otherwise', () => {
    expect(defaultBaseUrl()).toBe('/api/v1');
  });

  it('sends the saved token as a bearer token, with credentials', async () => {
    const seen: Request[] = [];
    const client = createApiClient({
      baseUrl,
      getToken: () => 'token-1',
      onUnauthorized: () => {},
      fetch: async (input) => {
        seen.push(input as Request);
        return jsonResponse(200, { data: { user: {} }, errors: [] });
      },
    });
    await client.GET('/user/get-user');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer token-1');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/v1/user/get-user');
    expect(seen[0]?.credentials).toBe('include');
  });

  it("hands every answer's Date header to onServerDate, errors included, and null where there is none", async () => {
    const dates: (string | null)[] = [];
    const answers = [
      new Response(JSON.stringify({ data: {}, errors: [] }), { status: 200, headers: { date: 'Sun, 01 Mar 2026 12:00:00 GMT' } }),
      new Response(JSON.stringify({ data: null, errors: [{ code: 'X' }] }), { status: 401, headers: { date: 'Sun, 01 Mar 2026 12:00:05 GMT' } }),
      jsonResponse(200, { data: {}, errors: [] }),
    ];
    const client = createApiClient({
      baseUrl,
      getToken: () => null,
      onUnauthorized: () => {},
      onServerDate: (date) => void dates.push(date),
      fetch: async () => answers.shift()!,
    });
    for (let call = 0; call < 3; call += 1) await client.GET('/common/get-languages');
    expect(dates).toEqual(['Sun, 01 Mar 2026 12:00:00 GMT', 'Sun, 01 Mar 2026 12:00:05 GMT', null]);
  });

  it('sends no Authorization header without a token', async () => {
    let header: string | null = 'unset';
    const client = createApiClient({
      baseUrl,
      getToken: () => null,
      onUnauthorized: () => {},
      fetch: async (input) => {
        header = (input as Request).headers.get('authorization');
        return jsonResponse(200, { data: {}, errors: [] });
      },
    });
    await client.GET('/common/get-languages');
    expect(header).toBeNull();
  });

  it('reports every 401 to the app, and only 401s', async () => {
    const onUnauthorized = vi.fn();
    let status = 401;
    const client = createApiClient({
      baseUrl,
      getToken: () => 'stale',
      onUnauthorized,
      fetch: async () =>
        jsonResponse(status, { data: {}, errors: [{ name: 'Unauthorized', description: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' }] }),
    });
    const answer = await client.GET('/user/get-user');
    expect(answer.response.status).toBe(401);
    expect(answer.error?.errors[0]?.description).toBe('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    status = 422;
    await client.GET('/user/get-user');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reports a 403 USER_INACTIVE to a call made with a token, and leaves the body to the caller', async () => {
    const onInactive = vi.fn();
    let token: string | null = 'live';
    let code = 'USER_INACTIVE';
    const client = createApiClient({
      baseUrl,
      getToken: () => token,
      onUnauthorized: () => {},
      onInactive,
      fetch: async () => jsonResponse(403, { data: {}, errors: [{ name: 'Forbidden', description: code }] }),
    });
    const answer = await client.GET('/user/get-user');
    expect(answer.error?.errors[0]?.description).toBe('USER_INACTIVE');
    expect(onInactive).toHaveBeenCalledTimes(1);
    // Another refusal, or a visitor's login refused for the same reason, is the caller's business.
    code = 'SELF_EXCLUDED';
    await client.GET('/user/get-user');
    code = 'USER_INACTIVE';
    token = null;
    await client.POST('/user/login', { body: { email: 'ana7', password: 'U2VjcmV0QDEyMw==' } });
    expect(onInactive).toHaveBeenCalledTimes(1);
  });

  it('keeps the session on a 401 from the claimed-bonus list, which SPEC §6 ignores silently', async () => {
    expect(QUIET_UNAUTHORIZED_PATHS).toEqual(['/bonus/user']);
    const onUnauthorized = vi.fn();
    const client = createApiClient({
      baseUrl,
      getToken: () => 'stale',
      onUnauthorized,
      fetch: async () =>
        jsonResponse(401, { data: {}, errors: [{ name: 'Unauthorized', description: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' }] }),
    });
    const quiet = await client.GET('/bonus/user', { params: { query: { page: 1, limit: 10 } } });
    // The caller still sees the 401; only the session is left alone.
    expect(quiet.response.status).toBe(401);
    expect(onUnauthorized).not.toHaveBeenCalled();
    await client.GET('/user/get-user');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

/** A fetch that never answers, as real fetch does it: it gives up only when the request's signal aborts. */
function hangingFetch(seen: Request[] = []): typeof fetch {
  return (input) => {
    const request = input as Request;
    seen.push(request);
    return new Promise<Response>((_, reject) => {
      if (request.signal.aborted) reject(request.signal.reason);
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });
  };
}

/** `call`, or 'still waiting' if it has not settled after `ms`: a missing timeout fails fast, not at the test timeout. */
function within<T>(call: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([call, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
}

/** Node's garbage collector, reachable without starting the worker with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

describe('the API client: timeout and abort (SPEC §9)', () => {
  it('waits 30 seconds by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it('gives up on a request that gets no answer after timeoutMs', async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl, getToken: () => 'token-1', onUnauthorized: () => {}, timeoutMs: 50, fetch: hangingFetch(seen) });
    const started = Date.now();
    const outcome = await within(
      client.GET('/user/get-user').then(
        () => 'answered',
        (error: unknown) => error,
      ),
      2_000,
    );
    expect(outcome).toBeInstanceOf(DOMException);
    expect((outcome as DOMException).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    // The request that went out is the one that was aborted, and it still carries the token.
    expect(seen).toHaveLength(1);
    expect(seen[0]?.signal.aborted).toBe(true);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer token-1');
  });

  it("still aborts when the caller's own signal does, long before the timeout", async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl, getToken: () => null, onUnauthorized: () => {}, fetch: hangingFetch(seen) });
    const controller = new AbortController();
    const call = client.GET('/user/get-user', { signal: controller.signal }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]?.signal.aborted).toBe(false);
    const reason = new Error('the actor stopped');
    controller.abort(reason);
    expect(await within(call, 2_000)).toBe(reason);
    expect(seen[0]?.signal.aborted).toBe(true);
  });

  it('sends nothing live when the caller has aborted already', async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl, getToken: () => null, onUnauthorized: () => {}, fetch: hangingFetch(seen) });
    const reason = new Error('gone');
    const outcome = await within(
      client.GET('/user/get-user', { signal: AbortSignal.abort(reason) }).then(
        () => 'answered',
        (error: unknown) => error,
      ),
      2_000,
    );
    expect(outcome).toBe(reason);
  });

  it('does not abort a request that is answered in time', async () => {
    const seen: Request[] = [];
    const client = createApiClient({
      baseUrl,
      getToken: () => null,
      onUnauthorized: () => {},
      timeoutMs: 1_000,
      fetch: async (input) => {
        seen.push(input as Request);
        return jsonResponse(200, { data: { user: {} }, errors: [] });
      },
    });
    const answer = await client.GET('/user/get-user');
    expect(answer.response.status).toBe(200);
    expect(seen[0]?.signal.aborted).toBe(false);
  });
});

describe('the API client against a real server that never answers (Node fetch)', () => {
  let server: Server | null = null;

  afterEach(async () => {
    const open = server;
    server = null;
    if (!open) return;
    open.closeAllConnections();
    await new Promise<void>((resolve) => open.close(() => resolve()));
  });

  /** A local server that reads requests and never answers; `closed` settles when a request's connection goes away. */
  async function silentServer() {
    const received: IncomingMessage[] = [];
    let closedOne: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      closedOne = resolve;
    });
    server = createServer((request) => {
      received.push(request);
      request.socket.on('close', () => closedOne());
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { base: `http://127.0.0.1:${port}/api/v1`, received, closed };
  }

  it('the timeout reaches the network: the connection is dropped, even after a garbage collection', async () => {
    const { base, received, closed } = await silentServer();
    // No fetch option: the client uses Node's own fetch (undici).
    const client = createApiClient({ baseUrl: base, getToken: () => 'token-1', onUnauthorized: () => {}, timeoutMs: 300 });
    const call = client.GET('/user/get-user').then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.url).toBe('/api/v1/user/get-user');
    expect(received[0]?.headers.authorization).toBe('Bearer token-1');
    // AbortSignal.timeout/any lose the abort here in Node 20 (nodejs/node#57736): the request would hang.
    collectGarbage();
    const outcome = await within(call, 3_000);
    expect(outcome).toBeInstanceOf(DOMException);
    expect((outcome as DOMException).name).toBe('TimeoutError');
    expect(await within(closed, 2_000)).toBeUndefined();
  });

  it("the caller's abort reaches the network too", async () => {
    const { base, received, closed } = await silentServer();
    const client = createApiClient({ baseUrl: base, getToken: () => null, onUnauthorized: () => {} });
    const controller = new AbortController();
    const call = client.GET('/user/get-user', { signal: controller.signal }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(received).toHaveLength(1));
    collectGarbage();
    const reason = new Error('the actor stopped');
    controller.abort(reason);
    expect(await within(call, 2_000)).toBe(reason);
    expect(await within(closed, 2_000)).toBeUndefined();
  });
});
