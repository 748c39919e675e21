import { createElement, type ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setup as setupGoober } from 'goober';
import { onTestFinished, vi } from 'vitest';
import { fromPromise, type InspectionEvent, type NonReducibleUnknown } from 'xstate';
import { createTranslator, LANGUAGE_STORAGE_KEY, type Language } from '../../../src/i18n/index.ts';
import type { ApiActors } from '../../../src/machines/actors.ts';
import type { AppEvent, AppInput, RestoredSession } from '../../../src/machines/app.machine.ts';
import type { NavigateParams, Notice } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { Settings } from '../../../src/machines/settings.machine.ts';
import type { Bet, VerifiedBet } from '../../../src/machines/fairness.machine.ts';
import { DEFAULT_SETTINGS } from '../machines/fixtures.ts';
import type { SocialSignIn } from '../../../src/views/social.ts';
import { TranslatorContext } from '../../../src/views/i18n-context.ts';
import { createWiring, LOGIN_TIME_STORAGE_KEY, WiringContext, type LiveSource, type Outside, type Wiring } from '../../../src/views/wiring.ts';

// The app calls goober's setup in its mount function (src/views/App.tsx); the views need it too.
setupGoober(createElement);

/** An actor a test did not expect to run: it fails as "no answer". */
function unexpected<TOutput, TInput = NonReducibleUnknown>() {
  return fromPromise<TOutput, TInput>(async () => {
    throw new ApiFailure(0, null);
  });
}

/** Every API actor failing, for a test to replace the ones its dialog calls. */
function failingActors(): ApiActors {
  return {
    restoreSession: unexpected(),
    fetchProfile: unexpected(),
    logout: unexpected(),
    login: unexpected(),
    googleLogin: unexpected(),
    facebookLogin: unexpected(),
    signup: unexpected(),
    loadCountries: unexpected(),
    updateProfile: unexpected(),
    loadAddresses: unexpected(),
    addAddress: unexpected(),
    updateAddress: unexpected(),
    removeAddress: unexpected(),
    uploadProfileImage: unexpected(),
    removeProfileImage: unexpected(),
    verifyEmail: unexpected(),
    forgotPassword: unexpected(),
    resetPassword: unexpected(),
    loadPages: unexpected(),
    loadSettings: unexpected(),
    loadNotifications: unexpected(),
    markNotificationsRead: unexpected(),
    loadWallets: unexpected(),
    selectWallet: unexpected(),
    loadPaymentProviders: unexpected(),
    loadPaymentActivity: unexpected(),
    requestDepositAddress: unexpected(),
    requestWithdrawal: unexpected(),
    loadBonusOffers: unexpected(),
    loadUserBonuses: unexpected(),
    loadBonusDetail: unexpected(),
    claimBonus: unexpected(),
    forfeitBonus: unexpected(),
    loadReferral: unexpected(),
    claimReferral: unexpected(),
    loadLimits: unexpected(),
    saveLimits: unexpected(),
    selfExclude: unexpected(),
    saveSessionLimit: unexpected(),
    loadDocumentLabels: unexpected(),
    loadDocuments: unexpected(),
    uploadDocument: unexpected(),
    updatePassword: unexpected(),
    resendVerificationEmail: unexpected(),
    loadTransactions: unexpected(),
    loadCategories: unexpected(),
    loadSubCategories: unexpected(),
    loadProviders: unexpected(),
    loadBanners: unexpected(),
    loadGames: unexpected(),
    loadFavouriteGames: unexpected(),
    toggleFavourite: unexpected(),
    launchGame: unexpected(),
    launchDemo: unexpected(),
    loadGameSession: unexpected(),
    loadHouseTable: unexpected(),
    loadBetHistory: unexpected(),
  };
}

export interface Harness extends RenderResult {
  /** The app's wiring (src/views/wiring.ts), built on the fakes below. */
  services: Wiring;
  /** Events the views and flows sent to the app actor, in order. */
  appEvents: AppEvent[];
  notices: Notice[];
  navigations: string[];
  loginTimes: (string | null)[];
  /** The fake local storage the wiring writes to. */
  storage: Storage;
  user: ReturnType<typeof userEvent.setup>;
  /** The app actor's named side effects, in order, as it took them. */
  appEffects: AppEffect[];
}

/** A named side effect of the app machine (src/machines/app.machine.ts), as the harness recorded it. */
export type AppEffect =
  | { type: 'saveToken'; params: { accessToken: string } }
  | { type: 'clearStorage' }
  | { type: 'resetFlows' }
  | { type: 'navigate'; params: NavigateParams }
  | { type: 'notify'; params: Notice }
  | { type: 'persistLanguage'; params: { language: Language } };

const APP_EFFECTS = new Set(['saveToken', 'clearStorage', 'resetFlows', 'navigate', 'notify', 'persistLanguage']);

/**
 * The app actor as a test wants it: its own actors (by default a session restore that finds nothing
 * saved, a profile fetch that gets no answer, a logout that succeeds) and its input.
 */
export interface AppOptions {
  actors?: Partial<Pick<ApiActors, 'restoreSession' | 'fetchProfile' | 'logout'>>;
  input?: AppInput;
}

/** SDKs that were not expected to load: they fail as an unreachable script does. */
const unavailableSocial: SocialSignIn = {
  renderGoogleButton: async () => {
    throw new Error('Google SDK not available in this test');
  },
  facebookLogin: async () => {
    throw new Error('Facebook SDK not available in this test');
  },
};

