import { assign, setup } from 'xstate';
import type { ResponsibleGambling } from './limits.machine.ts';
import { notProvided } from './effects.ts';

/*
 * The reality check: for a logged-in player with a session limit, when the session has lasted that long.
 * The server ends the session at its limit (the token's lifetime is the limit), so there is nothing to
 * "keep playing" in: at the limit the check tells the app, which ends the session here too and says how
 * long the player has played, with Log in again (a new session) or Close (SESSION.LIMIT_REACHED, the
 * action `limitReached`). The session starts at the login (the user's lastLoginAt; a reload keeps it);
 * the limit comes from the responsible-gambling settings as they were when the check started (a new
 * limit applies from the next login, as on the server). The wait is the named delay `realityCheck`.
 * A failed load shows nothing: the server still ends the session, and the app says so at its next call.
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
  /** How long until the limit. */
  waitMs: number;
  /** How long the player has played when the limit is reached. */
  playedMs: number;
}

export const realityCheckMachine = setup({
  types: {
    context: {} as RealityCheckContext,
    input: {} as RealityCheckInput,
  },
  actors: {
    /** GET /responsible-gambling/get-limits (for sessionLimitMinutes). */
    loadLimits: notProvided<ResponsibleGambling, undefined>('loadLimits'),
  },
  actions: {
    /** The session reached its limit: the app ends it and says how long the player has played. */
    limitReached: (_, _params: { playedMs: number }) => {},
    storeLimit: assign(({ context }, params: { minutes: number | null }) => {
      const limitMs = (params.minutes ?? 0) * MINUTE_MS;
      const sinceStart = Math.max(0, context.nowMs - context.startedMs);
      return { limitMinutes: params.minutes, waitMs: Math.max(0, limitMs - sinceStart), playedMs: Math.max(limitMs, sinceStart) };
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
      after: {
        realityCheck: { target: 'reached', actions: { type: 'limitReached', params: ({ context }) => ({ playedMs: context.playedMs }) } },
      },
    },
    /** The limit: the app has ended the session. */
    reached: { type: 'final' },
  },
});
