import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { CREDITED_WALLETS } from '../../../src/flows/fixtures/wallets.ts';
import {
  BET_HISTORY_PAGE_SIZE,
  betHistoryMachine,
  betHistoryRequest,
  mergeGames,
  NO_FILTER,
  type BetHistoryItem,
  type BetHistoryPage,
  type BetHistoryRequest,
  type GameRef,
} from '../../../src/machines/betHistory.machine.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { deferred, flush, type Deferred } from './fixtures.ts';

const SLOTS: GameRef = { id: 12, name: 'Fruit Slots', identifier: 'sim-fruit-slots' };
const BLACKJACK: GameRef = { id: 7, name: 'Blackjack Classic', identifier: 'sim-blackjack-classic' };
const ROULETTE: GameRef = { id: 3, name: 'Roulette', identifier: 'sim-roulette' };

function aRound(n: number, game: GameRef = SLOTS): BetHistoryItem {
  return {
    roundId: `round-${n}`,
    game,
    betAmount: '0.01',
    multiplier: '2',
    payout: '0.02',
    status: 'won',
    currencyCode: 'LTC',
    createdAt: `2025-02-01T10:${String(n % 60).padStart(2, '0')}:00.000Z`,
  };
}

const page = (rows: BetHistoryItem[], count: number): BetHistoryPage => ({ rows, count });

/** The machine with a fake GET /casino/get-transactions: every call waits until the test answers it. */
function run() {
  const calls: { request: BetHistoryRequest; answer: Deferred<BetHistoryPage> }[] = [];
  const machine = betHistoryMachine.provide({
    actors: {
      // Like a server that answers anyway: the answer to a call the machine stopped still arrives.
      loadBetHistory: fromPromise<BetHistoryPage, BetHistoryRequest>(({ input }) => {
        const answer = deferred<BetHistoryPage>();
        calls.push({ request: input, answer });
        return answer.promise;
      }),
      liveEvents: fromCallback(() => undefined),
    },
  });
  const actor = createActor(machine).start();
  const answer = async (index: number, result: BetHistoryPage | Error) => {
    const call = calls[index]!;
    if (result instanceof Error) call.answer.reject(result);
    else call.answer.resolve(result);
    await flush();
  };
  return { actor, calls, answer };
}

describe('betHistoryRequest', () => {
  const localMidnight = (year: number, month: number, day: number) => new Date(year, month - 1, day).toISOString();

  it('asks for a page of every game, currency and day without a filter', () => {
    expect(betHistoryRequest({ query: NO_FILTER }, 2)).toEqual({ page: 2, limit: BET_HISTORY_PAGE_SIZE });
  });

  it('sends the game, "from" as the start of its day and "to" as the start of the next (endDate is exclusive)', () => {
    expect(betHistoryRequest({ query: { gameId: 12, from: '2025-02-01', to: '2025-02-03' } }, 1)).toEqual({
      page: 1,
      limit: BET_HISTORY_PAGE_SIZE,
      gameId: 12,
      startDate: localMidnight(2025, 2, 1),
      endDate: localMidnight(2025, 2, 4),
    });
  });
});

describe('mergeGames', () => {
  it('keeps every game once, by name', () => {
    expect(mergeGames([SLOTS], [aRound(1, ROULETTE), aRound(2, SLOTS), aRound(3, BLACKJACK), aRound(4, ROULETTE)])).toEqual([BLACKJACK, SLOTS, ROULETTE]);
  });
});

describe('betHistoryMachine', () => {
  it('appends the next page without listing a round twice, and offers every game seen', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([aRound(1), aRound(2, BLACKJACK)], 4));
    actor.send({ type: 'LOAD_MORE' });
    expect(calls[1]!.request.page).toBe(2);
    // A round played meanwhile pushed round 2 down onto page 2.
    await answer(1, page([aRound(2, BLACKJACK), aRound(3, ROULETTE)], 5));
    const { context } = actor.getSnapshot();
    expect(context.rows.map((row) => row.roundId)).toEqual(['round-1', 'round-2', 'round-3']);
    expect(context.games.map((game) => game.name)).toEqual(['Blackjack Classic', 'Fruit Slots', 'Roulette']);
  });

  it('keeps offering the games seen while a game filter narrows the list', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([aRound(1), aRound(2, BLACKJACK)], 2));
    actor.send({ type: 'FILTER', filter: { gameId: BLACKJACK.id, from: '', to: '' } });
    expect(calls[1]!.request).toEqual({ page: 1, limit: BET_HISTORY_PAGE_SIZE, gameId: BLACKJACK.id });
    await answer(1, page([aRound(2, BLACKJACK)], 1));
    expect(actor.getSnapshot().context.games).toEqual([BLACKJACK, SLOTS]);
  });

  it('never shows the late answer to a filter changed meanwhile', async () => {
    const { actor, calls, answer } = run();
    actor.send({ type: 'FILTER', filter: { gameId: null, from: '2025-02-01', to: '' } });
    expect(calls[1]!.request.startDate).toBeDefined();
    await answer(0, page([aRound(9)], 1));
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await answer(1, page([aRound(1)], 1));
    expect(actor.getSnapshot().context.rows.map((row) => row.roundId)).toEqual(['round-1']);
  });

  it('refuses a "to" before "from" without asking, the list keeping the filter accepted', async () => {
    const { actor, calls, answer } = run();
    await answer(0, page([aRound(1)], 1));
    actor.send({ type: 'FILTER', filter: { gameId: null, from: '2025-02-05', to: '2025-02-01' } });
    expect(calls).toHaveLength(1);
    expect(actor.getSnapshot().context.filterError).toBe('dateRange');
    expect(actor.getSnapshot().context.query).toEqual(NO_FILTER);
    // A balance that moved reloads with the filter accepted.
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(calls[1]!.request).toEqual({ page: 1, limit: BET_HISTORY_PAGE_SIZE });
  });

  it('reloads the first page when a balance moves, the rows on screen meanwhile, and says when it fails', async () => {
    const { actor, answer } = run();
    await answer(0, page([aRound(1)], 1));
    actor.send({ type: 'LIVE.WALLETS', wallets: CREDITED_WALLETS });
    expect(actor.getSnapshot().matches({ shown: 'refreshing' })).toBe(true);
    expect(actor.getSnapshot().context.rows).toHaveLength(1);
    await answer(1, page([aRound(2), aRound(1)], 2));
    expect(actor.getSnapshot().context.rows.map((row) => row.roundId)).toEqual(['round-2', 'round-1']);
    actor.send({ type: 'LIVE.RECONNECTED' });
    await answer(2, new ApiFailure(500, 'INTERNAL_SERVER_ERROR'));
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.errorCode).toBe('INTERNAL_SERVER_ERROR');
  });
});
