import { assign, setup } from 'xstate';
import type { operations } from '../api/schema.d.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The session limit on the responsible-gambling page (POST /user/update-session-limit): minutes a session
 * may last, chosen from SESSION_LIMITS (the server takes 15 to 1440), or none. The server ends a session that long after its login, from the
 * next login on; the app's reality check (realityCheck.machine.ts) says so when the time is up. As the
 * limits form: Save enabled by a change, the toast on success, the SPEC §8 message on a
 * refusal.
 */

export type SessionLimitRequest = operations['userUpdateSessionLimit']['requestBody']['content']['application/json'];

/** The limits offered, in minutes: a quarter of an hour up to a day. */
export const SESSION_LIMITS = [15, 30, 60, 120, 180, 240, 360, 480, 720, 1440] as const;

export interface SessionLimitInput {
  /** The limit in force, from the page's settings; null for none. */
  minutes: number | null;
}

export interface SessionLimitContext {
  /** The minutes chosen, '' for no limit. */
  values: { minutes: string };
  /** The limit the server holds, as the field shows it. */
  saved: string;
  /** The last save was refused or got no answer (errorCode holds its code, if it had one). */
  failed: boolean;
  errorCode: ErrorCode | null;
  hasChanges: boolean;
}

export type SessionLimitEvent = { type: 'FIELD.CHANGE'; field: 'minutes'; value: string } | { type: 'SAVE' };

const shown = (minutes: number | null): string => (minutes === null ? '' : String(minutes));

export const sessionLimitMachine = setup({
  types: {
    context: {} as SessionLimitContext,
    events: {} as SessionLimitEvent,
    input: {} as SessionLimitInput,
  },
  actors: {
    /** POST /user/update-session-limit */
    saveSessionLimit: notProvided<number | null, SessionLimitRequest>('saveSessionLimit'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    changeField: assign(({ context }, params: { value: string }) => ({ values: { minutes: params.value }, hasChanges: params.value !== context.saved })),
    clearFailure: assign({ failed: false, errorCode: null }),
    storeFailure: assign((_, params: { error: unknown }) => ({ failed: true, errorCode: toFailure(params.error).code })),
    storeSaved: assign((_, params: { minutes: number | null }) => ({
      saved: shown(params.minutes),
      values: { minutes: shown(params.minutes) },
      hasChanges: false,
    })),
  },
  guards: {
    hasChanges: ({ context }) => context.hasChanges,
  },
}).createMachine({
  id: 'sessionLimit',
  context: ({ input }) => ({
    values: { minutes: shown(input.minutes) },
    saved: shown(input.minutes),
    failed: false,
    errorCode: null,
    hasChanges: false,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'FIELD.CHANGE': { actions: ['clearFailure', { type: 'changeField', params: ({ event }) => ({ value: event.value }) }] },
        SAVE: { guard: 'hasChanges', target: 'saving', actions: 'clearFailure' },
      },
    },
    saving: {
      invoke: {
        src: 'saveSessionLimit',
        input: ({ context }) => ({ sessionLimitMinutes: context.values.minutes === '' ? null : Number(context.values.minutes) }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'storeSaved', params: ({ event }) => ({ minutes: event.output }) },
            { type: 'notify', params: { tone: 'success', message: 'responsibleGambling.notices.sessionLimitUpdated' } },
          ],
        },
        onError: { target: 'editing', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
