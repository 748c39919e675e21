import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type NonReducibleUnknown } from 'xstate';
import { LANGUAGE_STORAGE_KEY } from '../../../src/i18n/index.ts';
import type { ApiActors } from '../../../src/machines/actors.ts';
import type { Notice } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { machines } from '../../../src/machines/index.ts';
import { loginMachine, type Session } from '../../../src/machines/login.machine.ts';
import type { RestoredSession } from '../../../src/machines/app.machine.ts';
import type { Settings } from '../../../src/machines/settings.machine.ts';
import { socialSignInMachine, type SocialSession } from '../../../src/machines/socialSignIn.machine.ts';
import { createWiring, LOGIN_TIME_STORAGE_KEY, provide, TOKEN_STORAGE_KEY, type Outside } from '../../../src/views/wiring.ts';
import { aUser, DEFAULT_SETTINGS, flush } from '../machines/fixtures.ts';
import { MemoryStorage } from './harness.tsx';

/*
 * The composition root (src/views/wiring.ts) without any view: what each flow's named actions do to the
 * rest of the app, with the outside world (API, storage, address bar, toasts) faked.
 */

function noAnswer<TOutput, TInput = NonReducibleUnknown>() {
  return fromPromise<TOutput, TInput>(async () => {
    throw new ApiFailure(0, null);
  });
}

function wire(options: { address?: string; actors?: Partial<ApiActors>; settings?: Partial<Settings>; language?: string } = {}) {
  const storage = new MemoryStorage();
  if (options.language) storage.setItem(LANGUAGE_STORAGE_KEY, options.language);
  const notices: Notice[] = [];
  const navigations: string[] = [];
  const facebookCalls: { appId: string; locale: string }[] = [];
  let address = new URL(options.address ?? '/', 'http://localhost');
  const outside: Outside = {
    actors: {
      restoreSession: fromPromise<RestoredSession | null>(async () => null),
      fetchProfile: noAnswer(),
      logout: fromPromise<void>(async () => undefined),
      login: noAnswer(),
      googleLogin: noAnswer(),
      facebookLogin: noAnswer(),
      signup: noAnswer(),
      loadCountries: noAnswer(),
      updateProfile: noAnswer(),
      loadAddresses: noAnswer(),
      addAddress: noAnswer(),
      updateAddress: noAnswer(),
      removeAddress: noAnswer(),
      uploadProfileImage: noAnswer(),
      removeProfileImage: noAnswer(),
      verifyEmail: noAnswer(),
      forgotPassword: noAnswer(),
      resetPassword: noAnswer(),
      loadPages: noAnswer(),
      loadSettings: fromPromise<Settings>(async () => ({ ...DEFAULT_SETTINGS, ...options.settings })),
      loadNotifications: noAnswer(),
      markNotificationsRead: noAnswer(),
      loadWallets: noAnswer(),
      selectWallet: noAnswer(),
      loadPaymentProviders: noAnswer(),
      loadPaymentActivity: noAnswer(),
      requestDepositAddress: noAnswer(),
      requestWithdrawal: noAnswer(),
      loadBonusOffers: noAnswer(),
      loadUserBonuses: noAnswer(),
      loadBonusDetail: noAnswer(),
      claimBonus: noAnswer(),
      forfeitBonus: noAnswer(),
      loadReferral: noAnswer(),
      claimReferral: noAnswer(),
      loadLimits: noAnswer(),
      saveLimits: noAnswer(),
      selfExclude: noAnswer(),
      saveSessionLimit: noAnswer(),
      loadDocumentLabels: noAnswer(),
      loadDocuments: noAnswer(),
      uploadDocument: noAnswer(),
      updatePassword: noAnswer(),
      resendVerificationEmail: noAnswer(),
      loadTransactions: noAnswer(),
      loadCategories: noAnswer(),
      loadSubCategories: noAnswer(),
      loadProviders: noAnswer(),
      loadBanners: noAnswer(),
      loadGames: noAnswer(),
      loadFavouriteGames: noAnswer(),
      toggleFavourite: noAnswer(),
      launchGame: noAnswer(),
      launchDemo: noAnswer(),
      loadGameSession: noAnswer(),
      loadHouseTable: noAnswer(),
      loadBetHistory: noAnswer(),
      ...options.actors,
    },
    social: {
      renderGoogleButton: async () => () => undefined,
      facebookLogin: async (request) => {
        facebookCalls.push(request);
        return { accessToken: 'fb-token', userID: 'fb-1' };
      },
    },
    storage,
    notify: (notice) => void notices.push(notice),
    navigate: (to) => {
      navigations.push(to);
      address = new URL(to, address);
    },
    address: () => ({ path: address.pathname, search: address.search }),
    resetFlows: () => undefined,
    showLanguage: () => undefined,
    inspect: () => undefined,
    live: { subscribe: () => () => undefined },
    copyText: () => Promise.resolve(),
    newIdempotencyKey: () => Promise.resolve('7f3e9c2a-5b1d-4e8f-9a6c-0d2b4f6e8a1c'),
    share: () => Promise.reject(new Error('no share sheet in this test')),
  };
  const wiring = createWiring(outside);
  return { wiring, storage, notices, navigations, facebookCalls };
}

