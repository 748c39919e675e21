import { createContext, useContext, useState } from 'react';
import { useActorRef } from '@xstate/react';
import { createActor, fromPromise, type ActorRefFrom, type AnyStateMachine, type InputFrom, type InspectionEvent } from 'xstate';
import { navigate as navigateTo } from 'wouter/use-browser-location';
import { createApiClient, defaultBaseUrl } from '../api/client.ts';
import { createServerClock } from '../api/serverClock.ts';
import type { LiveStream } from './live-stream.ts';
import {
  createTranslator,
  LANGUAGE_STORAGE_KEY,
  loadScreensDictionaries,
  storedLanguage,
  type Language,
  type MessageKey,
} from '../i18n/index.ts';
import { createApiActors, type ApiActors } from '../machines/actors.ts';
import { appMachine } from '../machines/app.machine.ts';
import type { Notice, User } from '../machines/effects.ts';
import { liveEventsActor, type LiveEvent } from '../machines/live.ts';
import type { forgotPasswordMachine } from '../machines/forgotPassword.machine.ts';
import type { loginMachine, Session } from '../machines/login.machine.ts';
import type { notificationsMachine } from '../machines/notifications.machine.ts';
import type { pageMachine } from '../machines/page.machine.ts';
import type { registerMachine } from '../machines/register.machine.ts';
import type { profileMachine } from '../machines/profile.machine.ts';
import type { addressesMachine } from '../machines/addresses.machine.ts';
import type { profilePictureMachine } from '../machines/profilePicture.machine.ts';
import type { resetPasswordMachine } from '../machines/resetPassword.machine.ts';
import { settingsMachine } from '../machines/settings.machine.ts';
import type { FacebookLoginRequest, socialSignInMachine } from '../machines/socialSignIn.machine.ts';
import type { unreadNotificationsMachine } from '../machines/unreadNotifications.machine.ts';
import type { verifyEmailMachine } from '../machines/verifyEmail.machine.ts';
import type { walletsMachine } from '../machines/wallets.machine.ts';
import type { depositMachine } from '../machines/deposit.machine.ts';
import type { withdrawMachine } from '../machines/withdraw.machine.ts';
import type { referralMachine, ShareRequest } from '../machines/referral.machine.ts';
import type { transactionsMachine } from '../machines/transactions.machine.ts';
import type { gameListMachine } from '../machines/gameList.machine.ts';
import type { lobbyMachine } from '../machines/lobby.machine.ts';
import type { gameRowMachine } from '../machines/gameRow.machine.ts';
import type { favouriteMachine } from '../machines/favourite.machine.ts';
import type { launchMachine } from '../machines/launch.machine.ts';
import type { betHistoryMachine } from '../machines/betHistory.machine.ts';
import type { Bet, fairnessMachine, VerifiedBet } from '../machines/fairness.machine.ts';
import type { bonusesMachine } from '../machines/bonuses.machine.ts';
import type { bonusClaimMachine } from '../machines/bonusClaim.machine.ts';
import type { bonusForfeitMachine } from '../machines/bonusForfeit.machine.ts';
import type { limitsMachine } from '../machines/limits.machine.ts';
import type { selfExclusionMachine } from '../machines/selfExclusion.machine.ts';
import type { sessionLimitMachine } from '../machines/sessionLimit.machine.ts';
import type { realityCheckMachine } from '../machines/realityCheck.machine.ts';
import type { documentsMachine } from '../machines/documents.machine.ts';
import type { changePasswordMachine } from '../machines/changePassword.machine.ts';
import type { resendVerificationMachine } from '../machines/resendVerification.machine.ts';
import type { SocialSignIn } from './social.ts';
import { flowInspector } from './flows/inspector.ts';
import { withParams } from './address.ts';

/*
 * The composition root: the one place where every machine gets its real actors and actions
 * (ARCHITECTURE: `machine.provide` at one place). Views take a running flow with `useFlow(machine)` and
 * only read its state and send it events. Only the root machines are imported here: a flow's machine
 * comes with the lazily loaded view that renders it, and meets its implementations in `useFlow`. What one flow tells another (a login starting the session, a flow
 * closing its dialog) is a named action of its machine, so it shows in the flow charts, and is given its
 * meaning here.
 *
 * The world outside the flows (the API, storage, toasts, the address bar, the sign-in SDKs) comes in as
 * `Outside`: the browser's in the app (src/views/App.tsx), fakes that record what they are asked in tests.
 */

