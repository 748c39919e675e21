import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { appMachine, type RestoredSession } from '../../../src/machines/app.machine.ts';
import type { User } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { aUser, deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

const SIDE_EFFECTS = ['saveToken', 'clearStorage', 'resetFlows', 'navigate', 'notify', 'persistLanguage'] as const;

interface Fakes {
  restoreSession?: () => Promise<RestoredSession | null>;
  fetchProfile?: () => Promise<User>;
  logout?: () => Promise<void>;
  language?: 'en' | 'pt' | 'es';
}

function start(fakes: Fakes = {}) {
  const { spies, order } = recordedActions(SIDE_EFFECTS);
  const calls = { restoreSession: 0, fetchProfile: 0, logout: 0 };
  const machine = appMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => {
        calls.restoreSession += 1;
        return (fakes.restoreSession ?? (async () => null))();
      }),
      fetchProfile: fromPromise(async () => {
        calls.fetchProfile += 1;
        return (fakes.fetchProfile ?? (async () => aUser()))();
      }),
      logout: fromPromise(async () => {
        calls.logout += 1;
        return (fakes.logout ?? (async () => undefined))();
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine, { input: fakes.language ? { language: fakes.language } : {} }).start();
  return { actor, spies, order, calls };
}

/** A player logged in through SESSION.LOGGED_IN whose profile refetch has settled. */
async function asPlayer(fakes: Fakes = {}) {
  const app = start(fakes);
  await flush();
  app.actor.send({ type: 'SESSION.LOGGED_IN', accessToken: 'tok-1', user: aUser() });
  await flush();
  return app;
}

describe('appMachine: booting', () => {
  it('becomes a visitor when no token is saved, clearing nothing', async () => {
    const { actor, spies, calls } = start();
    expect(actor.getSnapshot().value).toBe('booting');
    await flush();
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(calls.restoreSession).toBe(1);
    expect(spies.clearStorage).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: null, user: null, language: 'en' });
  });

  it('becomes a player with the restored user and token', async () => {
    const user = aUser({ firstName: 'Rita' });
    const { actor, calls } = start({ restoreSession: async () => ({ accessToken: 'saved', user }) });
    await flush();
    expect(actor.getSnapshot().matches({ player: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: 'saved', user });
    // The restored profile is fresh: no second fetch.
    expect(calls.fetchProfile).toBe(0);
  });

  it('ends a saved session the server refuses (401) once, with the session-expired message', async () => {
    const restore = deferred<RestoredSession | null>();
    const { actor, spies } = start({ restoreSession: () => restore.promise });
    actor.send({ type: 'SESSION.EXPIRED' });
    expect(actor.getSnapshot().value).toBe('booting');
    restore.reject(new ApiFailure(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED'));
    await flush();
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(spies.clearStorage).toHaveBeenCalledTimes(1);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.sessionExpired' }]);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
  });

  it('clears the token when the check gets no answer', async () => {
    const { actor, spies } = start({ restoreSession: async () => Promise.reject(new ApiFailure(0, null)) });
    await flush();
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(spies.clearStorage).toHaveBeenCalledTimes(1);
  });

  it('tells an inactive account why it is a visitor (403 USER_INACTIVE)', async () => {
    const { actor, spies } = start({ restoreSession: async () => Promise.reject(new ApiFailure(403, 'USER_INACTIVE')) });
    await flush();
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(spies.clearStorage).toHaveBeenCalledTimes(1);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.inactive' }]);
  });
});

describe('appMachine: logging in', () => {
  it('saves the token, stores the user, then refetches the profile', async () => {
    const profile = deferred<User>();
    const { actor, spies, calls } = start({ fetchProfile: () => profile.promise });
    await flush();
    const loginUser = aUser({ firstName: 'Login' });
    actor.send({ type: 'SESSION.LOGGED_IN', accessToken: 'tok-1', user: loginUser });
    expect(actor.getSnapshot().matches({ player: 'refreshing' })).toBe(true);
    expect(paramsOf(spies.saveToken)).toEqual([{ accessToken: 'tok-1' }]);
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: 'tok-1', user: loginUser });
    const fresh = aUser({ firstName: 'Fresh' });
    profile.resolve(fresh);
    await flush();
    expect(calls.fetchProfile).toBe(1);
    expect(actor.getSnapshot().matches({ player: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(fresh);
  });

  it('keeps the login user when the refetch gets no answer', async () => {
    const { actor, spies } = await asPlayer({ fetchProfile: async () => Promise.reject(new ApiFailure(0, null)) });
    expect(actor.getSnapshot().matches({ player: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(aUser());
    expect(spies.clearStorage).not.toHaveBeenCalled();
  });

  it('ends the session of an account inactivated meanwhile', async () => {
    const { actor, spies, order } = await asPlayer({
      fetchProfile: async () => Promise.reject(new ApiFailure(403, 'USER_INACTIVE')),
    });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: null, user: null });
    expect(order).toEqual(['saveToken', 'clearStorage', 'resetFlows', 'navigate', 'notify']);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.inactive' }]);
  });

  it('treats a 401 on the refetch as an expired session', async () => {
    const { actor, spies } = await asPlayer({
      fetchProfile: async () => Promise.reject(new ApiFailure(401, 'SESSION_EXPIRED')),
    });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.sessionExpired' }]);
  });
});

describe('appMachine: session expiry (SPEC §6)', () => {
  it('clears the session, returns to / and says the session expired', async () => {
    const { actor, spies, order } = await asPlayer();
    order.length = 0;
    actor.send({ type: 'SESSION.EXPIRED' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: null, user: null });
    expect(order).toEqual(['clearStorage', 'resetFlows', 'navigate', 'notify']);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.sessionExpired' }]);
  });

  it('is ignored by a visitor', async () => {
    const { actor, order } = start();
    await flush();
    actor.send({ type: 'SESSION.EXPIRED' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(order).toEqual([]);
  });
});

describe('appMachine: an account inactivated during the session (SPEC §6)', () => {
  it('clears the session, returns to / and says the account was inactivated', async () => {
    const { actor, spies, order } = await asPlayer();
    order.length = 0;
    actor.send({ type: 'SESSION.INACTIVE' });
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: null, user: null });
    expect(order).toEqual(['clearStorage', 'resetFlows', 'navigate', 'notify']);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', message: 'messages.inactive' }]);
  });

  it('is ignored by a visitor and while logging out', async () => {
    const visitor = start();
    await flush();
    visitor.actor.send({ type: 'SESSION.INACTIVE' });
    expect(visitor.actor.getSnapshot().value).toBe('visitor');
    expect(visitor.order).toEqual([]);

    const answer = deferred<void>();
    const { actor, spies, order } = await asPlayer({ logout: () => answer.promise });
    order.length = 0;
    actor.send({ type: 'LOGOUT' });
    actor.send({ type: 'SESSION.INACTIVE' });
    expect(actor.getSnapshot().matches({ player: 'loggingOut' })).toBe(true);
    answer.reject(new ApiFailure(403, 'USER_INACTIVE'));
    await flush();
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.logoutSuccess' }]);
  });
});

describe('appMachine: logout', () => {
  it('calls logout, then resets everything and says so', async () => {
    const answer = deferred<void>();
    const { actor, spies, order, calls } = await asPlayer({ logout: () => answer.promise });
    order.length = 0;
    actor.send({ type: 'LOGOUT' });
    expect(actor.getSnapshot().matches({ player: 'loggingOut' })).toBe(true);
    actor.send({ type: 'LOGOUT' });
    answer.resolve();
    await flush();
    expect(calls.logout).toBe(1);
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context).toMatchObject({ accessToken: null, user: null });
    expect(order).toEqual(['clearStorage', 'resetFlows', 'navigate', 'notify']);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.logoutSuccess' }]);
  });

  it('resets the same way when the logout call fails, without a session-expired notice', async () => {
    const answer = deferred<void>();
    const { actor, spies, order } = await asPlayer({ logout: () => answer.promise });
    order.length = 0;
    actor.send({ type: 'LOGOUT' });
    // The client's 401 hook fires before the call's own failure arrives.
    actor.send({ type: 'SESSION.EXPIRED' });
    answer.reject(new ApiFailure(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED'));
    await flush();
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(order).toEqual(['clearStorage', 'resetFlows', 'navigate', 'notify']);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.logoutSuccess' }]);
  });

  it('can log out while the profile is still being refetched', async () => {
    const profile = deferred<User>();
    const { actor, calls } = start({ fetchProfile: () => profile.promise });
    await flush();
    actor.send({ type: 'SESSION.LOGGED_IN', accessToken: 'tok-1', user: aUser() });
    actor.send({ type: 'LOGOUT' });
    await flush();
    profile.resolve(aUser({ firstName: 'Late' }));
    await flush();
    expect(calls.logout).toBe(1);
    expect(actor.getSnapshot().value).toBe('visitor');
    expect(actor.getSnapshot().context.user).toBeNull();
  });
});

describe('appMachine: user and language', () => {
  it('stores an updated user only for a player', async () => {
    const visitor = start();
    await flush();
    visitor.actor.send({ type: 'USER.UPDATED', user: aUser() });
    expect(visitor.actor.getSnapshot().context.user).toBeNull();

    const { actor } = await asPlayer();
    const updated = aUser({ city: 'Porto' });
    actor.send({ type: 'USER.UPDATED', user: updated });
    expect(actor.getSnapshot().context.user).toEqual(updated);
  });

  it('starts in the stored language and persists a change in any state', async () => {
    const { actor, spies } = start({ language: 'pt' });
    expect(actor.getSnapshot().context.language).toBe('pt');
    actor.send({ type: 'LANGUAGE.CHANGE', language: 'es' });
    expect(actor.getSnapshot().value).toBe('booting');
    expect(actor.getSnapshot().context.language).toBe('es');
    await flush();
    actor.send({ type: 'LANGUAGE.CHANGE', language: 'en' });
    expect(actor.getSnapshot().context.language).toBe('en');
    expect(paramsOf(spies.persistLanguage)).toEqual([{ language: 'es' }, { language: 'en' }]);
  });
});
