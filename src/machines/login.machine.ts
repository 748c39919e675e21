import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { LoginInput } from '../rules/auth.ts';
import { encodePassword } from '../rules/password.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { mergeFieldCodes, toFailure } from './failure.ts';

/*
 * The login dialog (SPEC §4): email or username and password, or a Google / Facebook sign-in. On success
 * the session goes to the root (`sessionStarted`, the app forwards SESSION.LOGGED_IN), a toast says so
 * and the dialog closes. A failure keeps its code in `errorCode`; the view shows the code's message, or
 * the 'login' fallback ('Failed to login', SPEC §8) when it has none (errorCode null: no answer).
 */

export const LOGIN_FIELDS = ['email', 'password'] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];

/** The wire body of POST /user/login: the password base64-encoded (SPEC §5). */
export type LoginRequest = operations['userLogin']['requestBody']['content']['application/json'];
export type GoogleLoginRequest = operations['userGoogleLogin']['requestBody']['content']['application/json'];
export type FacebookLoginRequest = operations['userFacebookLogin']['requestBody']['content']['application/json'];

/** What a login answers with, whichever way the player signed in. */
export interface Session {
  accessToken: string;
  user: User;
}
export interface SocialSession extends Session {
  isNewUser: boolean;
}

export interface LoginContext {
  values: Record<LoginField, string>;
  /** Rule codes per field (src/rules codes, and the server's `fields` codes); absent or [] when fine. */
  fieldErrors: Partial<Record<LoginField, readonly string[]>>;
  /** The failure's code; null with no failure, or when the failure had no code (no answer). */
  errorCode: ErrorCode | null;
}

export type LoginEvent =
  | { type: 'FIELD.CHANGE'; field: LoginField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'SOCIAL.GOOGLE'; credential: string }
  | { type: 'SOCIAL.FACEBOOK'; accessToken: string; userID: string };

const sessionParams = ({ event }: { event: { output: Session } }) => ({
  accessToken: event.output.accessToken,
  user: event.output.user,
});

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
  },
  actors: {
    /** POST /user/login. */
    login: notProvided<Session, LoginRequest>('login'),
    /** POST /user/google-login. */
    googleLogin: notProvided<SocialSession, GoogleLoginRequest>('googleLogin'),
    /** POST /user/facebook-login. */
    facebookLogin: notProvided<SocialSession, FacebookLoginRequest>('facebookLogin'),
  },
  actions: {
    /** The app forwards it to the root as SESSION.LOGGED_IN. */
    sessionStarted: (_, _params: Session) => {},
    /** SPEC §4: social login stores the login time (the server's, from the login's answer). */
    storeLoginTime: (_, _params: { at: string | null }) => {},
    closeDialog: () => {},
    notify: (_, _params: Notice) => {},
    changeField: assign(({ context }, params: { field: LoginField; value: string }) => ({
      values: { ...context.values, [params.field]: params.value },
      fieldErrors: { ...context.fieldErrors, [params.field]: [] },
    })),
    showFieldErrors: assign(({ context }) => {
      const result = validate(LoginInput, context.values);
      return { fieldErrors: result.ok ? {} : codesByField(result.fields) };
    }),
    storeFailure: assign(({ context }, params: { error: unknown }) => {
      const failure = toFailure(params.error);
      return {
        errorCode: failure.code,
        fieldErrors: mergeFieldCodes(context.fieldErrors, failure.fields, LOGIN_FIELDS),
      };
    }),
    clearFailure: assign({ errorCode: null }),
  },
  guards: {
    formInvalid: ({ context }) => !validate(LoginInput, context.values).ok,
  },
}).createMachine({
  id: 'login',
  context: { values: { email: '', password: '' }, fieldErrors: {}, errorCode: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'submitting' }],
        'SOCIAL.GOOGLE': 'signingInWithGoogle',
        'SOCIAL.FACEBOOK': 'signingInWithFacebook',
      },
    },
    submitting: {
      entry: 'clearFailure',
      invoke: {
        src: 'login',
        input: ({ context }) => ({ email: context.values.email, password: encodePassword(context.values.password) }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'sessionStarted', params: sessionParams },
            { type: 'notify', params: { tone: 'success', message: 'messages.loginSuccess' } },
            'closeDialog',
          ],
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signingInWithGoogle: {
      entry: 'clearFailure',
      invoke: {
        src: 'googleLogin',
        input: ({ event }) => ({ credential: event.type === 'SOCIAL.GOOGLE' ? event.credential : '' }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'sessionStarted', params: sessionParams },
            { type: 'storeLoginTime', params: ({ event }) => ({ at: event.output.user.lastLoginAt }) },
            { type: 'notify', params: { tone: 'success', message: 'messages.loginSuccess' } },
            'closeDialog',
          ],
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    signingInWithFacebook: {
      entry: 'clearFailure',
      invoke: {
        src: 'facebookLogin',
        input: ({ event }) =>
          event.type === 'SOCIAL.FACEBOOK'
            ? { accessToken: event.accessToken, userID: event.userID }
            : { accessToken: '', userID: '' },
        onDone: {
          target: 'done',
          actions: [
            { type: 'sessionStarted', params: sessionParams },
            { type: 'storeLoginTime', params: ({ event }) => ({ at: event.output.user.lastLoginAt }) },
            { type: 'notify', params: { tone: 'success', message: 'messages.loginSuccess' } },
            'closeDialog',
          ],
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: {
        'FIELD.CHANGE': {
          target: 'editing',
          actions: [
            'clearFailure',
            { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
          ],
        },
        SUBMIT: [
          { guard: 'formInvalid', target: 'editing', actions: ['clearFailure', 'showFieldErrors'] },
          { target: 'submitting' },
        ],
        'SOCIAL.GOOGLE': 'signingInWithGoogle',
        'SOCIAL.FACEBOOK': 'signingInWithFacebook',
      },
    },
    done: { type: 'final' },
  },
});
