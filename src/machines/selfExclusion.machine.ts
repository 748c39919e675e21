import { assign, setup } from 'xstate';
import type { components, operations } from '../api/schema.d.ts';
import { notProvided, type ErrorCode, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * Self-exclusion on the responsible-gambling page (SPEC §2): temporary, for one of the periods offered
 * (the server takes an end from 24 hours to five years ahead), or permanent. SUBMIT shows a confirmation
 * that says what happens: the player is logged out at once (the server ends every session), and until the
 * exclusion ends deposits and play are refused, while signing in for withdrawals and one's own records
 * stays possible. CONFIRM sends it; on success a toast says it started and the session ends (the app's
 * logout, `endSession`). A refusal goes back to the choice with its SPEC §8 message. A player already
 * excluded (signed in again for their money) sees until when instead of the form.
 */

export type SelfExclusion = components['schemas']['SelfExclusion'];
export type SelfExclusionRequest = operations['rgUpdateSelfExclusion']['requestBody']['content']['application/json'];

/** The temporary exclusions offered, in days: a day up to three years (inside the server's 24 hours to five years). */
export const EXCLUSION_PERIODS = [1, 7, 30, 90, 180, 365, 1095] as const;
export type ExclusionPeriod = (typeof EXCLUSION_PERIODS)[number];
export type ExclusionChoice = 'temporary' | 'permanent';

const DAY_MS = 24 * 60 * 60_000;

export interface SelfExclusionInput {
  /** The exclusion in force, from the page's settings. */
  selfExclusion: SelfExclusion;
  /** The time the page opened (ISO 8601): a temporary exclusion ends its period after it. */
  now: string;
}

export interface SelfExclusionContext {
  current: SelfExclusion;
  now: string;
  choice: ExclusionChoice;
  days: ExclusionPeriod;
  /** The last request was refused or got no answer (errorCode holds its code, if it had one). */
  failed: boolean;
  errorCode: ErrorCode | null;
  /** The server's codes for the end it was sent ('selfExclusion.range'). */
  untilErrors: readonly string[];
}

export type SelfExclusionEvent =
  | { type: 'CHOOSE'; choice: ExclusionChoice }
  | { type: 'PERIOD'; days: ExclusionPeriod }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'CONFIRM' };

/**
 * What the player asked for: permanent, or a number of days from when the request is sent (the actor
 * turns it into the wire's `until` then, with exclusionBody, so a page left open does not shorten it).
 */
export type ExclusionRequest = { type: 'permanent' } | { type: 'temporary'; days: ExclusionPeriod };

/**
 * The server wants a temporary exclusion to end at least 24 hours after it receives the request: the end
 * is counted from the sending, plus a minute for the request's travel.
 */
const TRAVEL_MS = 60_000;

/** When a temporary exclusion of `days` chosen at `now` ends (as the confirmation says it). */
export function exclusionEnd(now: string, days: ExclusionPeriod): string {
  return new Date(Date.parse(now) + days * DAY_MS).toISOString();
}

export function exclusionRequest(context: Pick<SelfExclusionContext, 'choice' | 'days'>): ExclusionRequest {
  return context.choice === 'permanent' ? { type: 'permanent' } : { type: 'temporary', days: context.days };
}

/** The body of POST /responsible-gambling/update-self-exclusion for a request sent at `sentAtMs`. */
export function exclusionBody(request: ExclusionRequest, sentAtMs: number): SelfExclusionRequest {
  return request.type === 'permanent'
    ? { type: 'permanent' }
    : { type: 'temporary', until: new Date(sentAtMs + request.days * DAY_MS + TRAVEL_MS).toISOString() };
}

export const selfExclusionMachine = setup({
  types: {
    context: {} as SelfExclusionContext,
    events: {} as SelfExclusionEvent,
    input: {} as SelfExclusionInput,
  },
  actors: {
    /** POST /responsible-gambling/update-self-exclusion */
    selfExclude: notProvided<SelfExclusion, ExclusionRequest>('selfExclude'),
  },
  actions: {
    notify: (_, _params: Notice) => {},
    /** The session is over (the server revoked it): the app logs out. */
    endSession: () => {},
    choose: assign((_, params: { choice: ExclusionChoice }) => ({ choice: params.choice })),
    choosePeriod: assign((_, params: { days: ExclusionPeriod }) => ({ days: params.days })),
    clearFailure: assign({ failed: false, errorCode: null, untilErrors: [] }),
    storeFailure: assign((_, params: { error: unknown }) => {
      const failure = toFailure(params.error);
      return { failed: true, errorCode: failure.code, untilErrors: failure.fields.filter((field) => field.field === 'until').map((field) => field.code) };
    }),
    storeExclusion: assign((_, params: { selfExclusion: SelfExclusion }) => ({ current: params.selfExclusion })),
  },
  guards: {
    excluded: ({ context }) => context.current.type !== null,
  },
}).createMachine({
  id: 'selfExclusion',
  context: ({ input }) => ({
    current: input.selfExclusion,
    now: input.now,
    choice: 'temporary',
    days: 30,
    failed: false,
    errorCode: null,
    untilErrors: [],
  }),
  initial: 'choosing',
  states: {
    choosing: {
      // A player excluded already (signed in again for their money) is not offered the form.
      always: { guard: 'excluded', target: 'excluded' },
      on: {
        CHOOSE: { actions: ['clearFailure', { type: 'choose', params: ({ event }) => ({ choice: event.choice }) }] },
        PERIOD: { actions: ['clearFailure', { type: 'choosePeriod', params: ({ event }) => ({ days: event.days }) }] },
        SUBMIT: { target: 'confirming', actions: 'clearFailure' },
      },
    },
    /** What happens, said before it is sent. */
    confirming: {
      on: {
        BACK: 'choosing',
        CONFIRM: 'submitting',
      },
    },
    submitting: {
      invoke: {
        src: 'selfExclude',
        input: ({ context }) => exclusionRequest(context),
        onDone: {
          target: 'done',
          actions: [
            { type: 'storeExclusion', params: ({ event }) => ({ selfExclusion: event.output }) },
            { type: 'notify', params: { tone: 'success', message: 'responsibleGambling.notices.selfExclusionStarted' } },
            'endSession',
          ],
        },
        onError: { target: 'choosing', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** Excluded already: the page says until when. */
    excluded: {},
    /** Excluded now; the app is logging the player out. */
    done: { type: 'final' },
  },
});
