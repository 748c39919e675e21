import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * Google and Facebook sign-in (SPEC §4), offered in the login and the register dialogs when the server
 * has the provider configured. Google's own button hands the view an ID token (GOOGLE.CREDENTIAL);
 * Facebook's popup is opened by the `askFacebook` actor, and a player who closes it is back where they
 * were, with nothing to report. The server checks the token and answers with a session: it goes to the
 * root (`sessionStarted`), the login time is stored, a toast says so and the dialog closes. A refusal
 * keeps its code; the view shows its message or 'Failed to login'.
 */

export type GoogleLoginRequest = operations['userGoogleLogin']['requestBody']['content']['application/json'];
export type FacebookLoginRequest = operations['userFacebookLogin']['requestBody']['content']['application/json'];

export interface SocialSession {
  accessToken: string;
  user: User;
  isNewUser: boolean;
}

export interface SocialSignInContext {
  /** The refusal's code; null with no failure, or when the failure had no code (no answer). */
  errorCode: ErrorCode | null;
  /** What Facebook's popup answered, sent to the server next. */
  facebook: FacebookLoginRequest | null;
}

export type SocialSignInEvent =
  | { type: 'GOOGLE.CREDENTIAL'; credential: string }
  | { type: 'FACEBOOK.START' };

const signedIn = [
  {
    type: 'sessionStarted',
    params: ({ event }: { event: { output: SocialSession } }) => ({ accessToken: event.output.accessToken, user: event.output.user }),
  },
  { type: 'storeLoginTime', params: ({ event }: { event: { output: SocialSession } }) => ({ at: event.output.user.lastLoginAt }) },
  { type: 'notify', params: { tone: 'success', message: 'messages.loginSuccess' } },
  'closeDialog',
] as const;

export const socialSignInMachine = setup({
  types: {
    context: {} as SocialSignInContext,
    events: {} as SocialSignInEvent,
  },
  actors: {
    /** Facebook's login popup; null when the player closes it or refuses. */
    askFacebook: notProvided<FacebookLoginRequest | null>('askFacebook'),
    /** POST /user/google-login. */
    googleLogin: notProvided<SocialSession, GoogleLoginRequest>('googleLogin'),
    /** POST /user/facebook-login. */
    facebookLogin: notProvided<SocialSession, FacebookLoginRequest>('facebookLogin'),
  },
  actions: {
    /** The app forwards it to the root as SESSION.LOGGED_IN. */
    sessionStarted: (_, _params: { accessToken: string; user: User }) => {},
    /** SPEC §4: social sign-in stores the login time (the server's, from the login's answer). */
    storeLoginTime: (_, _params: { at: string | null }) => {},
    notify: (_, _params: Notice) => {},
    closeDialog: () => {},
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
    clearFailure: assign({ errorCode: null }),
    storeFacebookLogin: assign((_, params: { login: FacebookLoginRequest | null }) => ({ facebook: params.login })),
  },
  guards: {
    facebookClosed: (_, params: { login: FacebookLoginRequest | null }) => params.login === null,
  },
}).createMachine({
  id: 'socialSignIn',
  context: { errorCode: null, facebook: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'GOOGLE.CREDENTIAL': 'signingInWithGoogle',
        'FACEBOOK.START': 'askingFacebook',
      },
    },
    askingFacebook: {
      invoke: {
        src: 'askFacebook',
        onDone: [
          // The player closed the popup: back to where they were, whatever was shown before.
          { guard: { type: 'facebookClosed', params: ({ event }) => ({ login: event.output }) }, target: 'idle' },
          {
            target: 'signingInWithFacebook',
            actions: { type: 'storeFacebookLogin', params: ({ event }) => ({ login: event.output }) },
          },
        ],
        // The SDK could not be loaded (blocked, offline): a failure with no code.
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signingInWithGoogle: {
      entry: 'clearFailure',
      invoke: {
        src: 'googleLogin',
        input: ({ event }) => ({ credential: event.type === 'GOOGLE.CREDENTIAL' ? event.credential : '' }),
        onDone: { target: 'done', actions: signedIn },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signingInWithFacebook: {
      entry: 'clearFailure',
      invoke: {
        src: 'facebookLogin',
        input: ({ context }) => ({ accessToken: context.facebook?.accessToken ?? '', userID: context.facebook?.userID ?? '' }),
        onDone: { target: 'done', actions: signedIn },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: {
        'GOOGLE.CREDENTIAL': 'signingInWithGoogle',
        'FACEBOOK.START': 'askingFacebook',
      },
    },
    done: { type: 'final' },
  },
});
