import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import * as house from '../games/house.ts';
import { HouseGameError } from '../games/errors.ts';
import type { JsonHandlers } from './types.ts';

/** The built-in game provider's refusals, as API errors. */
function houseFailure(error: unknown): never {
  if (error instanceof HouseGameError) throw new DomainError(error.code, error.fields);
  throw error;
}

/**
 * houseGames: thin handlers over server/games, the built-in game provider. The provider is reached as an
 * outside party would be (its own module, money only through the signed game wallet over HTTP); the
 * player's token, when sent, says whose real-money session it may be.
 */
export function houseHandlers(ctx: AppContext): JsonHandlers {
  // Read at each call: tests swap the wallet's transport to drop or delay its answers.
  const hc = (): house.HouseContext => ({
    db: ctx.db,
    now: ctx.now,
    wallet: ctx.houseWallet,
    log: (message) => console.warn(message),
  });
  const run = <T>(work: Promise<T>) => work.catch(houseFailure);
  return {
    houseGetTable: async ({ params, auth }) => ({
      houseTable: await run(house.getTable(hc(), params.sessionId, auth?.userId ?? null)),
    }),
    housePlayDice: async ({ params, body, auth }) => ({
      houseRound: await run(house.playInstant(hc(), params.sessionId, auth?.userId ?? null, 'dice', body)),
    }),
    housePlayLimbo: async ({ params, body, auth }) => ({
      houseRound: await run(house.playInstant(hc(), params.sessionId, auth?.userId ?? null, 'limbo', body)),
    }),
    housePlayPlinko: async ({ params, body, auth }) => ({
      houseRound: await run(house.playInstant(hc(), params.sessionId, auth?.userId ?? null, 'plinko', body)),
    }),
    housePlaySlot: async ({ params, body, auth }) => ({
      houseRound: await run(house.playInstant(hc(), params.sessionId, auth?.userId ?? null, 'slot', body)),
    }),
    houseMinesStart: async ({ params, body, auth }) => ({
      houseRound: await run(house.minesStart(hc(), params.sessionId, auth?.userId ?? null, body)),
    }),
    houseMinesReveal: async ({ params, body, auth }) => ({
      houseRound: await run(house.minesReveal(hc(), params.sessionId, auth?.userId ?? null, body.tile)),
    }),
    houseMinesCashOut: async ({ params, auth }) => ({
      houseRound: await run(house.minesCashOut(hc(), params.sessionId, auth?.userId ?? null)),
    }),
    houseSetNextSeed: async ({ params, body, auth }) => ({
      seeds: await run(house.setNextSeed(hc(), params.sessionId, auth?.userId ?? null, body.clientSeed)),
    }),
    houseRotateSeeds: async ({ params, body, auth }) =>
      run(house.rotateSeeds(hc(), params.sessionId, auth?.userId ?? null, body.clientSeed)),
  };
}
