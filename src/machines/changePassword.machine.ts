import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { PasswordChangeForm } from '../rules/auth.ts';
import { encodePassword, passwordChecks, type PasswordCheck } from '../rules/password.ts';
import { codesByField, validate } from '../rules/validate.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { formFlow } from './form.ts';

/*
 * The profile's change-password section: the current password, the new one with the SPEC §5 rules ticked
 * as it is typed, and its confirmation. Both passwords go base64-encoded to POST /internal/update-password
 * (SPEC §7). Success shows 'Password Updated Sucessfully' (SPEC §8, as written) and empties the form; a
 * refusal keeps its code (WRONG_PASSWORD, the field code newPassword.sameAsOld, ...) for the view to show.
 */

export const CHANGE_PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'] as const;
export type ChangePasswordField = (typeof CHANGE_PASSWORD_FIELDS)[number];
export type ChangePasswordRequest = operations['userUpdatePassword']['requestBody']['content']['application/json'];

export interface ChangePasswordContext {
  values: Record<ChangePasswordField, string>;
  fieldErrors: Partial<Record<ChangePasswordField, readonly string[]>>;
  errorCode: ErrorCode | null;
}

export type ChangePasswordEvent = { type: 'FIELD.CHANGE'; field: ChangePasswordField; value: string } | { type: 'SUBMIT' };

/** The live checklist of the new password's rules. */
export function newPasswordTicks(context: ChangePasswordContext): Record<PasswordCheck, boolean> {
  return passwordChecks(context.values.newPassword);
}

function formCodes(context: Pick<ChangePasswordContext, 'values'>) {
  const result = validate(PasswordChangeForm, context.values);
  return result.ok ? {} : codesByField(result.fields);
}

const form = formFlow<ChangePasswordField, ChangePasswordContext, ChangePasswordEvent>({
  fields: CHANGE_PASSWORD_FIELDS,
  check: formCodes,
  live: (context, field) => formCodes(context)[field] ?? [],
  followers: { newPassword: 'confirmPassword' },
});

const EMPTY = { oldPassword: '', newPassword: '', confirmPassword: '' };

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
  },
  actors: {
    /** POST /internal/update-password */
    updatePassword: notProvided<void, ChangePasswordRequest>('updatePassword'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    ...form.actions,
    emptyForm: assign({ values: EMPTY, fieldErrors: {}, errorCode: null }),
  },
  guards: {
    ...form.guards,
  },
}).createMachine({
  id: 'changePassword',
  context: { values: EMPTY, fieldErrors: {}, errorCode: null },
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
        src: 'updatePassword',
        input: ({ context }) => ({
          oldPassword: encodePassword(context.values.oldPassword),
          newPassword: encodePassword(context.values.newPassword),
        }),
        onDone: {
          target: 'changed',
          actions: ['emptyForm', { type: 'notify', params: { tone: 'success', message: 'messages.passwordChanged' } }],
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
        // The form is as it was when it was sent, valid: send it again.
        SUBMIT: 'submitting',
      },
    },
    /** Changed: the form is empty again, and says so until the player types. */
    changed: {
      on: {
        'FIELD.CHANGE': {
          target: 'editing',
          actions: { type: 'changeField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
      },
    },
  },
});