const session: Session = { accessToken: 'token-1', user: aUser() };

async function logIn(world: ReturnType<typeof wire>) {
  const login = createActor(provide(loginMachine, world.wiring.flows)).start();
  login.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana7' });
  login.send({ type: 'FIELD.CHANGE', field: 'password', value: 'Secret1!' });
  login.send({ type: 'SUBMIT' });
  await flush();
  return login;
}

describe('the composition root', () => {
  it('has the implementations of every flow a view runs, under the machine ids', () => {
    const { wiring } = wire();
    const roots = ['app', 'settings'];
    // The house games' pages are documents of their own, wired at src/views/house/wiring.ts.
    const housePages = ['houseTable', 'houseSeeds', 'mines'];
    const flows = Object.values(machines).filter((machine) => !roots.includes(machine.id) && !housePages.includes(machine.id));
    expect(Object.keys(wiring.flows).sort()).toEqual(flows.map((machine) => machine.id).sort());
    expect(Object.keys(machines).sort()).toEqual([...roots, ...housePages, ...Object.keys(wiring.flows)].sort());
  });

  it("starts the session when a login succeeds, closes the login dialog in the address and says so", async () => {
    const world = wire({ address: '/casino?dialog=login&ref=ANA', actors: { login: fromPromise(async () => session) } });
    await flush();
    const login = await logIn(world);
    expect(login.getSnapshot().status).toBe('done');
    expect(world.wiring.app.getSnapshot().matches('player')).toBe(true);
    expect(world.wiring.app.getSnapshot().context.accessToken).toBe('token-1');
    expect(world.storage.getItem(TOKEN_STORAGE_KEY)).toBe('token-1');
    // Only the dialog leaves the address: the screen and the rest of the query stay.
    expect(world.navigations).toEqual(['/casino?ref=ANA']);
    expect(world.notices).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
  });

  it('leaves a player-only dialog in the address when the login in front of it succeeds', async () => {
    const world = wire({ address: '/?dialog=notifications', actors: { login: fromPromise(async () => session) } });
    await flush();
    await logIn(world);
    expect(world.wiring.app.getSnapshot().matches('player')).toBe(true);
    expect(world.navigations).toEqual([]);
  });

  it('starts the session from a social sign-in, keeps its login time, and asks Facebook with the configured app and the language', async () => {
    const social: SocialSession = { accessToken: 'token-2', user: aUser({ lastLoginAt: '2026-11-20T08:00:00.000Z' }), isNewUser: false };
    const world = wire({
      address: '/?dialog=register',
      language: 'pt',
      settings: { socialLogin: { googleClientId: null, facebookAppId: 'fb-app' } },
      actors: { facebookLogin: fromPromise(async () => social) },
    });
    await flush();
    const flow = createActor(provide(socialSignInMachine, world.wiring.flows)).start();
    flow.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(world.facebookCalls).toEqual([{ appId: 'fb-app', locale: 'pt' }]);
    expect(flow.getSnapshot().status).toBe('done');
    expect(world.wiring.app.getSnapshot().context.accessToken).toBe('token-2');
    expect(world.storage.getItem(LOGIN_TIME_STORAGE_KEY)).toBe('2026-11-20T08:00:00.000Z');
    expect(world.navigations).toEqual(['/']);
  });

  it('fails the Facebook sign-in when the server has no Facebook app configured', async () => {
    const world = wire({ settings: { socialLogin: { googleClientId: null, facebookAppId: null } } });
    await flush();
    const flow = createActor(provide(socialSignInMachine, world.wiring.flows)).start();
    flow.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(world.facebookCalls).toEqual([]);
    expect(flow.getSnapshot().matches('failed')).toBe(true);
  });

  it('clears the session from storage on logout but keeps the language, and says goodbye', async () => {
    const world = wire({ language: 'es', actors: { login: fromPromise(async () => session) } });
    await flush();
    await logIn(world);
    world.wiring.app.send({ type: 'LOGOUT' });
    await flush();
    expect(world.wiring.app.getSnapshot().matches('visitor')).toBe(true);
    expect(world.storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(world.storage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
    expect(world.notices.at(-1)).toEqual({ tone: 'success', message: 'messages.logoutSuccess' });
    expect(world.navigations.at(-1)).toBe('/');
  });
});
