import { describe, expect, it, vi } from 'vitest';
import { isSubscription } from '../../../src/machines/live.ts';
import { operationOf } from '../../../src/flows/operations.ts';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { createApiClient } from '../../../src/api/client.ts';
import { createApiActors, failureFromAnswer } from '../../../src/machines/actors.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { machines } from '../../../src/machines/index.ts';
import { encodePassword } from '../../../src/rules/password.ts';
import { aUser } from './fixtures.ts';

const BASE = 'http://casino.test/api/v1';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const failure = (status: number, name: string, code: string, fields?: { field: string; code: string }[]) =>
  json(status, { data: {}, errors: [{ name, description: code, ...(fields ? { fields } : {}) }] });

/** An API at BASE answered by `handler`, with the token `saved` in storage. */
function fakeApi(handler: (request: Request) => Response | Promise<Response>, options: { saved?: string | null; timeoutMs?: number } = {}) {
  const requests: Request[] = [];
  const onUnauthorized = vi.fn();
  const saved = options.saved === undefined ? 'tok-1' : options.saved;
  const client = createApiClient({
    baseUrl: BASE,
    getToken: () => saved,
    onUnauthorized,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      return handler(request);
    },
  });
  const actors = createApiActors(client, { readToken: () => saved });
  return { actors, requests, onUnauthorized };
}

function run(logic: AnyActorLogic, input?: unknown): Promise<unknown> {
  const actor = createActor(logic, { input });
  const done = toPromise(actor);
  actor.start();
  return done;
}

