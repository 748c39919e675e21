import { fromPromise } from 'xstate';
import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import type { HouseRound, HouseSeedPairs, HouseTable, SeedRotation } from './house.ts';
import type { DiceChoice, PlayRequest } from './houseTable.machine.ts';
import type { PlinkoRisk } from '../fairness/plinko.ts';

/*
 * The real implementations of the house games' API actors (tag houseGames of openapi.yaml), one per actor
 * name, each one call of the typed client; the house pages' composition root (src/views/house/wiring.ts)
 * provides them. Kept apart from src/machines/actors.ts so that the SPA's first load does not carry them.
 */

const path = (sessionId: string) => ({ path: { sessionId } });

/** GET /house/{sessionId}: the table, or the ApiFailure of its refusal. */
export async function fetchHouseTable(client: ApiClient, sessionId: string, signal?: AbortSignal): Promise<HouseTable> {
  const answer = await settle(client.GET('/house/{sessionId}', { params: path(sessionId), ...(signal ? { signal } : {}) }));
  return answer.data.houseTable;
}

export function createHouseActors(client: ApiClient) {
  return {
    loadHouseTable: fromPromise<HouseTable, { sessionId: string }>(({ input, signal }) => fetchHouseTable(client, input.sessionId, signal)),
    playDice: fromPromise<HouseRound, PlayRequest<DiceChoice>>(async ({ input, signal }) => {
      const body = { amount: input.amount, target: input.params.target, direction: input.params.direction };
      const answer = await settle(client.POST('/house/{sessionId}/dice', { params: path(input.sessionId), body, signal }));
      return answer.data.houseRound;
    }),
    playLimbo: fromPromise<HouseRound, PlayRequest<{ target: number }>>(async ({ input, signal }) => {
      const body = { amount: input.amount, target: input.params.target };
      const answer = await settle(client.POST('/house/{sessionId}/limbo', { params: path(input.sessionId), body, signal }));
      return answer.data.houseRound;
    }),
    playPlinko: fromPromise<HouseRound, PlayRequest<{ rows: number; risk: PlinkoRisk }>>(async ({ input, signal }) => {
      const body = { amount: input.amount, rows: input.params.rows, risk: input.params.risk };
      const answer = await settle(client.POST('/house/{sessionId}/plinko', { params: path(input.sessionId), body, signal }));
      return answer.data.houseRound;
    }),
    playSlot: fromPromise<HouseRound, PlayRequest<Record<string, never>>>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/house/{sessionId}/slot', { params: path(input.sessionId), body: { amount: input.amount }, signal }));
      return answer.data.houseRound;
    }),
    startMines: fromPromise<HouseRound, { sessionId: string; amount: string; mineCount: number }>(async ({ input, signal }) => {
      const body = { amount: input.amount, mineCount: input.mineCount };
      const answer = await settle(client.POST('/house/{sessionId}/mines', { params: path(input.sessionId), body, signal }));
      return answer.data.houseRound;
    }),
    revealMinesTile: fromPromise<HouseRound, { sessionId: string; tile: number }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/house/{sessionId}/mines/reveal', { params: path(input.sessionId), body: { tile: input.tile }, signal }));
      return answer.data.houseRound;
    }),
    cashOutMines: fromPromise<HouseRound, { sessionId: string }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/house/{sessionId}/mines/cash-out', { params: path(input.sessionId), signal }));
      return answer.data.houseRound;
    }),
    setNextHouseSeed: fromPromise<HouseSeedPairs, { sessionId: string; clientSeed: string }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/house/{sessionId}/seeds/next', { params: path(input.sessionId), body: { clientSeed: input.clientSeed }, signal }));
      return answer.data.seeds;
    }),
    rotateHouseSeeds: fromPromise<SeedRotation, { sessionId: string; clientSeed: string | null }>(async ({ input, signal }) => {
      const body = input.clientSeed === null ? {} : { clientSeed: input.clientSeed };
      const answer = await settle(client.POST('/house/{sessionId}/seeds/rotate', { params: path(input.sessionId), body, signal }));
      return answer.data;
    }),
  };
}

export type HouseActors = ReturnType<typeof createHouseActors>;
