// @vitest-environment happy-dom
import { useState } from 'react';
import { act, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { DICE_WIN, houseSeedsFixtures } from '../../src/flows/fixtures/house.ts';
import type { HouseRound, HouseSeedPairs, HouseSeeds } from '../../src/machines/house.ts';
import type { houseSeedsMachine } from '../../src/machines/houseSeeds.machine.ts';
import { FairnessPanel } from '../../src/views/house/HouseParts.tsx';
import { renderHousePage } from './house.tsx';
import { describeModel, type View } from './run.tsx';
import { setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type SeedsView = View<typeof houseSeedsMachine>;
type SeedsSnapshot = SnapshotFrom<typeof houseSeedsMachine>;

/*
 * The seed panel of a house game's page: the active pair (its server seed's hash, client seed, the next
 * round's nonce) and the next pair (its server seed's hash shown before the player picks its client seed;
 * the client seed in a field, saved at any time); Rotate reveals the active server seed and makes the next
 * pair active as shown. A client seed that cannot be played is refused beside the field before any call,
 * the server's refusals beside the field or as an alert. The page hands the panel each round it plays
 * (here a host that plays a round with the seeds of the event).
 */

let playRound: (seeds: HouseSeeds) => void = () => {
  throw new Error('the panel is not rendered');
};

function Host({ sessionId, seeds }: { sessionId: string; seeds: HouseSeedPairs }) {
  const [round, setRound] = useState<HouseRound | null>(null);
  playRound = (played) => setRound({ ...DICE_WIN, seeds: played });
  return <FairnessPanel sessionId={sessionId} seeds={seeds} round={round} canRotate />;
}

function seePanel(view: SeedsView, snapshot: SeedsSnapshot, moment: 'idle' | 'saving' | 'rotating') {
  const { context } = snapshot;
  const text = (id: string) => screen.getByTestId(id).textContent;
  expect(text('server-seed-hash')).toBe(context.seeds.serverSeedHash);
  expect(text('client-seed')).toBe(context.seeds.clientSeed);
  expect(text('nonce')).toBe(String(context.seeds.nonce));
  expect(text('next-server-seed-hash')).toBe(context.seeds.nextServerSeedHash);
  expect(text('next-client-seed')).toBe(context.seeds.nextClientSeed);

  const field = screen.getByLabelText(view.t('house.fairness.nextClientSeed')) as HTMLInputElement;
  expect(field.value).toBe(context.nextClientSeed);
  expect(field.readOnly, 'the field is fixed while a call is out').toBe(moment !== 'idle');
  const fieldCodes = context.fieldErrors.filter((error) => error.field === 'clientSeed').map((error) => error.code);
  expect(field.getAttribute('aria-invalid')).toBe(String(fieldCodes.length > 0));
  for (const code of fieldCodes) screen.getByText(view.t(ruleMessageKey(code)!));
  const alert = screen.queryByRole('alert');
  if (context.errorCode !== null && context.fieldErrors.length === 0) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeNull();

  const save = screen.getByRole('button', { name: view.t('house.fairness.saveNext') }) as HTMLButtonElement;
  const rotate = screen.getByRole('button', { name: view.t('house.fairness.rotate') }) as HTMLButtonElement;
  expect([save.disabled, rotate.disabled]).toEqual([moment !== 'idle', moment !== 'idle']);
  expect([save.getAttribute('aria-busy'), rotate.getAttribute('aria-busy')]).toEqual([String(moment === 'saving'), String(moment === 'rotating')]);
  if (context.revealed) expect(text('revealed-seed')).toBe(context.revealed.serverSeed);
  else expect(screen.queryByTestId('revealed-seed')).toBeNull();
}

describeModel('houseSeeds', {
  fixtures: houseSeedsFixtures,
  filterEvents: (snapshot, event) => {
    const { context } = snapshot as SeedsSnapshot;
    switch (event.type) {
      // One change of the field per path, and one save and one rotation.
      case 'NEXT.CHANGE':
        return context.nextClientSeed === context.seeds.nextClientSeed && context.fieldErrors.length === 0 && context.revealed === null;
      case 'NEXT.SAVE':
        return context.seeds.nextClientSeed !== 'my-lucky-seed' && context.revealed === null;
      case 'ROTATE':
        return context.revealed === null;
      // A round with the table's pair, and one with the pair a rotation makes active.
      case 'PLAYED':
        return context.seeds.nonce === 13 || context.seeds.nonce === 0;
      default:
        return true;
    }
  },
  render: (view) => renderHousePage(<Host sessionId={view.input.sessionId} seeds={view.input.seeds} />, { actors: view.actors as never, language: view.language }),
  events: {
    'NEXT.CHANGE': (view, event) => setField(view.user, view.t('house.fairness.nextClientSeed'), event.value),
    'NEXT.SAVE': (view) => view.user.click(screen.getByRole('button', { name: view.t('house.fairness.saveNext') })),
    ROTATE: (view) => view.user.click(screen.getByRole('button', { name: view.t('house.fairness.rotate') })),
    PLAYED: async (_view, event) => act(() => playRound(event.seeds)),
  },
  states: {
    idle: (view, snapshot) => seePanel(view, snapshot, 'idle'),
    saving: (view, snapshot) => seePanel(view, snapshot, 'saving'),
    rotating: (view, snapshot) => seePanel(view, snapshot, 'rotating'),
  },
});