export interface HarnessOptions {
  actors?: Partial<ApiActors>;
  /** Replaces parts of the default settings the settings actor loads. */
  settings?: Partial<Settings>;
  social?: Partial<SocialSignIn>;
  language?: Language;
  /** Replaces the settings actor's loader (which otherwise answers at once with the settings above). */
  loadSettings?: ApiActors['loadSettings'];
  /** Inspects every actor the wiring starts (the model-based tests record their transitions). */
  inspect?: (event: InspectionEvent) => void;
  /** Also called with every navigation (after it is recorded): to move a test's router, say. */
  navigate?: Outside['navigate'];
  /** The address the view starts at (default '/'); navigations move it. */
  address?: string;
  /** The app actor's actors and input. */
  app?: AppOptions;
  /** The live events the flows receive (default: none ever come). */
  live?: LiveSource;
  /** The clipboard (default: refused). */
  copyText?: Outside['copyText'];
  /** The withdrawal's Idempotency-Keys (default: random). */
  newIdempotencyKey?: Outside['newIdempotencyKey'];
  readClock?: Outside['readClock'];
  /** The share sheet (default: none, it rejects). */
  share?: Outside['share'];
  /** The server's clock (default: the device's). */
  serverNow?: Outside['serverNow'];
  /** The /fairness page's recomputation (default: src/fairness in this process). */
  verifyBet?: (bet: Bet, signal: AbortSignal) => Promise<VerifiedBet>;
}

/** Local storage in memory, one per rendered view. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

/**
 * Gives goober one shared style sheet. It finds its sheet through `window._goober`, which browsers resolve
 * by the element's id but happy-dom does not: without this every styled render adds a <style> element,
 * and queries slow down as they pile up.
 */
export function shareGooberSheet(): void {
  const host = window as unknown as { _goober?: Element };
  if (host._goober?.isConnected) return;
  let sheet = document.getElementById('_goober');
  if (!sheet) {
    sheet = document.head.appendChild(document.createElement('style'));
    sheet.id = '_goober';
    sheet.textContent = ' ';
  }
  host._goober = sheet;
}

export function renderWithServices(ui: ReactElement, options: HarnessOptions = {}): Harness {
  shareGooberSheet();
  const appEvents: AppEvent[] = [];
  const notices: Notice[] = [];
  const navigations: string[] = [];
  const loginTimes: (string | null)[] = [];
  const appEffects: AppEffect[] = [];
  const storage = new MemoryStorage();
  const language = options.app?.input?.language ?? options.language;
  if (language) storage.setItem(LANGUAGE_STORAGE_KEY, language);
  // The login time the social sign-in stores, as the tests read it.
  const setItem = storage.setItem.bind(storage);
  storage.setItem = (key, value) => {
    if (key === LOGIN_TIME_STORAGE_KEY) loginTimes.push(value);
    setItem(key, value);
  };
  let address = new URL(options.address ?? '/', 'http://localhost');
  // The app actor is known once the wiring has created it; its own effects are recorded by inspection.
  let appActor: unknown = null;
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.action' && event.actorRef === appActor && APP_EFFECTS.has(event.action.type)) {
      const { type, params } = event.action;
      appEffects.push((params === undefined ? { type } : { type, params }) as AppEffect);
    }
    options.inspect?.(event);
  };
  const services = createWiring({
    actors: {
      ...failingActors(),
      restoreSession: fromPromise<RestoredSession | null>(async () => null),
      logout: fromPromise<void>(async () => undefined),
      loadSettings: options.loadSettings ?? fromPromise<Settings>(async () => ({ ...DEFAULT_SETTINGS, ...options.settings })),
      ...options.actors,
      ...options.app?.actors,
    },
    social: { ...unavailableSocial, ...options.social },
    storage,
    notify: (notice) => void notices.push(notice),
    navigate: (to, navigateOptions) => {
      navigations.push(to);
      address = new URL(to, address);
      options.navigate?.(to, navigateOptions);
    },
    address: () => ({ path: address.pathname, search: address.search }),
    resetFlows: () => undefined,
    showLanguage: () => undefined,
    live: options.live ?? { subscribe: () => () => undefined },
    copyText: options.copyText ?? (() => Promise.reject(new Error('no clipboard in this test'))),
    newIdempotencyKey: options.newIdempotencyKey ?? (async () => crypto.randomUUID()),
    ...(options.readClock ? { readClock: options.readClock } : {}),
    share: options.share ?? (() => Promise.reject(new Error('no share sheet in this test'))),
    ...(options.serverNow ? { serverNow: options.serverNow } : {}),
    inspect: (event) => {
      if (appActor === null && event.type === '@xstate.actor') appActor = event.actorRef;
      inspect(event);
    },
  });
  // The app's long-lived actors stop with the test that started them (its rendering is unmounted by the
  // setup file tests/setup/dom-cleanup.ts).
  onTestFinished(() => {
    services.app.stop();
    services.settings.stop();
  });
  const { verifyBet } = options;
  if (verifyBet) services.flows.fairness = { actors: { verifyBet: fromPromise<VerifiedBet, Bet>(({ input, signal }) => verifyBet(input, signal)) } };
  const send = services.app.send.bind(services.app);
  vi.spyOn(services.app, 'send').mockImplementation((event: AppEvent) => {
    appEvents.push(event);
    send(event);
  });
  const user = userEvent.setup();
  const result = render(
    <TranslatorContext.Provider value={createTranslator(language ?? 'en')}>
      <WiringContext.Provider value={services}>{ui}</WiringContext.Provider>
    </TranslatorContext.Provider>,
  );
  return { ...result, services, appEvents, notices, navigations, loginTimes, storage, user, appEffects };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A promise the test settles when it wants, to look at a dialog while a call is in flight. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
