import { assign, setup } from 'xstate';
import { isClientSeed } from '../fairness/random.ts';
import type { ErrorCode } from './effects.ts';
import { notProvided } from './effects.ts';
import type { ServerFieldError } from './failure.ts';
import { failureOf, type HouseSeedPairs, type HouseSeeds, type RevealedSeedPair, type SeedRotation } from './house.ts';

/*
 * The seed panel of a house game's page (docs/fairness.md, "Rotation"): the active pair (its server seed's
 * SHA-256, its client seed, the next round's nonce) and the next pair (its server seed's SHA-256, drawn
 * when the active pair started, and its client seed, which the player may change and save at any time, a
 * Mines round open too). Rotating reveals the active server seed and makes the next pair active as shown,
 * with the client seed in the field. A client seed that cannot be played (empty, a space, a ':') is refused
 * beside the field before any call. The page tells the panel of each round played (`PLAYED`), so that the
 * nonce shown is the next round's.
 */

export interface HouseSeedsInput {
  sessionId: string;
  /** The pairs as the table gave them. */
  seeds: HouseSeedPairs;
}

export interface HouseSeedsContext {
  sessionId: string;
  seeds: HouseSeedPairs;
  /** What the next client seed's field holds, as typed. */
  nextClientSeed: string;
  /** The server seed revealed by the last rotation. */
  revealed: RevealedSeedPair | null;
  errorCode: ErrorCode | null;
  /** Per-field codes (`clientSeed`): the server's, or the panel's own check. */
  fieldErrors: ServerFieldError[];
}

export type HouseSeedsEvent =
  | { type: 'NEXT.CHANGE'; value: string }
  | { type: 'NEXT.SAVE' }
  | { type: 'ROTATE' }
  /** The page played a round: the pair and the nonce it used. */
  | { type: 'PLAYED'; seeds: HouseSeeds };

const typed = (context: HouseSeedsContext) => context.nextClientSeed.trim();

const refused = {
  target: '#houseSeeds.idle',
  actions: { type: 'storeFailure' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
};

export const houseSeedsMachine = setup({
  types: {
    context: {} as HouseSeedsContext,
    events: {} as HouseSeedsEvent,
    input: {} as HouseSeedsInput,
  },
  actors: {
    /** POST /house/{sessionId}/seeds/next */
    setNextHouseSeed: notProvided<HouseSeedPairs, { sessionId: string; clientSeed: string }>('setNextHouseSeed'),
    /** POST /house/{sessionId}/seeds/rotate */
    rotateHouseSeeds: notProvided<SeedRotation, { sessionId: string; clientSeed: string | null }>('rotateHouseSeeds'),
  },
  actions: {
    setNext: assign((_, params: { value: string }) => ({ nextClientSeed: params.value, errorCode: null, fieldErrors: [] })),
    markNext: assign({ errorCode: null, fieldErrors: [{ field: 'clientSeed', code: 'clientSeed' }] }),
    clearFailure: assign({ errorCode: null, fieldErrors: [] }),
    storeSeeds: assign((_, params: { seeds: HouseSeedPairs }) => ({ seeds: params.seeds, nextClientSeed: params.seeds.nextClientSeed })),
    storeRotation: assign((_, params: { rotation: SeedRotation }) => ({
      seeds: params.rotation.seeds,
      revealed: params.rotation.revealed,
      nextClientSeed: params.rotation.seeds.nextClientSeed,
    })),
    /** A round of the active pair: the next one takes the nonce after it. A round of another pair changes nothing. */
    storePlayed: assign(({ context }, params: { seeds: HouseSeeds }) => {
      const same = params.seeds.serverSeedHash === context.seeds.serverSeedHash && params.seeds.clientSeed === context.seeds.clientSeed;
      if (!same || params.seeds.nonce < context.seeds.nonce) return {};
      return { seeds: { ...context.seeds, nonce: params.seeds.nonce + 1 } };
    }),
    storeFailure: assign((_, params: { error: unknown }) => failureOf(params.error)),
  },
  guards: {
    nextInvalid: ({ context }) => !isClientSeed(typed(context)),
  },
}).createMachine({
  id: 'houseSeeds',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    seeds: input.seeds,
    nextClientSeed: input.seeds.nextClientSeed,
    revealed: null,
    errorCode: null,
    fieldErrors: [],
  }),
  on: {
    PLAYED: { actions: { type: 'storePlayed', params: ({ event }) => ({ seeds: event.seeds }) } },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'NEXT.CHANGE': { actions: { type: 'setNext', params: ({ event }) => ({ value: event.value }) } },
        'NEXT.SAVE': [
          { guard: 'nextInvalid', actions: 'markNext' },
          { target: 'saving', actions: 'clearFailure' },
        ],
        ROTATE: [
          { guard: 'nextInvalid', actions: 'markNext' },
          { target: 'rotating', actions: 'clearFailure' },
        ],
      },
    },
    /** The next client seed is sent: the active pair is not touched. */
    saving: {
      invoke: {
        src: 'setNextHouseSeed',
        input: ({ context }) => ({ sessionId: context.sessionId, clientSeed: typed(context) }),
        onDone: { target: 'idle', actions: { type: 'storeSeeds', params: ({ event }) => ({ seeds: event.output }) } },
        onError: refused,
      },
    },
    /** The active server seed is revealed and the next pair made active, with the client seed of the field. */
    rotating: {
      invoke: {
        src: 'rotateHouseSeeds',
        input: ({ context }) => ({ sessionId: context.sessionId, clientSeed: typed(context) }),
        onDone: { target: 'idle', actions: { type: 'storeRotation', params: ({ event }) => ({ rotation: event.output }) } },
        onError: refused,
      },
    },
  },
});
