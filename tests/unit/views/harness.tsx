import { createElement, type ReactElement } from 'react';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setup as setupGoober } from 'goober';
import { afterEach, vi } from 'vitest';
import { createActor, fromPromise, type InspectionEvent, type NonReducibleUnknown } from 'xstate';
import { createTranslator, type Language } from '../../../src/i18n/index.ts';
import type { ApiActors } from '../../../src/machines/actors.ts';
import { appMachine, type AppEvent, type AppInput, type RestoredSession } from '../../../src/machines/app.machine.ts';
import type { NavigateParams, Notice } from '../../../src/machines/effects.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { settingsMachine, type Settings } from '../../../src/machines/settings.machine.ts';
import { DEFAULT_SETTINGS } from '../machines/fixtures.ts';
import type { SocialSignIn } from '../../../src/views/social.ts';
import { TranslatorContext } from '../../../src/views/i18n-context.ts';
import { ServicesContext, type Services } from '../../../src/views/services.ts';

// The app calls goober's setup in its mount function (src/views/App.tsx); the views need it too.
setupGoober(createElement);

const started: { stop(): void }[] = [];
afterEach(() => {
  cleanup();
  for (const actor of started.splice(0)) actor.stop();
});

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
    verifyEmail: unexpected(),
    forgotPassword: unexpected(),
    resetPassword: unexpected(),
    loadPages: unexpected(),
    loadSettings: unexpected(),
    loadNotifications: unexpected(),
    markNotificationsRead: unexpected(),
  };
}

export interface Harness extends RenderResult {
  services: Services;
  /** Events the dialog sent to the app actor, in order. */
  appEvents: AppEvent[];
  notices: Notice[];
  navigations: string[];
  loginTimes: (string | null)[];
  user: ReturnType<typeof userEvent.setup>;
  /** The app actor's named side effects, in order, when the `app` option asks for them (else none). */
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

/**
 * The app actor as a test wants it: its own actors (by default a session restore that finds nothing
 * saved, a profile fetch that gets no answer, a logout that succeeds), its input, and its side effects
 * recorded in `appEffects`, with `notify` and `navigate` going through the harness's services as
 * createServices wires them (src/views/services.ts).
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
  /** Inspects the app and settings actors (the model-based tests record their transitions). */
  inspect?: (event: InspectionEvent) => void;
  /** Also called with every navigation (after it is recorded): to move a test's router, say. */
  navigate?: Services['navigate'];
  /** The app actor's actors, input and recorded effects (without it: it boots as a visitor, effects ignored). */
  app?: AppOptions;
}

/** Renders a view inside the app's contexts, with fake services that record what they are asked to do. */
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
  // The app's effects reach the services below only once an event is processed, after they exist.
  const forward = (effect: AppEffect) => {
    appEffects.push(effect);
    if (effect.type === 'notify') services.notify(effect.params);
    if (effect.type === 'navigate') services.navigate(effect.params.to);
  };
  const recordedEffects = {
    saveToken: (_: unknown, params: { accessToken: string }) => forward({ type: 'saveToken', params }),
    clearStorage: () => forward({ type: 'clearStorage' }),
    resetFlows: () => forward({ type: 'resetFlows' }),
    navigate: (_: unknown, params: NavigateParams) => forward({ type: 'navigate', params }),
    notify: (_: unknown, params: Notice) => forward({ type: 'notify', params }),
    persistLanguage: (_: unknown, params: { language: Language }) => forward({ type: 'persistLanguage', params }),
  };
  // A real root machine (it boots as a visitor), with its side effects left as the no-ops they are
  // unless `options.app` asks for them.
  const app = createActor(
    appMachine.provide({
      actors: {
        restoreSession: fromPromise<RestoredSession | null>(async () => null),
        fetchProfile: unexpected(),
        logout: fromPromise<void>(async () => undefined),
        ...options.app?.actors,
      },
      ...(options.app ? { actions: recordedEffects } : {}),
    }),
    { input: options.app?.input ?? { language: options.language ?? 'en' }, ...(options.inspect ? { inspect: options.inspect } : {}) },
  );
  app.start();
  started.push(app);
  const send = app.send.bind(app);
  vi.spyOn(app, 'send').mockImplementation((event: AppEvent) => {
    appEvents.push(event);
    send(event);
  });
  const settings = createActor(
    settingsMachine.provide({
      actors: {
        loadSettings: options.loadSettings ?? fromPromise<Settings>(async () => ({ ...DEFAULT_SETTINGS, ...options.settings })),
      },
    }),
    options.inspect ? { inspect: options.inspect } : {},
  );
  settings.start();
  started.push(settings);
  const services: Services = {
    app,
    settings,
    social: { ...unavailableSocial, ...options.social },
    actors: { ...failingActors(), ...options.actors },
    notify: (notice) => void notices.push(notice),
    navigate: (to, navigateOptions) => {
      navigations.push(to);
      options.navigate?.(to, navigateOptions);
    },
    storeLoginTime: (at) => void loginTimes.push(at),
  };
  const user = userEvent.setup();
  const result = render(
    <TranslatorContext.Provider value={createTranslator(options.language ?? 'en')}>
      <ServicesContext.Provider value={services}>{ui}</ServicesContext.Provider>
    </TranslatorContext.Provider>,
  );
  return { ...result, services, appEvents, notices, navigations, loginTimes, user, appEffects };
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
