import { assign, setup } from 'xstate';
import {
  notProvided,
  type Language,
  type NavigateParams,
  type Notice,
  type User,
} from './effects.ts';
import { isSessionExpiry, isUserInactive } from './failure.ts';

/*
 * The root of the app (SPEC §4, §6): it boots by restoring the saved session, then is either a visitor
 * or a player, and holds the interface language. Every other flow reports to it: a login flow sends
 * SESSION.LOGGED_IN, the API client's 401 hook sends SESSION.EXPIRED (and SESSION.INACTIVE for an account an
 * admin inactivated), the profile flow USER.UPDATED.
 */

export interface RestoredSession {
  accessToken: string;
  user: User;
}

export interface AppContext {
  accessToken: string | null;
  user: User | null;
  language: Language;
}

export interface AppInput {
  /** The stored language choice (SPEC §1), read by the app; default English. */
  language?: Language;
}

export type AppEvent =
  | { type: 'SESSION.LOGGED_IN'; accessToken: string; user: User }
  | { type: 'SESSION.EXPIRED' }
  /** An authenticated call was refused with 403 USER_INACTIVE: an admin inactivated the account meanwhile. */
  | { type: 'SESSION.INACTIVE' }
  | { type: 'LOGOUT' }
  /** The reality check: the session reached the player's session limit (the server has ended it) after `playedMs`. */
  | { type: 'SESSION.LIMIT_REACHED'; playedMs: number }
  | { type: 'USER.UPDATED'; user: User }
  | { type: 'LANGUAGE.CHANGE'; language: Language };

/** Consumes an event in a state that must not react to it (shadows the parent's handler). */
const ignore = {};

/** Forgetting the player's session here: its token, the storage, every flow's state. */
const forget = ['forgetSession', 'clearStorage', 'resetFlows'] as const;

/** Leaving the player's session, whatever the cause; the cause's own notice follows. */
const endSession = [...forget, { type: 'navigate', params: { to: '/' } }] as const;

