// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { minesFixtures } from '../../src/flows/fixtures/house.ts';
import { formatAmount } from '../../src/format.ts';
import { parseAmount } from '../../src/money.ts';
import type { HouseRound } from '../../src/machines/house.ts';
import type { minesMachine } from '../../src/machines/mines.machine.ts';
import { MinesPage } from '../../src/views/house/Mines.tsx';
import { announced, renderHousePage } from './house.tsx';
import { describeModel, type View } from './run.tsx';
import { setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type MinesView = View<typeof minesMachine>;
type MinesSnapshot = SnapshotFrom<typeof minesMachine>;

/*
 * Mines on its own page: the table loads (a round still open is resumed, its gems shown and its cash out
 * offered), Bet places the stake (busy meanwhile), the 5 × 5 board's tiles are buttons named for what
 * they show, a gem raises the cash out, a mine or a cash out ends the round: the mines show, then the
 * result is said and listed; refusals as alerts; the seed panel (its own flow, houseSeeds.mbt.test.tsx)
 * shows the table's seeds, the nonce of the round after the last one, and lets the seeds rotate between
 * rounds only.
 */

const plain = (text: string | null | undefined) => (text ?? '').replaceAll('\u00a0', ' ');

function outcomeText(view: MinesView, round: HouseRound): string {
  if (!/[1-9]/.test(round.payout)) return view.t('house.noWin');
  const [whole, fraction = ''] = (round.multiplier ?? '0').split('.');
  return view.t(parseAmount(round.payout) < parseAmount(round.amount) ? 'house.returned' : 'house.won', { amount: formatAmount(round.payout, round.currencyCode ?? '', view.language), multiplier: `${whole}.${fraction.padEnd(2, '0')}` });
}

type Moment = 'idle' | 'starting' | 'open' | 'revealing' | 'cashingOut' | 'showing';

function seeMines(view: MinesView, snapshot: MinesSnapshot, moment: Moment) {
  const { context } = snapshot;
  const table = context.table!;
  screen.getByRole('heading', { level: 1, name: table.game.name });
  expect(plain(screen.getByTestId('house-balance').textContent)).toBe(
    `${view.t('house.balance')}: ${context.balance === null ? view.t('house.balanceOwed') : plain(formatAmount(context.balance, table.currencyCode ?? '', view.language))}`,
  );
  const amount = screen.getByLabelText(view.t('house.amount')) as HTMLInputElement;
  expect(amount.value).toBe(context.amount);
  const inRound = moment === 'open' || moment === 'revealing' || moment === 'cashingOut';
  expect(amount.disabled, 'the amount is fixed while a round is in play').toBe(inRound || moment === 'starting');
  if (context.amountError) screen.getByText(view.t(ruleMessageKey(context.amountError)!));
  const alert = screen.queryByRole('alert');
  if (context.errorCode !== null && context.fieldErrors.length === 0) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeNull();

  const round = context.round;
  const outcome = round && 'revealed' in round.outcome ? round.outcome : null;
  const board = screen.getByRole('group', { name: view.t('house.mines.board') });
  const tiles = within(board).getAllByRole('button');
  expect(tiles).toHaveLength(25);
  const ended = round !== null && round.state !== 'open';
  tiles.forEach((tile, index) => {
    const gem = outcome?.revealed.includes(index) && !(outcome.mines ?? []).includes(index);
    const mine = ended && (outcome?.mines ?? []).includes(index);
    const name = gem ? view.t('house.mines.safe', { tile: index + 1 }) : mine ? view.t('house.mines.mine', { tile: index + 1 }) : view.t('house.mines.tile', { tile: index + 1 });
    expect(tile.getAttribute('aria-label')).toBe(name);
    expect((tile as HTMLButtonElement).disabled, `tile ${index + 1} pressable`).toBe(moment !== 'open' || Boolean(outcome?.revealed.includes(index)));
  });

  const live = screen.getByTestId('house-result');
  if (inRound) {
    const label = round?.multiplier ? view.t('house.mines.cashOutAt', { multiplier: round.multiplier.includes('.') ? round.multiplier : `${round.multiplier}.00` }) : view.t('house.mines.cashOut');
    const cashOut = screen.getByRole('button', { name: label });
    expect((cashOut as HTMLButtonElement).disabled).toBe(round?.multiplier === null || moment !== 'open');
    expect(cashOut.getAttribute('aria-busy')).toBe(String(moment === 'cashingOut'));
    expect(live.textContent).toBe(moment === 'open' ? view.t('house.mines.pick') : '');
  } else {
    const bet = screen.getByRole('button', { name: view.t('house.mines.start') });
    expect((bet as HTMLButtonElement).disabled).toBe(moment !== 'idle');
    expect(bet.getAttribute('aria-busy')).toBe(String(moment === 'starting'));
    const busted = round !== null && 'end' in round.outcome && round.outcome.end === 'busted';
    if (moment === 'idle' && ended && round) expect(plain(live.textContent)).toBe(plain(`${busted ? `${view.t('house.mines.busted')} ` : ''}${outcomeText(view, round)}`));
    else expect(live.textContent).toBe('');
  }
  const results = screen.getByRole('heading', { name: view.t('house.lastResults') }).parentElement!;
  expect(within(results).queryAllByRole('listitem')).toHaveLength(context.history.length);
  expect((screen.getByRole('button', { name: view.t('house.fairness.rotate') }) as HTMLButtonElement).disabled, 'Rotate between rounds only').toBe(moment !== 'idle');
  expect(screen.getByTestId('server-seed-hash').textContent).toBe(table.seeds?.serverSeedHash);
  expect(screen.getByTestId('next-server-seed-hash').textContent).toBe(table.seeds?.nextServerSeedHash);
  const nonce = Math.max(table.seeds?.nonce ?? 0, round ? round.seeds.nonce + 1 : 0);
  expect(screen.getByTestId('nonce').textContent, 'the nonce of the round after the last one').toBe(String(nonce));
  const endings = view.steps
    .filter((step) => step.kind.kind === 'done' && (step.kind.src === 'revealMinesTile' || step.kind.src === 'cashOutMines'))
    .map((step) => (step.event as EventObject & { output: HouseRound }).output)
    .filter((ending) => ending.state !== 'open');
  expect(announced, 'the parent hears of each real-money round that ended').toEqual(endings);
}

describeModel('mines', {
  fixtures: minesFixtures,
  filterEvents: (snapshot, event) => {
    const { context } = snapshot as MinesSnapshot;
    const opening = context.table !== null && context.amount === '0.001';
    const outcome = context.round && 'revealed' in context.round.outcome ? context.round.outcome : null;
    switch (event.type) {
      case 'AMOUNT.CHANGE':
      case 'AMOUNT.HALVE':
      case 'AMOUNT.DOUBLE':
        return opening && context.history.length === 0;
      case 'MINES.CHANGE':
        return context.mineCount === 3;
      // One round per path, one gem per round: a revealed tile is no longer a button one can press.
      case 'START':
        return context.history.length === 0;
      case 'REVEAL':
        return !outcome?.revealed.includes((event as EventObject & { tile: number }).tile);
      // Cash out is offered once a gem is revealed.
      case 'CASH_OUT':
        return context.round?.multiplier !== null;
      default:
        return true;
    }
  },
  render: (view) => renderHousePage(<MinesPage sessionId={view.input.sessionId} />, { actors: view.actors as never, language: view.language }),
  events: {
    'AMOUNT.CHANGE': (view, event) => setField(view.user, view.t('house.amount'), event.value),
    'AMOUNT.HALVE': (view) => view.user.click(screen.getByRole('button', { name: '½' })),
    'AMOUNT.DOUBLE': (view) => view.user.click(screen.getByRole('button', { name: '2×' })),
    'MINES.CHANGE': (view, event) => view.user.selectOptions(screen.getByRole('combobox', { name: view.t('house.mines.count') }), String(event.mineCount)),
    START: (view) => view.user.click(screen.getByRole('button', { name: view.t('house.mines.start') })),
    REVEAL: (view, event) => view.user.click(screen.getByRole('button', { name: view.t('house.mines.tile', { tile: event.tile + 1 }) })),
    CASH_OUT: (view) => view.user.click(screen.getByRole('button', { name: new RegExp(`^${view.t('house.mines.cashOut')}`) })),
    RETRY: (view) => view.user.click(screen.getByRole('button', { name: view.t('common.retry') })),
  },
  states: {
    loading: (view) => {
      expect(screen.getAllByText(view.t('house.loading')).length).toBeGreaterThan(0);
      expect(screen.queryByRole('group', { name: view.t('house.mines.board') })).toBeNull();
    },
    unavailable: (view, snapshot) => {
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      screen.getByRole('button', { name: view.t('common.retry') });
    },
    idle: (view, snapshot) => seeMines(view, snapshot, 'idle'),
    starting: (view, snapshot) => seeMines(view, snapshot, 'starting'),
    open: (view, snapshot) => seeMines(view, snapshot, 'open'),
    revealing: (view, snapshot) => seeMines(view, snapshot, 'revealing'),
    cashingOut: (view, snapshot) => seeMines(view, snapshot, 'cashingOut'),
    showing: (view, snapshot) => seeMines(view, snapshot, 'showing'),
  },
});