describe('createApiActors: answers', () => {
  it('login posts the body with the bearer token and maps the session', async () => {
    const user = aUser();
    const { actors, requests } = fakeApi(() =>
      json(200, { data: { accessToken: 'new-token', expiresAt: '2030-01-01T00:00:00.000Z', user }, errors: [] }),
    );
    const body = { email: 'ana7', password: encodePassword('Secret@123') };
    await expect(run(actors.login, body)).resolves.toEqual({ accessToken: 'new-token', user });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`${BASE}/user/login`);
    expect(request!.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(await request!.json()).toEqual(body);
  });

  it('social logins map the session and isNewUser', async () => {
    const user = aUser({ authProvider: 'google' });
    const answer = { data: { accessToken: 't', expiresAt: '2030-01-01T00:00:00.000Z', user, isNewUser: true }, errors: [] };
    const { actors, requests } = fakeApi(() => json(200, answer));
    await expect(run(actors.googleLogin, { credential: 'jwt' })).resolves.toEqual({ accessToken: 't', user, isNewUser: true });
    await expect(run(actors.facebookLogin, { accessToken: 'fb', userID: '1' })).resolves.toEqual({
      accessToken: 't',
      user,
      isNewUser: true,
    });
    expect(requests.map((request) => request.url)).toEqual([`${BASE}/user/google-login`, `${BASE}/user/facebook-login`]);
  });

  it('restoreSession reads the saved token and fetches the user; nothing saved, no call', async () => {
    const user = aUser();
    const saved = fakeApi(() => json(200, { data: { user }, errors: [] }), { saved: 'saved-token' });
    await expect(run(saved.actors.restoreSession)).resolves.toEqual({ accessToken: 'saved-token', user });
    expect(saved.requests.map((request) => `${request.method} ${request.url}`)).toEqual([`GET ${BASE}/user/get-user`]);

    const empty = fakeApi(() => json(500, {}), { saved: null });
    await expect(run(empty.actors.restoreSession)).resolves.toBeNull();
    expect(empty.requests).toEqual([]);
  });

  it('fetchProfile, signup, loadCountries and verifyEmail return their data', async () => {
    const user = aUser();
    const countries = [{ code: 'PT', name: 'Portugal', phoneCode: '+351', states: [{ code: '11', name: 'Lisboa' }] }];
    const { actors, requests } = fakeApi((request) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith('/common/get-countries')) return json(200, { data: { countries }, errors: [] });
      if (path.endsWith('/user/verify-email')) return json(200, { data: { success: true, email: user.email }, errors: [] });
      return json(200, { data: { user }, errors: [] });
    });
    await expect(run(actors.fetchProfile)).resolves.toEqual(user);
    await expect(run(actors.signup, { email: user.email })).resolves.toEqual(user);
    await expect(run(actors.loadCountries)).resolves.toEqual(countries);
    await expect(run(actors.verifyEmail, { token: 'a b&c' })).resolves.toEqual({ email: user.email });
    expect(requests.at(-1)!.url).toBe(`${BASE}/user/verify-email?token=a%20b%26c`);
  });

  it('logout, forgotPassword and resetPassword resolve on success', async () => {
    const { actors, requests } = fakeApi(() => json(200, { data: { success: true }, errors: [] }));
    await expect(run(actors.logout)).resolves.toBeUndefined();
    await expect(run(actors.forgotPassword, { email: 'ana@example.com' })).resolves.toBeUndefined();
    await expect(run(actors.resetPassword, { token: 't', newPassword: encodePassword('Secret@123') })).resolves.toBeUndefined();
    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/v1/user/logout',
      'POST /api/v1/user/forgot-password',
      'POST /api/v1/user/verify-forgot-password',
    ]);
  });

  it('loadNotifications asks for the page and maps rows, count and unread count', async () => {
    const rows = [{ id: 5, title: 'Deposit received', message: 'Credited.', read: false, createdAt: '2025-02-01T18:05:00.000Z' }];
    const { actors, requests } = fakeApi(() =>
      json(200, { data: { notifications: { rows, count: 21 }, unreadCount: 3 }, errors: [] }),
    );
    await expect(run(actors.loadNotifications, { page: 2, limit: 20 })).resolves.toEqual({ rows, count: 21, unreadCount: 3 });
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET ${BASE}/common/user-notification?page=2&limit=20`,
    ]);
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer tok-1');
  });

  it('markNotificationsRead posts the ids and resolves on success', async () => {
    const { actors, requests } = fakeApi(() => json(200, { data: { success: true }, errors: [] }));
    await expect(run(actors.markNotificationsRead, { notificationIds: [5, 6] })).resolves.toBeUndefined();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([`POST ${BASE}/common/user-notification/read`]);
    expect(await requests[0]!.json()).toEqual({ notificationIds: [5, 6] });
  });
});

describe('createApiActors: failures', () => {
  it('throws an ApiFailure with the status, the code and the field errors', async () => {
    const { actors } = fakeApi(() =>
      failure(400, 'BadRequest', 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'password', code: 'password.uppercase' }]),
    );
    const error = await run(actors.signup, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error).toMatchObject({
      status: 400,
      code: 'PLEASE_CHECK_REQUEST_DATA',
      fields: [{ field: 'password', code: 'password.uppercase' }],
    });
  });

  it('keeps the code of a refusal', async () => {
    const { actors } = fakeApi(() => failure(422, 'UnprocessableEntity', 'WRONG_PASSWORD'));
    await expect(run(actors.login, { email: 'ana7', password: 'eA==' })).rejects.toMatchObject({
      status: 422,
      code: 'WRONG_PASSWORD',
      fields: [],
    });
  });

  it('a 401 calls the client hook and fails with its code', async () => {
    const { actors, onUnauthorized } = fakeApi(() => failure(401, 'Unauthorized', 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED'));
    await expect(run(actors.fetchProfile)).rejects.toMatchObject({ status: 401, code: 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('an answer that is not the error envelope has no code', async () => {
    const { actors } = fakeApi(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(run(actors.loadCountries)).rejects.toMatchObject({ status: 502, code: null, fields: [] });
  });

  it('no answer (network failure) is status 0 with no code', async () => {
    const { actors } = fakeApi(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await run(actors.forgotPassword, { email: 'ana@example.com' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error).toMatchObject({ status: 0, code: null });
  });

  it('a timeout is status 0 with no code', async () => {
    const { actors } = fakeApi(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
      { timeoutMs: 20 },
    );
    await expect(run(actors.fetchProfile)).rejects.toMatchObject({ status: 0, code: null });
  });

  it('stopping the actor aborts its request', async () => {
    let aborted = false;
    const { actors, requests } = fakeApi(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => {
            aborted = true;
            reject(request.signal.reason);
          });
        }),
    );
    const actor = createActor(actors.logout).start();
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    actor.stop();
    await vi.waitFor(() => expect(aborted).toBe(true));
  });

  it('failureFromAnswer reads only well-formed field errors', () => {
    const read = failureFromAnswer(400, {
      data: {},
      errors: [{ name: 'BadRequest', description: 'PLEASE_CHECK_REQUEST_DATA', fields: [{ field: 'a', code: 'x' }, { field: 1 }] }],
    });
    expect(read.fields).toEqual([{ field: 'a', code: 'x' }]);
    expect(failureFromAnswer(500, 'oops')).toMatchObject({ status: 500, code: null });
    expect(failureFromAnswer(500, { errors: [] })).toMatchObject({ status: 500, code: null });
  });
});

describe('createApiActors: fits the machines', () => {
  it('every machine takes the real actors', () => {
    const { actors } = fakeApi(() => json(500, {}));
    // Type-checked: each machine accepts the real implementations of the actors it names.
    const provided = [
      machines.app.provide({ actors }),
      machines.login.provide({ actors }),
      machines.register.provide({ actors }),
      machines.verifyEmail.provide({ actors }),
      machines.forgotPassword.provide({ actors }),
      machines.resetPassword.provide({ actors }),
      machines.notifications.provide({ actors }),
      machines.unreadNotifications.provide({ actors }),
      machines.wallets.provide({ actors }),
      machines.deposit.provide({ actors }),
      machines.withdraw.provide({ actors }),
      machines.transactions.provide({ actors }),
    ];
    for (const machine of provided) {
      // Subscriptions (the live updates) and the browser's own effects (the clipboard) are the app's, not the API client's.
      const named = Object.keys(machine.implementations.actors).filter((name) => !isSubscription(name) && operationOf(name)?.api !== false);
      for (const name of named) expect(actors).toHaveProperty(name);
    }
  });
});
