// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { houseTableFixtures } from '../../src/flows/fixtures/house.ts';
import { formatAmount } from '../../src/format.ts';
import { parseAmount } from '../../src/money.ts';
import type { HouseRound, HouseTable } from '../../src/machines/house.ts';
import type { houseTableMachine } from '../../src/machines/houseTable.machine.ts';
import { DicePage } from '../../src/views/house/Dice.tsx';
import { LimboPage } from '../../src/views/house/Limbo.tsx';
import { PlinkoPage } from '../../src/views/house/Plinko.tsx';
import { SlotPage } from '../../src/views/house/Slot.tsx';
import { announced, renderHousePage } from './house.tsx';
import { describeModel, type View } from './run.tsx';
import { setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type TableView = View<typeof houseTableMachine>;
type TableSnapshot = SnapshotFrom<typeof houseTableMachine>;

/*
 * Dice, Limbo, Plinko and the slot on their own pages: the table loads (or the page says why not, with
 * Retry), the player sets the amount (typed, ½, 2×) and the game's parameters, plays (the button busy),
 * the result is animated, then said in the live region and listed; a refusal is said beside its control
 * or as an alert; the seed panel (its own flow, houseSeeds.mbt.test.tsx) shows the table's seeds, the
 * nonce of the round after the last one, and lets the seeds rotate between rounds only.
 */

const PLAY_LABEL = { dice: 'house.dice.play', limbo: 'house.limbo.play', plinko: 'house.plinko.play', slot: 'house.slot.play' } as const;

function playButton(view: TableView): HTMLButtonElement {
  return screen.getByRole('button', { name: view.t(PLAY_LABEL[view.input.engine]) });
}

function amountField(view: TableView): HTMLInputElement {
  return screen.getByLabelText(view.t('house.amount')) as HTMLInputElement;
}

/** The money of the table as the page writes it. */
function money(view: TableView, amount: string, table: HouseTable | null): string {
  return formatAmount(amount, table?.currencyCode ?? '', view.language);
}

function outcomeText(view: TableView, round: HouseRound): string {
  if (!/[1-9]/.test(round.payout)) return view.t('house.noWin');
  const [whole, fraction = ''] = (round.multiplier ?? '0').split('.');
  const text = view.t(parseAmount(round.payout) < parseAmount(round.amount) ? 'house.returned' : 'house.won', { amount: money(view, round.payout, view.steps[0]!.state.context.table ?? null).trim(), multiplier: `${whole}.${fraction.padEnd(2, '0')}` });
  return round.state === 'pending' ? `${text} ${view.t('house.pending')}` : text;
}

function seeTable(view: TableView, snapshot: TableSnapshot, settling: 'playing' | 'showing' | null) {
  const { context } = snapshot;
  const table = context.table!;
  screen.getByRole('heading', { level: 1, name: table.game.name });
  const balance = screen.getByTestId('house-balance').textContent?.replaceAll('\u00a0', ' ');
  const label = table.demo ? view.t('house.playMoney') : view.t('house.balance');
  expect(balance).toBe(`${label}: ${context.balance === null ? view.t('house.balanceOwed') : money(view, context.balance, table).replaceAll('\u00a0', ' ')}`);
  expect(amountField(view).value).toBe(context.amount);
  if (context.amountError) screen.getByText(view.t(ruleMessageKey(context.amountError)!));
  for (const { code } of context.fieldErrors) screen.getByText(view.t(ruleMessageKey(code)!));
  const alert = screen.queryByRole('alert');
  if (context.errorCode !== null && context.fieldErrors.length === 0) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeNull();
  const play = playButton(view);
  expect(play.disabled, 'Play disabled while a round settles').toBe(settling !== null);
  expect(play.getAttribute('aria-busy')).toBe(String(settling === 'playing'));
  const live = screen.getByTestId('house-result');
  expect(live.getAttribute('aria-live')).toBe('polite');
  if (settling === null && context.round) expect(live.textContent?.replaceAll('\u00a0', ' ')).toContain(outcomeText(view, context.round).replaceAll('\u00a0', ' '));
  else expect(live.textContent).toBe('');
  const results = screen.getByRole('heading', { name: view.t('house.lastResults') }).parentElement!;
  expect(within(results).queryAllByRole('listitem')).toHaveLength(context.history.length);
  const rotate = screen.getByRole('button', { name: view.t('house.fairness.rotate') }) as HTMLButtonElement;
  expect(rotate.disabled, 'Rotate between rounds only').toBe(settling !== null);
  expect(screen.getByTestId('server-seed-hash').textContent).toBe(table.seeds?.serverSeedHash);
  expect(screen.getByTestId('next-server-seed-hash').textContent).toBe(table.seeds?.nextServerSeedHash);
  const nonce = Math.max(table.seeds?.nonce ?? 0, context.round ? context.round.seeds.nonce + 1 : 0);
  expect(screen.getByTestId('nonce').textContent, 'the nonce of the round after the last one').toBe(String(nonce));
  expect(screen.queryByTestId('revealed-seed')).toBeNull();
  // The parent hears of every settled real-money round, and of nothing else.
  const settled = view.steps.filter((step) => step.kind.kind === 'done' && step.kind.src.startsWith('play')).map((step) => (step.event as EventObject & { output: HouseRound }).output);
  expect(announced).toEqual(settled.filter((round) => !round.demo && round.state !== 'open'));
}

const ENGINE_TABLE: Record<string, string> = { dice: 'Dice', limbo: 'Limbo', plinko: 'Plinko', slot: 'Classic Slot' };

describeModel('houseTable', {
  fixtures: houseTableFixtures,
  filterEvents: (snapshot, event) => {
    const context = (snapshot as TableSnapshot).context;
    const opening = context.table !== null && context.amount === (context.table.demo ? '1' : '0.001');
    if (event.type.startsWith('xstate.done.actor.') && event.type.endsWith('loading')) {
      return ENGINE_TABLE[context.engine] === (event as EventObject & { output: HouseTable }).output.game.name;
    }
    switch (event.type) {
      // One change of the amount per path, from the table's opening amount.
      case 'AMOUNT.CHANGE':
      case 'AMOUNT.HALVE':
      case 'AMOUNT.DOUBLE':
        return opening && context.round === null;
      case 'DICE.CHANGE':
        return context.engine === 'dice' && context.dice.target === 5000 && context.dice.direction === 'under';
      case 'LIMBO.CHANGE':
        return context.engine === 'limbo' && context.limbo.target === 200;
      case 'PLINKO.CHANGE':
        return context.engine === 'plinko' && context.plinko.rows === 12;
      // One round per path.
      case 'PLAY':
        return context.round === null;
      default:
        return true;
    }
  },
  render: (view) => {
    const pages = { dice: DicePage, limbo: LimboPage, plinko: PlinkoPage, slot: SlotPage };
    const Page = pages[view.input.engine];
    return renderHousePage(<Page sessionId={view.input.sessionId} />, { actors: view.actors as never, language: view.language });
  },
  events: {
    'AMOUNT.CHANGE': (view, event) => setField(view.user, view.t('house.amount'), event.value),
    'AMOUNT.HALVE': (view) => view.user.click(screen.getByRole('button', { name: '½' })),
    'AMOUNT.DOUBLE': (view) => view.user.click(screen.getByRole('button', { name: '2×' })),
    'DICE.CHANGE': async (view, event) => {
      if (event.direction === 'over') {
        await view.user.click(screen.getByRole('button', { name: view.t('house.dice.over') }));
        return;
      }
      const target = screen.getByRole('textbox', { name: view.t('house.dice.target') });
      await view.user.tripleClick(target);
      await view.user.paste(String(event.target / 100));
    },
    'LIMBO.CHANGE': (view, event) => setField(view.user, view.t('house.limbo.target'), String(event.target / 100)),
    'PLINKO.CHANGE': (view, event) => view.user.selectOptions(screen.getByRole('combobox', { name: view.t('house.plinko.rows') }), String(event.rows)),
    PLAY: (view) => view.user.click(playButton(view)),
    RETRY: (view) => view.user.click(screen.getByRole('button', { name: view.t('common.retry') })),
  },
  states: {
    loading: (view) => {
      expect(screen.getAllByText(view.t('house.loading')).length).toBeGreaterThan(0);
      expect(screen.queryByRole('button', { name: view.t(PLAY_LABEL[view.input.engine]) })).toBeNull();
    },
    unavailable: (view, snapshot) => {
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      screen.getByRole('button', { name: view.t('common.retry') });
      expect(screen.queryByRole('button', { name: view.t(PLAY_LABEL[view.input.engine]) })).toBeNull();
    },
    idle: (view, snapshot) => seeTable(view, snapshot, null),
    'playing.dice': (view, snapshot) => seeTable(view, snapshot, 'playing'),
    'playing.limbo': (view, snapshot) => seeTable(view, snapshot, 'playing'),
    'playing.plinko': (view, snapshot) => seeTable(view, snapshot, 'playing'),
    'playing.slot': (view, snapshot) => seeTable(view, snapshot, 'playing'),
    showing: (view, snapshot) => seeTable(view, snapshot, 'showing'),
  },
});
