import { assign, setup } from 'xstate';
import type { ErrorCode, Notice } from './effects.ts';
import { notProvided } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The heart on a game tile (POST /casino/toggle-favorite-game): it turns at once and the call follows;
 * a refusal turns it back and says why. A visitor is told "Please login first" (SPEC §6) and the login
 * dialog opens; nothing is sent.
 */

export interface FavouriteInput {
  gameId: number;
  isFavorite: boolean;
  signedIn: boolean;
}

export interface FavouriteContext extends FavouriteInput {
  errorCode: ErrorCode | null;
}

export interface FavouriteToggle {
  gameId: number;
  isFavorite: boolean;
}

export type FavouriteEvent = { type: 'TOGGLE' };

export const favouriteMachine = setup({
  types: {
    context: {} as FavouriteContext,
    events: {} as FavouriteEvent,
    input: {} as FavouriteInput,
  },
  actors: {
    /** POST /casino/toggle-favorite-game */
    toggleFavourite: notProvided<FavouriteToggle, { gameId: number }>('toggleFavourite'),
  },
  actions: {
    /** SPEC §6: "Please login first", and the login dialog. */
    askToLogIn: () => {},
    notify: (_, _params: Notice) => {},
    flip: assign(({ context }) => ({ isFavorite: !context.isFavorite, errorCode: null })),
    store: assign((_, params: { toggle: FavouriteToggle }) => ({ isFavorite: params.toggle.isFavorite })),
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
  },
  guards: {
    visitor: ({ context }) => !context.signedIn,
  },
}).createMachine({
  id: 'favourite',
  context: ({ input }) => ({ ...input, errorCode: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        TOGGLE: [{ guard: 'visitor', actions: 'askToLogIn' }, { target: 'saving', actions: 'flip' }],
      },
    },
    saving: {
      invoke: {
        src: 'toggleFavourite',
        input: ({ context }) => ({ gameId: context.gameId }),
        onDone: { target: 'idle', actions: { type: 'store', params: ({ event }) => ({ toggle: event.output }) } },
        onError: {
          target: 'idle',
          actions: [
            'flip',
            { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, code: toFailure(event.error).code, fallback: 'default' as const }) },
          ],
        },
      },
    },
  },
});
