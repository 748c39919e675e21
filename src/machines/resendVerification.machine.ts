import { setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { ForgotPasswordInput } from '../rules/auth.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * In the login dialog, for a player refused with EMAIL_NOT_VERIFIED: a new verification email on demand
 * (POST /user/resend-verification-email). The email starts as the login id when that is an email (the
 * player may have typed a username). One send at a time and one per dialog: the button is gone while it
 * is being sent and once sent, so a double click sends one email. The server answers the same whether or
 * not an unverified account has that email; a refusal (RATE_LIMITED, no answer) may be sent again.
 */

export const RESEND_VERIFICATION_FIELDS = ['email'] as const;
export type ResendVerificationField = (typeof RESEND_VERIFICATION_FIELDS)[number];
export type ResendVerificationRequest = operations['userResendVerificationEmail']['requestBody']['content']['application/json'];

export interface ResendVerificationInput {
  /** What the player typed as the login id. */
  loginId: string;
}

export interface ResendVerificationContext {
  values: Record<ResendVerificationField, string>;
  fieldErrors: Partial<Record<ResendVerificationField, readonly string[]>>;
  errorCode: ErrorCode | null;
}

export type ResendVerificationEvent = { type: 'FIELD.CHANGE'; field: ResendVerificationField; value: string } | { type: 'SUBMIT' };

const form = formFlow<ResendVerificationField, ResendVerificationContext, ResendVerificationEvent>({
  fields: RESEND_VERIFICATION_FIELDS,
  check: ({ values }) => {
    const result = validate(ForgotPasswordInput, values);
    return result.ok ? {} : codesByField(result.fields);
  },
});

export const resendVerificationMachine = setup({
  types: {
    context: {} as ResendVerificationContext,
    events: {} as ResendVerificationEvent,
    input: {} as ResendVerificationInput,
  },
  actors: {
    /** POST /user/resend-verification-email */
    resendVerificationEmail: notProvided<void, ResendVerificationRequest>('resendVerificationEmail'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    ...form.actions,
  },
  guards: {
    ...form.guards,
  },
}).createMachine({
  id: 'resendVerification',
  context: ({ input }) => ({
    values: { email: input.loginId.includes('@') ? input.loginId.trim() : '' },
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
        SUBMIT: [{ guard: 'formInvalid', actions: 'showFieldErrors' }, { target: 'sending' }],
      },
    },
    sending: {
      entry: 'clearFailure',
      invoke: {
        src: 'resendVerificationEmail',
        input: ({ context }) => ({ email: context.values.email.trim() }),
        onDone: {
          target: 'sent',
          actions: { type: 'notify', params: { tone: 'success', message: 'auth.login.verificationSent' } },
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: {
        'FIELD.CHANGE': {
          target: 'editing',
          actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) }],
        },
        SUBMIT: 'sending',
      },
    },
    /** Sent: no second send from this dialog. */
    sent: { type: 'final' },
  },
});