export const TOKEN_STORAGE_KEY = 'casino.token';
export const LOGIN_TIME_STORAGE_KEY = 'casino.lastLoginAt';
/** Sent by the resetFlows action; the app restarts every flow it renders. */
export const RESET_FLOWS_EVENT = 'casino:reset-flows';
/** Sent with the first toast: the app mounts its toast area then (the toast library is loaded on demand). */
export const TOAST_EVENT = 'casino:toast';
let toastShown = false;
let toasterMounted: () => void = () => {};
const toasterReady = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});

/** Called by the toast area once it is on the page: a toast's time (SPEC §9: 2000 ms) counts from then. */
export function toastAreaMounted(): void {
  toasterMounted();
}

/** Whether a toast was asked for already (one may come while the app is still mounting: a session that ended). */
export function toastRequested(): boolean {
  return toastShown;
}

/**
 * Shows a toast (SPEC §9) in the language the player has now. The toast library, the error catalogue and
 * the messages of failures are chunks of their own, fetched with the first toast, not in the first load.
 */
async function showToast(notice: Notice, language: Language): Promise<void> {
  toastShown = true;
  window.dispatchEvent(new Event(TOAST_EVENT));
  // The toast waits for the area that shows it: made before, it would spend its 2 seconds unseen.
  const [{ default: toast }, { errorMessageKey }] = await Promise.all([
    import('react-hot-toast'),
    import('../api/errors.ts'),
    loadScreensDictionaries(),
    toasterReady,
  ]);
  const { t } = createTranslator(language);
  if ('message' in notice) {
    const text = t(notice.message as MessageKey);
    if (notice.tone === 'success') toast.success(text);
    else toast.error(text);
  } else {
    toast.error(t(errorMessageKey(notice.code, notice.fallback)));
  }
}

/** Google's and Facebook's sign-in boundary, loaded when a dialog first offers them. */
function lazySocialSignIn(): SocialSignIn {
  let social: Promise<SocialSignIn> | null = null;
  const load = () => (social ??= import('./social.ts').then((module) => module.createSocialSignIn()));
  return {
    renderGoogleButton: (element, options) => load().then((sdk) => sdk.renderGoogleButton(element, options)),
    facebookLogin: (options) => load().then((sdk) => sdk.facebookLogin(options)),
  };
}

/**
 * Where the game page's close leads: the page the game was opened from (`from`, an address of this site),
 * else the lobby. Anything but a path of this site ('//elsewhere', 'https://...') leads to the lobby.
 */
export function returnAddress(search: string): string {
  const from = new URLSearchParams(search).get('from') ?? '';
  return from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') ? from : '/';
}

/** Dialogs a flow closes when it has done its work (the login and register dialogs, `?dialog=` in the address). */
const ACCOUNT_DIALOGS = ['login', 'register'];

export interface Outside {
  actors: ApiActors;
  social: SocialSignIn;
  /** Local storage, or null where the browser refuses it (private mode). */
  storage: Storage | null;
  /** Shows a toast (SPEC §9). */
  notify(notice: Notice): void;
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The address now, path and query ('?dialog=login'); dialogs open and close there. */
  address(): { path: string; search: string };
  /** Every flow the views render starts again (logout, session end: nothing of the session survives). */
  resetFlows(): void;
  /** The document's language (`<html lang>`), for screen readers and the browser. */
  showLanguage(language: Language): void;
  /** Inspects every actor (the /flows screen's live states; the model tests' recorder). */
  inspect?: (event: InspectionEvent) => void;
  /** The session's live updates (GET /user/events), for the machines' `liveEvents` actor. */
  live: LiveSource;
  /** Puts text on the clipboard; rejects when the browser refuses. */
  copyText(text: string): Promise<void>;
  /** A new random Idempotency-Key (a withdrawal's confirmation carries one). */
  newIdempotencyKey(): Promise<string>;
  /** The browser's share sheet (the Web Share API); rejects where there is none, or when it is closed. */
  share(data: ShareRequest): Promise<void>;
  /** The server's time now in ms (src/api/serverClock.ts); the device's own (Date.now) unless given. */
  serverNow?: () => number;
  /** This device's time now (ISO 8601); `new Date()` unless given. */
  readClock?: () => Promise<string>;
}

