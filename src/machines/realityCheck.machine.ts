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
 * limit applies from the next login, as on the server). The time left is reckoned on the server's clock
 * when the check starts; the wait (the named delay `realityCheck`) is that time less what the device's
 * clock counted while the limit was being read (`readClock`), so a slow answer does not push the end of
 * the session back. A failed load shows nothing: the server still ends the session, and the app says so
 * at its next call.
 */

const MINUTE_MS = 60_000;

export interface RealityCheckInput {
  /** When the session started (ISO 8601). */
  sessionStartedAt: string;
  /** When the check started (ISO 8601), on the server's clock. */
  now: string;
  /** When the check started, on this device's clock (ISO 8601). */
  deviceNow: string;
}

export interface RealityCheckContext {
  startedMs: number;
  nowMs: number;
  /** The device's clock when the check started. */
  deviceStartMs: number;
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
    /** This device's clock now (ISO 8601). */
    readClock: notProvided<string, undefined>('readClock'),
  },
  actions: {
    /** The session reached its limit: the app ends it and says how long the player has played. */
    limitReached: (_, _params: { playedMs: number }) => {},
    storeLimit: assign((_, params: { minutes: number | null }) => ({ limitMinutes: params.minutes })),
    /** The wait from now: the time left when the check started, less what the device counted since. */
    startWait: assign(({ context }, params: { deviceNow: string }) => {
      const limitMs = (context.limitMinutes ?? 0) * MINUTE_MS;
      const sinceCheck = Math.max(0, Date.parse(params.deviceNow) - context.deviceStartMs);
      const sinceStart = Math.max(0, context.nowMs - context.startedMs) + sinceCheck;
      return { waitMs: Math.max(0, limitMs - sinceStart), playedMs: Math.max(limitMs, sinceStart) };
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
    deviceStartMs: Date.parse(input.deviceNow),
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
          { target: 'timing', actions: { type: 'storeLimit', params: ({ event }) => ({ minutes: event.output.sessionLimitMinutes }) } },
        ],
        onError: 'unavailable',
      },
    },
    /** The limit is known: the wait is reckoned from the device's clock now. */
    timing: {
      invoke: {
        src: 'readClock',
        onDone: { target: 'waiting', actions: { type: 'startWait', params: ({ event }) => ({ deviceNow: event.output }) } },
        // No time to count from: as with a failed load, the server still ends the session.
        onError: 'unavailable',
      },
    },
    /** No session limit: nothing to check. */
    unlimited: {},
    /** The settings or the clock could not be read: nothing shows. */
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
