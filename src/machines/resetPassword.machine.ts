import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { ResetPasswordForm } from '../rules/auth.ts';
import { encodePassword, passwordChecks, type PasswordCheck } from '../rules/password.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type NavigateParams, type Notice } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * The reset-password dialog, opened from the emailed link: a new password and its confirmation, checked
 * as the player types (SPEC §5). On success a toast says so and the player goes to '/' (SPEC §2). A
 * failure keeps its code (INVALID_TOKEN for a used or expired link, SAME_PASSWORD, ...); the view shows
 * its message or the default fallback. A link without a token fails as an unknown token.
 */

export const RESET_PASSWORD_FIELDS = ['newPassword', 'confirmPassword'] as const;
export type ResetPasswordField = (typeof RESET_PASSWORD_FIELDS)[number];
export type ResetPasswordRequest =
  operations['userVerifyForgotPassword']['requestBody']['content']['application/json'];

export interface ResetPasswordInput {
  /** The token from the link (`?token=`). */
  token: string;
}

export interface ResetPasswordContext {
  token: string;
  values: Record<ResetPasswordField, string>;
  /** Rule codes per field: absent until the field is checked, [] when it passes. */
  fieldErrors: Partial<Record<ResetPasswordField, readonly string[]>>;
  errorCode: ErrorCode | null;
}

export type ResetPasswordEvent = { type: 'FIELD.CHANGE'; field: ResetPasswordField; value: string } | { type: 'SUBMIT' };

/** The live checklist of the new password's rules. */
export function passwordTicks(context: ResetPasswordContext): Record<PasswordCheck, boolean> {
  return passwordChecks(context.values.newPassword);
}

function formCodes(context: Pick<ResetPasswordContext, 'token' | 'values'>) {
  const result = validate(ResetPasswordForm, { token: context.token, ...context.values });
  return result.ok ? {} : codesByField(result.fields);
}

const form = formFlow<ResetPasswordField, ResetPasswordContext, ResetPasswordEvent>({
  fields: RESET_PASSWORD_FIELDS,
  check: formCodes,
  live: (context, field) => formCodes(context)[field] ?? [],
  // A confirmation already typed must follow the password it confirms.
  followers: { newPassword: 'confirmPassword' },
});

export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as ResetPasswordInput,
  },
  actors: {
    /** POST /user/verify-forgot-password. */
    resetPassword: notProvided<void, ResetPasswordRequest>('resetPassword'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    navigate: (_, _params: NavigateParams) => {},
    ...form.actions,
    storeMissingToken: assign({ errorCode: 'INVALID_TOKEN' }),
  },
  guards: {
    tokenMissing: ({ context }) => context.token.trim() === '',
    ...form.guards,
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({
    token: input.token,
    values: { newPassword: '', confirmPassword: '' },
    fieldErrors: {},
    errorCode: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'FIELD.CHANGE': {
          actions: { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        SUBMIT: [
          { guard: 'tokenMissing', target: 'failed', actions: 'storeMissingToken' },
          { guard: 'formInvalid', actions: 'showFieldErrors' },
          { target: 'submitting' },
        ],
      },
    },
    submitting: {
      entry: 'clearFailure',
      invoke: {
        src: 'resetPassword',
        input: ({ context }) => ({ token: context.token, newPassword: encodePassword(context.values.newPassword) }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'notify', params: { tone: 'success', message: 'messages.passwordReset' } },
            { type: 'navigate', params: { to: '/' } },
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
        // Failed with a token, the form was valid when it was sent: send it again.
        SUBMIT: [{ guard: 'tokenMissing' }, { target: 'submitting' }],
      },
    },
    done: { type: 'final' },
  },
});