/** Where live events come from: the session's stream in the browser, a fake that sends what a test says. */
export interface LiveSource {
  /** Calls `listener` with every live event until the returned function is called. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

function safely(write: () => void): void {
  try {
    write();
  } catch {
    // Storage full or refused: the session goes on without it.
  }
}

/** Every flow a view runs, by machine id (a unit test keeps this list and src/machines/index.ts in step). */
interface FlowMachines {
  login: typeof loginMachine;
  socialSignIn: typeof socialSignInMachine;
  register: typeof registerMachine;
  profile: typeof profileMachine;
  addresses: typeof addressesMachine;
  profilePicture: typeof profilePictureMachine;
  verifyEmail: typeof verifyEmailMachine;
  forgotPassword: typeof forgotPasswordMachine;
  resetPassword: typeof resetPasswordMachine;
  notifications: typeof notificationsMachine;
  unreadNotifications: typeof unreadNotificationsMachine;
  page: typeof pageMachine;
  wallets: typeof walletsMachine;
  deposit: typeof depositMachine;
  withdraw: typeof withdrawMachine;
  referral: typeof referralMachine;
  transactions: typeof transactionsMachine;
  gameList: typeof gameListMachine;
  lobby: typeof lobbyMachine;
  gameRow: typeof gameRowMachine;
  favourite: typeof favouriteMachine;
  launch: typeof launchMachine;
  betHistory: typeof betHistoryMachine;
  fairness: typeof fairnessMachine;
  bonuses: typeof bonusesMachine;
  bonusClaim: typeof bonusClaimMachine;
  bonusForfeit: typeof bonusForfeitMachine;
  limits: typeof limitsMachine;
  selfExclusion: typeof selfExclusionMachine;
  sessionLimit: typeof sessionLimitMachine;
  realityCheck: typeof realityCheckMachine;
  documents: typeof documentsMachine;
  changePassword: typeof changePasswordMachine;
  resendVerification: typeof resendVerificationMachine;
}
export type FlowName = keyof FlowMachines;
type FlowMachine = FlowMachines[FlowName];
type Implementations<TMachine extends AnyStateMachine> = Parameters<TMachine['provide']>[0];
export type FlowImplementations = { [N in FlowName]: Implementations<FlowMachines[N]> };

function createFlows(
  outside: Outside,
  app: ActorRefFrom<typeof appMachine>,
  settings: ActorRefFrom<typeof settingsMachine>,
): FlowImplementations {
  const { actors, notify } = outside;
  const notifyAction = (_: unknown, notice: Notice) => notify(notice);
  const sessionStarted = (_: unknown, session: Session) =>
    app.send({ type: 'SESSION.LOGGED_IN', accessToken: session.accessToken, user: session.user });
  // A flow that has done its work closes its account dialog; in front of a player-only dialog (a visitor
  // asked for their notifications), that dialog stays in the address and shows once logged in.
  const closeDialog = () => {
    const { path, search } = outside.address();
    const params = new URLSearchParams(search);
    if (!ACCOUNT_DIALOGS.includes(params.get('dialog') ?? '')) return;
    params.delete('dialog');
    const query = params.toString();
    outside.navigate(query ? `${path}?${query}` : path);
  };
  const navigate = (_: unknown, params: { to: string }) => outside.navigate(params.to);
  // SPEC §6: a visitor asked to log in for something of a player's: the message, and the login dialog over the page.
  const askToLogIn = () => {
    outside.notify({ tone: 'error', message: 'messages.pleaseLogin' });
    outside.navigate(withParams(outside.address(), { dialog: 'login' }));
  };
  // Every flow that shows what the server changes on its own subscribes to the session's one stream.
  const liveEvents = liveEventsActor((listener) => outside.live.subscribe(listener));
  const newIdempotencyKey = fromPromise<string>(() => outside.newIdempotencyKey());
  const readClock = fromPromise<string, undefined>(() => (outside.readClock ? outside.readClock() : Promise.resolve(new Date().toISOString())));
  const copyText = fromPromise<void, { text: string }>(({ input }) => outside.copyText(input.text));
  // Every flow takes its actors and actions by name from one set: a machine names what it needs (its
  // chart and the index of operations say which), and the set names each effect once, so the first load
  // carries no per-flow lists. Only the two meanings of askToLogIn differ by flow.
  const shared = {
    actors: {
      ...actors,
      liveEvents,
      newIdempotencyKey,
      readClock,
      copyText,
      shareLink: fromPromise<void, ShareRequest>(({ input }) => outside.share(input)),
      askFacebook: fromPromise<FacebookLoginRequest | null>(async () => {
        const appId = settings.getSnapshot().context.settings?.socialLogin.facebookAppId ?? null;
        if (appId === null) throw new Error('Facebook sign-in is not configured');
        return outside.social.facebookLogin({ appId, locale: app.getSnapshot().context.language });
      }),
      // src/fairness in this browser (WebCrypto), its code loaded with the first bet verified.
      verifyBet: fromPromise<VerifiedBet, Bet>(({ input }) => import('../machines/fairness.verify.ts').then((m) => m.verifyBet(input))),
    },
    actions: {
      notify: notifyAction,
      navigate,
      sessionStarted,
      closeDialog,
      storeLoginTime: (_: unknown, params: { at: string | null }) => {
        if (params.at) safely(() => outside.storage?.setItem(LOGIN_TIME_STORAGE_KEY, params.at ?? ''));
      },
      updateUser: (_: unknown, { user }: { user: User }) => app.send({ type: 'USER.UPDATED', user }),
      // Ending the session is the app's logout (self-exclusion).
      endSession: () => app.send({ type: 'LOGOUT' }),
      limitReached: (_: unknown, { playedMs }: { playedMs: number }) => app.send({ type: 'SESSION.LIMIT_REACHED', playedMs }),
      // The search goes into the address in place of the entry: Back leaves the grid, not each search.
      showSearch: (_: unknown, { q }: { q: string }) => outside.navigate(withParams(outside.address(), { q }), { replace: true }),
      // The bonus screen's forfeit confirmation closes.
      close: () => outside.navigate(withParams(outside.address(), { forfeit: '' })),
      showSession: (_: unknown, { sessionId }: { sessionId: string }) => {
        const from = new URLSearchParams(outside.address().search).get('from');
        outside.navigate(`/play/${encodeURIComponent(sessionId)}${from ? `?from=${encodeURIComponent(from)}` : ''}`, { replace: true });
      },
      leave: () => outside.navigate(returnAddress(outside.address().search)),
    },
  };

  // The flows without actions of their own.
  const readOnly = { actors: shared.actors };

  return {
    login: shared,
    socialSignIn: shared,
    register: shared,
    verifyEmail: shared,
    forgotPassword: shared,
    resetPassword: shared,
    notifications: readOnly,
    unreadNotifications: readOnly,
    page: readOnly,
    wallets: shared,
    deposit: shared,
    withdraw: shared,
    referral: shared,
    transactions: readOnly,
    profile: shared,
    addresses: shared,
    profilePicture: shared,
    gameList: shared,
    lobby: readOnly,
    gameRow: shared,
    // A heart: the message, and the login dialog over the page.
    favourite: { actors: shared.actors, actions: { ...shared.actions, askToLogIn } },
    // A real-money game: the login dialog, no message.
    launch: { actors: shared.actors, actions: { ...shared.actions, askToLogIn: () => outside.navigate(withParams(outside.address(), { dialog: 'login' })) } },
    betHistory: readOnly,
    bonuses: readOnly,
    bonusClaim: shared,
    bonusForfeit: shared,
    limits: shared,
    selfExclusion: shared,
    sessionLimit: shared,
    realityCheck: shared,
    documents: shared,
    changePassword: shared,
    resendVerification: shared,
    fairness: readOnly,
  };
}


export interface Wiring {
  /** The root: boot, session, language. */
  app: ActorRefFrom<typeof appMachine>;
  /** The server's public settings, loaded once at start (which social sign-ins are configured, limits). */
  settings: ActorRefFrom<typeof settingsMachine>;
  /** Google's and Facebook's SDKs, loaded on first use (their buttons are drawn by the views). */
  social: SocialSignIn;
  /** Every other flow's real actors and actions, by machine id, for the view that runs it (useFlow). */
  flows: FlowImplementations;
  inspect: (event: InspectionEvent) => void;
  /** Opens a dialog or a screen from a view's link or button. */
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The server's time now in ms, for times the server gave (a session's start). */
  serverNow(): number;
}

