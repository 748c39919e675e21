import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import type { Game } from './gameList.machine.ts';

/*
 * The game page. A tile's Play (real money) or Demo opens `/play?game=ID&mode=real|demo`: the page opens a
 * session (POST /casino/init-game, or init-game-demo, which a visitor may use too), puts its id in the
 * address (`/play/SESSION`, replacing the entry, so a reload or Back does not open another) and reads it
 * with its game (GET /casino/game-session), which is also all a reload of `/play/SESSION` does. Then it
 * reads the session's house table (GET /house/SESSION) to learn the engine the title runs on: with one the
 * game's own page opens in a frame (`/house/ENGINE.html?session=SESSION`); a title no engine can honestly
 * stand in for (live dealers, sports) is said to be unplayable here, never an empty frame. Real money
 * needs a logged-in player: a visitor is asked to log in first (SPEC §6). A refusal (self-exclusion, a
 * limit used up, a game gone) is shown with its message. The bar above the game switches between real
 * money and demo (a new session) and closes the page back to where the player came from.
 */

export type GameSession = components['schemas']['GameSession'];
export type PlayMode = 'real' | 'demo';
export type HouseTable = components['schemas']['HouseTable'];
export type HouseEngine = components['schemas']['HouseEngine'];

export interface LaunchInput {
  /** The session in the address (`/play/SESSION`), or null to open one. */
  sessionId: string | null;
  /** The game to open when there is no session yet. */
  gameId: number | null;
  mode: PlayMode;
  signedIn: boolean;
}

export interface LaunchContext extends LaunchInput {
  session: GameSession | null;
  game: Game | null;
  /** The session's house table: its engine (null for a title no engine stands in for). */
  table: HouseTable | null;
  errorCode: ErrorCode | null;
}

export interface OpenGameSession {
  gameSession: GameSession;
  game: Game;
}

export type LaunchEvent = { type: 'SWITCH_MODE' } | { type: 'RETRY' } | { type: 'LOG_IN' } | { type: 'CLOSE' };

/** Whether a failed page can try again: it knows the game, or at least the session to read. */
export function canRetry(context: Pick<LaunchContext, 'gameId' | 'sessionId'>): boolean {
  return context.gameId !== null || context.sessionId !== null;
}

export const launchMachine = setup({
  types: {
    context: {} as LaunchContext,
    events: {} as LaunchEvent,
    input: {} as LaunchInput,
  },
  actors: {
    /** POST /casino/init-game */
    launchGame: notProvided<GameSession, { gameId: number }>('launchGame'),
    /** POST /casino/init-game-demo */
    launchDemo: notProvided<GameSession, { gameId: number }>('launchDemo'),
    /** GET /casino/game-session */
    loadGameSession: notProvided<OpenGameSession, { sessionId: string }>('loadGameSession'),
    /** GET /house/{sessionId} */
    loadHouseTable: notProvided<HouseTable, { sessionId: string }>('loadHouseTable'),
  },
  actions: {
    /** The session's page in the address, in place of the launch link: `/play/SESSION`. */
    showSession: (_, _params: { sessionId: string }) => {},
    /** SPEC §6: the login dialog over this page; the page opens the game once the player is in. */
    askToLogIn: () => {},
    /** Back to where the player came from (the lobby when the page was opened directly). */
    leave: () => {},
    storeSession: assign((_, params: { session: GameSession }) => ({ session: params.session, sessionId: params.session.sessionId, errorCode: null })),
    storeOpen: assign((_, params: { open: OpenGameSession }) => ({
      session: params.open.gameSession,
      game: params.open.game,
      gameId: params.open.game.id,
      mode: params.open.gameSession.demo ? ('demo' as const) : ('real' as const),
      errorCode: null,
    })),
    storeTable: assign((_, params: { table: HouseTable }) => ({ table: params.table })),
    otherMode: assign(({ context }) => ({ mode: context.mode === 'real' ? ('demo' as const) : ('real' as const), sessionId: null, table: null, errorCode: null })),
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
    /** Again from the game when it is known (a new session), else the session in the address read again. */
    prepareRetry: assign(({ context }) => ({ errorCode: null, sessionId: context.gameId !== null ? null : context.sessionId })),
  },
  guards: {
    hasSession: ({ context }) => context.sessionId !== null,
    visitorForReal: ({ context }) => context.mode === 'real' && !context.signedIn,
    noGame: ({ context }) => context.gameId === null,
    demo: ({ context }) => context.mode === 'demo',
    retryable: ({ context }) => canRetry(context),
    /** The title runs on a house engine (live dealers and sports do not). */
    hasEngine: (_, params: { table: HouseTable }) => params.table.engine !== null,
    /** Switching to the other mode: real money needs a player, demo a game that has one. */
    otherModeOpen: ({ context }) => (context.mode === 'demo' ? context.signedIn : context.game?.hasDemo === true),
  },
}).createMachine({
  id: 'launch',
  context: ({ input }) => ({ ...input, session: null, game: null, table: null, errorCode: null }),
  initial: 'starting',
  on: {
    CLOSE: { actions: 'leave' },
  },
  states: {
    starting: {
      always: [
        { guard: 'hasSession', target: 'reading' },
        { guard: 'noGame', target: 'failed', actions: assign({ errorCode: 'GAME_NOT_FOUND_ERROR' as const }) },
        { guard: 'visitorForReal', target: 'loginRequired' },
        { guard: 'demo', target: 'launchingDemo' },
        { target: 'launching' },
      ],
    },
    loginRequired: {
      on: { LOG_IN: { actions: 'askToLogIn' } },
    },
    launching: {
      invoke: {
        src: 'launchGame',
        input: ({ context }) => ({ gameId: context.gameId ?? 0 }),
        onDone: {
          target: 'reading',
          actions: [
            { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
            { type: 'showSession', params: ({ event }) => ({ sessionId: event.output.sessionId }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    launchingDemo: {
      invoke: {
        src: 'launchDemo',
        input: ({ context }) => ({ gameId: context.gameId ?? 0 }),
        onDone: {
          target: 'reading',
          actions: [
            { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
            { type: 'showSession', params: ({ event }) => ({ sessionId: event.output.sessionId }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    reading: {
      invoke: {
        src: 'loadGameSession',
        input: ({ context }) => ({ sessionId: context.sessionId ?? '' }),
        onDone: { target: 'loadingTable', actions: { type: 'storeOpen', params: ({ event }) => ({ open: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadingTable: {
      invoke: {
        src: 'loadHouseTable',
        input: ({ context }) => ({ sessionId: context.sessionId ?? '' }),
        onDone: [
          {
            guard: { type: 'hasEngine', params: ({ event }) => ({ table: event.output }) },
            target: 'playing',
            actions: { type: 'storeTable', params: ({ event }) => ({ table: event.output }) },
          },
          { target: 'unavailable', actions: { type: 'storeTable', params: ({ event }) => ({ table: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** A live dealer or sports title: said so, with a way back and to the Originals. */
    unavailable: {},
    playing: {
      on: {
        SWITCH_MODE: { guard: 'otherModeOpen', target: 'starting', actions: 'otherMode' },
      },
    },
    failed: {
      on: {
        RETRY: { guard: 'retryable', target: 'starting', actions: 'prepareRetry' },
      },
    },
  },
});
