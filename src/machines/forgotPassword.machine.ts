import { setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { ForgotPasswordInput } from '../rules/auth.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * The forgot-password dialog: an email, then a toast that the reset link is on its way (the server
 * answers the same whether or not an account has that email). A failure keeps its code; the view shows
 * its message or the default fallback.
 */

export const FORGOT_PASSWORD_FIELDS = ['email'] as const;
export type ForgotPasswordField = (typeof FORGOT_PASSWORD_FIELDS)[number];
export type ForgotPasswordRequest = operations['userForgotPassword']['requestBody']['content']['application/json'];

export interface ForgotPasswordContext {
  values: Record<ForgotPasswordField, string>;
  fieldErrors: Partial<Record<ForgotPasswordField, readonly string[]>>;
  errorCode: ErrorCode | null;
}

export type ForgotPasswordEvent = { type: 'FIELD.CHANGE'; field: ForgotPasswordField; value: string } | { type: 'SUBMIT' };

const form = formFlow<ForgotPasswordField, ForgotPasswordContext, ForgotPasswordEvent>({
  fields: FORGOT_PASSWORD_FIELDS,
  check: ({ values }) => {
    const result = validate(ForgotPasswordInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
});

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    /** POST /user/forgot-password. */
    forgotPassword: notProvided<void, ForgotPasswordRequest>('forgotPassword'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    ...form.actions,
  },
  guards: {
    ...form.guards,
  },
}).createMachine({
  id: 'forgotPassword',
  context: { values: { email: '' }, fieldErrors: {}, errorCode: null },
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
        src: 'forgotPassword',
        input: ({ context }) => ({ email: context.values.email }),
        onDone: {
          target: 'done',
          actions: { type: 'notify', params: { tone: 'success', message: 'messages.resetLinkSent' } },
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