export function createWiring(outside: Outside): Wiring {
  const { actors, storage } = outside;
  const inspect = outside.inspect ?? flowInspector;
  const app = createActor(
    appMachine.provide({
      actors: { restoreSession: actors.restoreSession, fetchProfile: actors.fetchProfile, logout: actors.logout },
      actions: {
        saveToken: (_, params) => safely(() => storage?.setItem(TOKEN_STORAGE_KEY, params.accessToken)),
        clearStorage: () =>
          safely(() => {
            // SPEC §4: logout clears local storage. The language is the player's device setting, not
            // part of the session, so it is written back.
            const language = storedLanguage(storage);
            storage?.clear();
            storage?.setItem(LANGUAGE_STORAGE_KEY, language);
          }),
        resetFlows: () => outside.resetFlows(),
        navigate: (_, params) => outside.navigate(params.to),
        notify: (_, params) => outside.notify(params),
        persistLanguage: (_, params) => {
          safely(() => storage?.setItem(LANGUAGE_STORAGE_KEY, params.language));
          outside.showLanguage(params.language);
        },
      },
    }),
    { input: { language: storedLanguage(storage) }, inspect },
  );
  app.start();
  outside.showLanguage(app.getSnapshot().context.language);

  const settings = createActor(settingsMachine.provide({ actors: { loadSettings: actors.loadSettings } }), { inspect });
  settings.start();

  return {
    app,
    settings,
    social: outside.social,
    flows: createFlows(outside, app, settings),
    inspect,
    navigate: outside.navigate,
    serverNow: outside.serverNow ?? Date.now,
  };
}

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The app's wiring in the browser: the real API client, local storage, toasts, the address bar, the SDKs. */
/**
 * A random UUID (version 4) from the browser's random source; crypto.randomUUID exists only on HTTPS
 * and localhost, getRandomValues everywhere.
 */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createBrowserWiring(): Wiring {
  const storage = localStorageOrNull();
  let wiring: Wiring | null = null;
  const clock = createServerClock();
  const client = createApiClient({
    onServerDate: clock.observe,
    getToken: () => wiring?.app.getSnapshot().context.accessToken ?? storage?.getItem(TOKEN_STORAGE_KEY) ?? null,
    onUnauthorized: () => wiring?.app.send({ type: 'SESSION.EXPIRED' }),
    onInactive: () => wiring?.app.send({ type: 'SESSION.INACTIVE' }),
  });
  const notify = (notice: Notice) => {
    void showToast(notice, wiring?.app.getSnapshot().context.language ?? storedLanguage(storage));
  };
  // The stream's code (and its parser) comes with the first player flow that subscribes, not in the first load.
  let stream: Promise<LiveStream> | null = null;
  const live: LiveSource = {
    subscribe(listener) {
      stream ??= import('./live-stream.ts').then(({ createLiveStream }) =>
        createLiveStream({
          baseUrl: defaultBaseUrl(),
          getToken: () => wiring?.app.getSnapshot().context.accessToken ?? null,
          onUnauthorized: () => wiring?.app.send({ type: 'SESSION.EXPIRED' }),
          whenShown: (listener) => {
            const shown = () => {
              if (document.visibilityState === 'visible') listener();
            };
            document.addEventListener('visibilitychange', shown);
            return () => document.removeEventListener('visibilitychange', shown);
          },
        }),
      );
      let unsubscribe: (() => void) | null = null;
      let cancelled = false;
      void stream.then((opened) => {
        if (!cancelled) unsubscribe = opened.subscribe(listener);
      });
      return () => {
        cancelled = true;
        unsubscribe?.();
      };
    },
  };
  wiring = createWiring({
    actors: createApiActors(client, { readToken: () => storage?.getItem(TOKEN_STORAGE_KEY) ?? null }),
    social: lazySocialSignIn(),
    storage,
    notify,
    navigate: (to, options) => navigateTo(to, options),
    address: () => ({ path: window.location.pathname, search: window.location.search }),
    resetFlows: () => window.dispatchEvent(new Event(RESET_FLOWS_EVENT)),
    live,
    copyText: (text) => navigator.clipboard.writeText(text),
    newIdempotencyKey: async () => randomUuid(),
    share: (data) => navigator.share(data),
    serverNow: clock.now,
    showLanguage: (language) => {
      document.documentElement.lang = language;
    },
  });
  return wiring;
}

