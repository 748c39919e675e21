import { setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { LoginInput } from '../rules/auth.ts';
import { encodePassword } from '../rules/password.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice, type User } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * The login dialog (SPEC §4): email or username and password (Google and Facebook are socialSignIn's). On success
 * the session goes to the root (`sessionStarted`, the app forwards SESSION.LOGGED_IN), a toast says so
 * and the dialog closes. A failure keeps its code in `errorCode`; the view shows the code's message, or
 * the 'login' fallback ('Failed to login', SPEC §8) when it has none (errorCode null: no answer).
 */

export const LOGIN_FIELDS = ['email', 'password'] as const;
export type LoginField = (typeof LOGIN_FIELDS)[number];

/** The wire body of POST /user/login: the password base64-encoded (SPEC §5). */
export type LoginRequest = operations['userLogin']['requestBody']['content']['application/json'];

/** What a login answers with, whichever way the player signed in. */
export interface Session {
  accessToken: string;
  user: User;
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
  | { type: 'SUBMIT' };

const form = formFlow<LoginField, LoginContext, LoginEvent>({
  fields: LOGIN_FIELDS,
  check: ({ values }) => {
    const result = validate(LoginInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
});

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
  },
  actions: {
    /** The app forwards it to the root as SESSION.LOGGED_IN. */
    sessionStarted: (_, _params: Session) => {},
    closeDialog: () => {},
    notify: (_, _params: Notice) => {},
    ...form.actions,
  },
  guards: {
    ...form.guards,
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
    failed: {
      on: {
        'FIELD.CHANGE': {
          target: 'editing',
          actions: [
            'clearFailure',
            { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
          ],
        },
        // The form is as it was when it was sent, valid: send it again.
        SUBMIT: 'submitting',
      },
    },
    done: { type: 'final' },
  },
});