const loggedOut = [
  ...endSession,
  { type: 'notify', params: { tone: 'success', message: 'messages.logoutSuccess' } },
] as const;

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
  },
  actors: {
    /** Reads the saved token; when there is one, GET /user/get-user with it. null: nothing saved. */
    restoreSession: notProvided<RestoredSession | null>('restoreSession'),
    /** GET /user/get-user. */
    fetchProfile: notProvided<User>('fetchProfile'),
    /** POST /user/logout. */
    logout: notProvided<void>('logout'),
  },
  actions: {
    saveToken: (_, _params: { accessToken: string }) => {},
    /**
     * Clears local storage (SPEC §4: logout clears local storage), the saved token with it. Which keys go
     * is the app's call: the stored language choice (SPEC §1) is a device setting, not session state.
     */
    clearStorage: () => {},
    /** Restarts every flow actor, so nothing of the old session survives (SPEC §4: logout resets all state). */
    resetFlows: () => {},
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: Notice) => {},
    persistLanguage: (_, _params: { language: Language }) => {},
    startSession: assign((_, params: { accessToken: string; user: User }) => ({
      accessToken: params.accessToken,
      user: params.user,
    })),
    storeRestoredSession: assign((_, params: { restored: RestoredSession | null }) => ({
      accessToken: params.restored?.accessToken ?? null,
      user: params.restored?.user ?? null,
    })),
    storeUser: assign((_, params: { user: User }) => ({ user: params.user })),
    storeLanguage: assign((_, params: { language: Language }) => ({ language: params.language })),
    forgetSession: assign({ accessToken: null, user: null }),
  },
  guards: {
    nothingSaved: (_, params: { restored: RestoredSession | null }) => params.restored === null,
    sessionExpired: (_, params: { error: unknown }) => isSessionExpiry(params.error),
    userInactive: (_, params: { error: unknown }) => isUserInactive(params.error),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({ accessToken: null, user: null, language: input.language ?? 'en' }),
  initial: 'booting',
  on: {
    'LANGUAGE.CHANGE': {
      actions: [
        { type: 'storeLanguage', params: ({ event }) => ({ language: event.language }) },
        { type: 'persistLanguage', params: ({ event }) => ({ language: event.language }) },
      ],
    },
  },
  states: {
    booting: {
      // SESSION.EXPIRED is not handled here: a saved token's 401 reaches us twice (the client's hook, then
      // restoreSession's failure), and the failure alone decides, silently.
      invoke: {
        src: 'restoreSession',
        onDone: [
          { guard: { type: 'nothingSaved', params: ({ event }) => ({ restored: event.output }) }, target: 'visitor' },
          {
            target: 'player.ready',
            actions: { type: 'storeRestoredSession', params: ({ event }) => ({ restored: event.output }) },
          },
        ],
        onError: [
          {
            guard: { type: 'userInactive', params: ({ event }) => ({ error: event.error }) },
            target: 'visitor',
            actions: ['forgetSession', 'clearStorage', { type: 'notify', params: { tone: 'error', message: 'messages.inactive' } }],
          },
          // The saved session ended while the player was away (SPEC §6: any 401 ends it with a message).
          {
            guard: { type: 'sessionExpired', params: ({ event }) => ({ error: event.error }) },
            target: 'visitor',
            actions: [
              ...endSession,
              { type: 'notify', params: { tone: 'error', message: 'messages.sessionExpired' } },
            ],
          },
          // Any other refusal, or no answer: the saved token is not usable; start as a visitor.
          { target: 'visitor', actions: ['forgetSession', 'clearStorage'] },
        ],
      },
    },
    // SESSION.EXPIRED is not handled here: a visitor has no session to end (a late 401 of an older call).
    visitor: {
      on: {
        'SESSION.LOGGED_IN': {
          target: 'player.refreshing',
          actions: [
            { type: 'saveToken', params: ({ event }) => ({ accessToken: event.accessToken }) },
            { type: 'startSession', params: ({ event }) => ({ accessToken: event.accessToken, user: event.user }) },
          ],
        },
      },
    },
    player: {
      initial: 'ready',
      on: {
        'SESSION.EXPIRED': {
          target: 'visitor',
          actions: [...endSession, { type: 'notify', params: { tone: 'error', message: 'messages.sessionExpired' } }],
        },
        // SPEC §6: inactive accounts are refused, whatever call finds out.
        'SESSION.INACTIVE': {
          target: 'visitor',
          actions: [...endSession, { type: 'notify', params: { tone: 'error', message: 'messages.inactive' } }],
        },
        // The session limit: no toast, the session-limit dialog says how long the player played and offers to log in again.
        'SESSION.LIMIT_REACHED': {
          target: 'visitor',
          actions: [
            ...forget,
            { type: 'navigate', params: ({ event }) => ({ to: `/?dialog=session-limit&played=${Math.floor(event.playedMs / 60_000)}` }) },
          ],
        },
        'USER.UPDATED': {
          actions: { type: 'storeUser', params: ({ event }) => ({ user: event.user }) },
        },
        LOGOUT: '.loggingOut',
      },
      states: {
        /** SPEC §4: after login the profile is refetched; the login's own user shows meanwhile. */
        refreshing: {
          invoke: {
            src: 'fetchProfile',
            onDone: {
              target: 'ready',
              actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) },
            },
            onError: [
              {
                guard: { type: 'userInactive', params: ({ event }) => ({ error: event.error }) },
                target: '#app.visitor',
                actions: [...endSession, { type: 'notify', params: { tone: 'error', message: 'messages.inactive' } }],
              },
              {
                guard: { type: 'sessionExpired', params: ({ event }) => ({ error: event.error }) },
                target: '#app.visitor',
                actions: [...endSession, { type: 'notify', params: { tone: 'error', message: 'messages.sessionExpired' } }],
              },
              // No answer or a server fault: keep the user the login returned.
              { target: 'ready' },
            ],
          },
        },
        ready: {},
        loggingOut: {
          on: {
            // The logout call's own 401 (token already dead) is part of logging out, not an expiry.
            'SESSION.EXPIRED': ignore,
            'SESSION.INACTIVE': ignore,
            'SESSION.LIMIT_REACHED': ignore,
            LOGOUT: ignore,
          },
          invoke: {
            src: 'logout',
            // Whatever the server answers, the player is logged out here.
            onDone: { target: '#app.visitor', actions: loggedOut },
            onError: { target: '#app.visitor', actions: loggedOut },
          },
        },
      },
    },
  },
});