export const WiringContext = createContext<Wiring | null>(null);

export function useWiring(): Wiring {
  const wiring = useContext(WiringContext);
  if (!wiring) throw new Error('useWiring outside the app');
  return wiring;
}

/**
 * A running flow for a view: the machine with its implementations from the composition root, started with
 * the view and stopped when it unmounts (the input is read once, at start).
 */
export function useFlow<TMachine extends FlowMachine>(
  machine: TMachine,
  ...[input]: undefined extends InputFrom<TMachine> ? [input?: InputFrom<TMachine>] : [input: InputFrom<TMachine>]
): ActorRefFrom<TMachine> {
  const wiring = useWiring();
  const [provided] = useState(() => provide(machine, wiring.flows));
  const [options] = useState(() => (input === undefined ? { inspect: wiring.inspect } : { input, inspect: wiring.inspect }));
  return useActorRef(provided, options) as ActorRefFrom<TMachine>;
}

/** The machine with its real implementations: found by its id, which is its name among the flows. */
export function provide<TMachine extends FlowMachine>(machine: TMachine, flows: FlowImplementations): TMachine {
  const implementations = flows[machine.id as FlowName];
  if (implementations === undefined) throw new Error(`no implementations for the flow ${machine.id}`);
  return (machine.provide as (implementations: unknown) => TMachine)(implementations);
}
