import { assign, setup } from 'xstate';
import type { ResponsibleGambling } from './limits.machine.ts';
import { notProvided } from './effects.ts';

/*
 * The reality check: for a logged-in player with a session limit, when the session has lasted that long
 * a dialog says how long they have played and offers to go on or to log out. The session starts at the
 * login (the user's lastLoginAt; a reload keeps it); the limit comes from the responsible-gambling
 * settings as they were when the check started (a new limit applies from the next login, as on the
 * server). Going on waits one more limit; the time the dialog was open is not counted as played. The
 * wait is the named delay `realityCheck`. A failed load shows nothing: the server still ends the session.
 */

const MINUTE_MS = 60_000;

export interface RealityCheckInput {
  /** When the session started (ISO 8601). */
  sessionStartedAt: string;
  /** When the check started (ISO 8601). */
  now: string;
}

export interface RealityCheckContext {
  startedMs: number;
  nowMs: number;
  limitMinutes: number | null;
  /** How long until the next check. */
  waitMs: number;
  /** How long the player has played when the check shows. */
  playedMs: number;
}

export type RealityCheckEvent = { type: 'CONTINUE' } | { type: 'LOGOUT' };

export const realityCheckMachine = setup({
  types: {
    context: {} as RealityCheckContext,
    events: {} as RealityCheckEvent,
    input: {} as RealityCheckInput,
  },
  actors: {
    /** GET /responsible-gambling/get-limits (for sessionLimitMinutes). */
    loadLimits: notProvided<ResponsibleGambling, undefined>('loadLimits'),
  },
  actions: {
    /** The player chose to stop: the app logs out. */
    endSession: () => {},
    storeLimit: assign(({ context }, params: { minutes: number | null }) => {
      const limitMs = (params.minutes ?? 0) * MINUTE_MS;
      const sinceStart = Math.max(0, context.nowMs - context.startedMs);
      return { limitMinutes: params.minutes, waitMs: Math.max(0, limitMs - sinceStart), playedMs: Math.max(limitMs, sinceStart) };
    }),
    /** Going on: the next check one limit later, counted from now. */
    playOn: assign(({ context }) => {
      const limitMs = (context.limitMinutes ?? 0) * MINUTE_MS;
      return { waitMs: limitMs, playedMs: context.playedMs + limitMs };
    }),
  },
  guards: {
    noLimit: (_, params: { minutes: number | null }) => params.minutes === null,
  },
  delays: {
    realityCheck: ({ context }) => context.waitMs,
  },
}).createMachine({
  id: 'realityCheck',
  context: ({ input }) => ({
    startedMs: Date.parse(input.sessionStartedAt),
    nowMs: Date.parse(input.now),
    limitMinutes: null,
    waitMs: 0,
    playedMs: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadLimits',
        onDone: [
          { guard: { type: 'noLimit', params: ({ event }) => ({ minutes: event.output.sessionLimitMinutes }) }, target: 'unlimited' },
          { target: 'waiting', actions: { type: 'storeLimit', params: ({ event }) => ({ minutes: event.output.sessionLimitMinutes }) } },
        ],
        onError: 'unavailable',
      },
    },
    /** No session limit: nothing to check. */
    unlimited: {},
    /** The settings could not be read: nothing shows. */
    unavailable: {},
    waiting: {
      after: { realityCheck: 'checking' },
    },
    /** The dialog: time played, go on or log out. */
    checking: {
      on: {
        CONTINUE: { target: 'waiting', actions: 'playOn' },
        LOGOUT: { target: 'leaving', actions: 'endSession' },
      },
    },
    leaving: { type: 'final' },
  },
});
