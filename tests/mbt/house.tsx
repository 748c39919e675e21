import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { fromPromise, type NonReducibleUnknown } from 'xstate';
import { createTranslator, type Language } from '../../src/i18n/index.ts';
import type { HouseActors } from '../../src/machines/house.actors.ts';
import type { HouseRound } from '../../src/machines/house.ts';
import { ApiFailure } from '../../src/machines/failure.ts';
import { TranslatorContext } from '../../src/views/i18n-context.ts';
import { createHouseWiring, HouseWiringContext } from '../../src/views/house/wiring.ts';
import { shareGooberSheet, type Harness } from '../unit/views/harness.tsx';

/*
 * A house game's page rendered on the house pages' own composition root (src/views/house/wiring.ts),
 * with the model test's fake actors; the rounds the page announced to its parent are recorded.
 */

function unexpected<TOutput, TInput = NonReducibleUnknown>() {
  return fromPromise<TOutput, TInput>(async () => {
    throw new ApiFailure(0, null);
  });
}

export const announced: HouseRound[] = [];

export function renderHousePage(ui: ReactElement, options: { actors: Partial<HouseActors>; language?: Language }): Harness {
  shareGooberSheet();
  announced.length = 0;
  const actors: HouseActors = {
    loadHouseTable: unexpected(),
    playDice: unexpected(),
    playLimbo: unexpected(),
    playPlinko: unexpected(),
    playSlot: unexpected(),
    startMines: unexpected(),
    revealMinesTile: unexpected(),
    cashOutMines: unexpected(),
    setNextHouseSeed: unexpected(),
    rotateHouseSeeds: unexpected(),
    ...options.actors,
  };
  const wiring = createHouseWiring({ actors, announceRound: (round) => void announced.push(round), reducedMotion: false });
  const result = render(
    <TranslatorContext.Provider value={createTranslator(options.language ?? 'en')}>
      <HouseWiringContext.Provider value={wiring}>{ui}</HouseWiringContext.Provider>
    </TranslatorContext.Provider>,
  );
  return result as unknown as Harness;
}
