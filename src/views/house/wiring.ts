import { createContext, useContext, useState } from 'react';
import { useActorRef } from '@xstate/react';
import { fromPromise, type ActorRefFrom, type InspectionEvent } from 'xstate';
import { createApiClient } from '../../api/client.ts';
import { createHouseActors, fetchHouseTable, type HouseActors } from '../../machines/house.actors.ts';
import type { HouseRound, HouseTable } from '../../machines/house.ts';
import { houseSeedsMachine, type HouseSeedsInput } from '../../machines/houseSeeds.machine.ts';
import { houseTableMachine, type HouseTableInput } from '../../machines/houseTable.machine.ts';
import { minesMachine, type MinesInput } from '../../machines/mines.machine.ts';
import { ApiFailure } from '../../machines/failure.ts';

/*
 * The house pages' composition root (src/views/wiring.ts is the SPA's): the one place where the house
 * games' machines get their real actors, actions and delays. A house page is a document of its own in a
 * frame of the game page (/play/SESSION), so its outside is small: the API (with the player's token, which
 * the parent hands over), the parent it tells about settled rounds, and the player's wish for less motion.
 */

export const TOKEN_STORAGE_KEY = 'casino.token';
/** How long a real-money page waits for its parent's answer with the token before it reads local storage. */
export const TOKEN_WAIT_MS = 2000;
const RESULT_SHOWN_MS = 900;

export interface HouseOutside {
  actors: HouseActors;
  /** A real-money round was settled: the parent's balance pill may look again. */
  announceRound(round: HouseRound): void;
  /** The player asked for less motion: results are stated at once. */
  reducedMotion: boolean;
  inspect?: (event: InspectionEvent) => void;
}

export function createHouseFlows(outside: HouseOutside) {
  const { actors } = outside;
  const announceRound = (_: unknown, params: { round: HouseRound }) => {
    if (!params.round.demo && params.round.state !== 'open') outside.announceRound(params.round);
  };
  const delays = { resultShown: outside.reducedMotion ? 0 : RESULT_SHOWN_MS };
  return {
    houseTable: houseTableMachine.provide({
      actors: {
        loadHouseTable: actors.loadHouseTable,
        playDice: actors.playDice,
        playLimbo: actors.playLimbo,
        playPlinko: actors.playPlinko,
        playSlot: actors.playSlot,
      },
      actions: { announceRound },
      delays,
    }),
    mines: minesMachine.provide({
      actors: {
        loadHouseTable: actors.loadHouseTable,
        startMines: actors.startMines,
        revealMinesTile: actors.revealMinesTile,
        cashOutMines: actors.cashOutMines,
      },
      actions: { announceRound },
      delays,
    }),
    houseSeeds: houseSeedsMachine.provide({
      actors: { setNextHouseSeed: actors.setNextHouseSeed, rotateHouseSeeds: actors.rotateHouseSeeds },
    }),
  };
}

export interface HouseWiring {
  flows: ReturnType<typeof createHouseFlows>;
  inspect?: (event: InspectionEvent) => void;
}

export function createHouseWiring(outside: HouseOutside): HouseWiring {
  return { flows: createHouseFlows(outside), ...(outside.inspect ? { inspect: outside.inspect } : {}) };
}

export const HouseWiringContext = createContext<HouseWiring | null>(null);

function useHouseWiring(): HouseWiring {
  const wiring = useContext(HouseWiringContext);
  if (!wiring) throw new Error('a house page outside its wiring');
  return wiring;
}

/** The Dice, Limbo, Plinko or slot page's running flow. */
export function useHouseTable(input: HouseTableInput): ActorRefFrom<typeof houseTableMachine> {
  const wiring = useHouseWiring();
  const [options] = useState(() => ({ input, ...(wiring.inspect ? { inspect: wiring.inspect } : {}) }));
  return useActorRef(wiring.flows.houseTable, options) as ActorRefFrom<typeof houseTableMachine>;
}

/** The seed panel's running flow, started with the table's seeds. */
export function useHouseSeeds(input: HouseSeedsInput): ActorRefFrom<typeof houseSeedsMachine> {
  const wiring = useHouseWiring();
  const [options] = useState(() => ({ input, ...(wiring.inspect ? { inspect: wiring.inspect } : {}) }));
  return useActorRef(wiring.flows.houseSeeds, options) as ActorRefFrom<typeof houseSeedsMachine>;
}

/** The Mines page's running flow. */
export function useMines(input: MinesInput): ActorRefFrom<typeof minesMachine> {
  const wiring = useHouseWiring();
  const [options] = useState(() => ({ input, ...(wiring.inspect ? { inspect: wiring.inspect } : {}) }));
  return useActorRef(wiring.flows.mines, options) as ActorRefFrom<typeof minesMachine>;
}

// ── The browser's outside ─────────────────────────────────────────────────────────────────────────────

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The page's parent (the game page), when it has one on this site: the page says it is ready and the parent
 * answers with the player's token; the page tells it about settled rounds. Opened on its own, the page uses
 * the token this browser saved (a demo session needs none).
 */
function parentLink() {
  const embedded = window.parent !== window;
  let token = storedToken();
  let answered = !embedded;
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  if (answered) arrive();
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== window.location.origin) return;
    const data = event.data as { type?: unknown; token?: unknown } | null;
    if (data?.type !== 'house:token') return;
    if (typeof data.token === 'string' || data.token === null) token = data.token ?? storedToken();
    answered = true;
    arrive();
  });
  if (embedded) {
    window.parent.postMessage({ type: 'house:ready' }, window.location.origin);
    setTimeout(() => {
      answered = true;
      arrive();
    }, TOKEN_WAIT_MS);
  }
  return {
    token: () => token,
    /** Resolves once the parent answered (or could not: 2 s, or no parent). */
    answered: () => (answered ? Promise.resolve() : arrived),
    hasAnswered: () => answered,
    announceRound: () => {
      if (embedded) window.parent.postMessage({ type: 'house:round' }, window.location.origin);
    },
  };
}

export function createBrowserHouseWiring(): HouseWiring {
  const parent = parentLink();
  const client = createApiClient({ getToken: parent.token, onUnauthorized: () => {} });
  // A demo session plays at once; a real one answers 404 until the player's token is there: the table is
  // asked for again once the parent has answered (or the 2 s are up and the saved token is used).
  const loadHouseTable = fromPromise<HouseTable, { sessionId: string }>(async ({ input, signal }) => {
    const before = parent.token();
    try {
      return await fetchHouseTable(client, input.sessionId, signal);
    } catch (error) {
      const notFound = error instanceof ApiFailure && error.status === 404;
      if (!notFound || parent.hasAnswered()) throw error;
      await parent.answered();
      if (parent.token() === before) throw error;
      return fetchHouseTable(client, input.sessionId, signal);
    }
  });
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  return createHouseWiring({
    actors: { ...createHouseActors(client), loadHouseTable },
    announceRound: parent.announceRound,
    reducedMotion,
  });
}
