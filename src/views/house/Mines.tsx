import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { MINES_COUNT_MAX, MINES_COUNT_MIN, MINES_TILES } from '../../fairness/mines.ts';
import type { HouseRound } from '../../machines/house.ts';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import {
  AmountField,
  Announcement,
  FairnessPanel,
  fieldMessages,
  FieldError,
  GameHead,
  Label,
  LastResults,
  Loading,
  multiplierText,
  Page,
  Panel,
  PlayButton,
  RefusalAlert,
  Select,
  Unavailable,
  useOutcomeText,
  WIDE,
} from './HouseParts.tsx';
import { useMines } from './wiring.ts';

/* Mines: a 5 × 5 board with 1 to 24 mines; reveal gems one at a time and cash out before a mine. */

const Board = styled('div')`
  display: grid;
  grid-template-columns: repeat(5, minmax(0, 1fr));
  gap: ${theme.space(2)};
  width: 100%;
  max-width: 26rem;
  margin: 0 auto;
  /* Beside the controls, the board with its line and its result stays within the frame's height. */
  ${WIDE} { max-width: min(26rem, max(16rem, 100vh - 11rem)); }
  & button {
    aspect-ratio: 1;
    min-height: 2.75rem;
    padding: 0;
    font-size: clamp(1.25rem, 6vw, 2rem);
    border-radius: ${theme.radius.medium};
    border: 1px solid ${theme.color.border};
    background: ${theme.color.surfaceRaised};
    color: ${theme.color.text};
    cursor: pointer;
    transition: transform 0.2s ease-out, background 0.2s;
  }
  & button:disabled { cursor: default; }
  & button[data-tile='safe'] { background: #14532d; transform: scale(1.04); }
  & button[data-tile='mine'] { background: #7f1d1d; }
  & button[data-tile='mine'][data-hit='true'] { outline: 3px solid ${theme.color.danger}; }
  & button:hover:not(:disabled) { filter: brightness(1.2); }
`;

const gemsOf = (round: HouseRound | null) => (round && 'revealed' in round.outcome ? round.outcome : null);

export function MinesPage({ sessionId }: { sessionId: string }) {
  const actor = useMines({ sessionId });
  const snapshot = useSelector(actor, (state) => state);
  const { t } = useT();
  const outcome = useOutcomeText();
  const { context } = snapshot;
  const round = context.round;
  const board = gemsOf(round);
  const open = snapshot.matches('open') || snapshot.matches('revealing') || snapshot.matches('cashingOut');
  const busy = snapshot.matches('starting') || snapshot.matches('revealing') || snapshot.matches('cashingOut');
  const ready = !snapshot.matches('loading') && !snapshot.matches('unavailable');
  const revealed = new Set(board?.revealed ?? []);
  const mines = new Set(board?.mines ?? []);
  const lastTile = board?.revealed[board.revealed.length - 1];
  const mineCount = round && 'mineCount' in round.params ? round.params.mineCount : context.mineCount;
  const ended = round !== null && round.state !== 'open';
  const said = snapshot.matches('idle') && ended && round ? `${round.outcome && 'end' in round.outcome && round.outcome.end === 'busted' ? `${t('house.mines.busted')} ` : ''}${outcome(round)}` : snapshot.matches('open') ? t('house.mines.pick') : null;
  const countErrors = fieldMessages(t, context.fieldErrors, 'mineCount');

  const tileName = (tile: number) => {
    const n = tile + 1;
    if (revealed.has(tile) && !mines.has(tile)) return t('house.mines.safe', { tile: n });
    if (mines.has(tile) && (ended || snapshot.matches('showing'))) return t('house.mines.mine', { tile: n });
    return t('house.mines.tile', { tile: n });
  };
  const tileState = (tile: number) => (mines.has(tile) ? 'mine' : revealed.has(tile) ? 'safe' : 'hidden');

  return (
    <Page aria-busy={snapshot.matches('loading')}>
      <GameHead table={context.table} balance={context.balance} />
      {snapshot.matches('loading') && <Loading />}
      {snapshot.matches('unavailable') && <Unavailable errorCode={context.errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />}
      {ready && (
        <>
          <Panel data-area="controls" aria-label={t('house.controls')}>
            <AmountField
              table={context.table}
              amount={context.amount}
              amountError={context.amountError}
              fieldErrors={context.fieldErrors}
              disabled={open || busy}
              onChange={(value) => actor.send({ type: 'AMOUNT.CHANGE', value })}
              onHalve={() => actor.send({ type: 'AMOUNT.HALVE' })}
              onDouble={() => actor.send({ type: 'AMOUNT.DOUBLE' })}
            />
            <Label htmlFor="mine-count">
              {t('house.mines.count')}
              <Select id="mine-count" value={context.mineCount} disabled={open || busy} onChange={(event) => actor.send({ type: 'MINES.CHANGE', mineCount: Number(event.target.value) })}>
                {Array.from({ length: MINES_COUNT_MAX - MINES_COUNT_MIN + 1 }, (_, i) => MINES_COUNT_MIN + i).map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </Select>
            </Label>
            {countErrors.map((message) => (
              <FieldError key={message}>{message}</FieldError>
            ))}
            <RefusalAlert errorCode={context.errorCode} fieldErrors={context.fieldErrors} />
            {open ? (
              <PlayButton
                type="button"
                disabled={round?.multiplier === null || snapshot.matches('revealing') || snapshot.matches('cashingOut')}
                aria-busy={snapshot.matches('cashingOut')}
                onClick={() => actor.send({ type: 'CASH_OUT' })}
              >
                {round?.multiplier ? t('house.mines.cashOutAt', { multiplier: multiplierText(round.multiplier) }) : t('house.mines.cashOut')}
              </PlayButton>
            ) : (
              <PlayButton type="button" disabled={busy || snapshot.matches('showing')} aria-busy={snapshot.matches('starting')} onClick={() => actor.send({ type: 'START' })}>
                {t('house.mines.start')}
              </PlayButton>
            )}
          </Panel>
          <Panel data-area="board">
            <p style={{ margin: 0, textAlign: 'center', color: theme.color.textMuted }}>
              {t('house.mines.round', { mines: mineCount, count: [...revealed].filter((tile) => !mines.has(tile)).length })}
            </p>
            <Board role="group" aria-label={t('house.mines.board')}>
              {Array.from({ length: MINES_TILES }, (_, tile) => {
                const state = tileState(tile);
                const shown = state === 'safe' || (state === 'mine' && (ended || snapshot.matches('showing')));
                return (
                  <button
                    key={tile}
                    type="button"
                    aria-label={tileName(tile)}
                    data-tile={shown ? state : 'hidden'}
                    data-hit={tile === lastTile}
                    disabled={!snapshot.matches('open') || revealed.has(tile)}
                    onClick={() => actor.send({ type: 'REVEAL', tile })}
                  >
                    <span aria-hidden="true">{shown ? (state === 'mine' ? '✸' : '◆') : ''}</span>
                  </button>
                );
              })}
            </Board>
            <Announcement text={said} />
          </Panel>
          <div data-area="results">
            <LastResults
              history={context.history}
              describe={(past) => t('house.mines.round', { mines: 'mineCount' in past.params ? past.params.mineCount : 0, count: gemsOf(past)?.revealed.filter((tile) => !(gemsOf(past)?.mines ?? []).includes(tile)).length ?? 0 })}
            />
            {context.table?.seeds && <FairnessPanel sessionId={sessionId} seeds={context.table.seeds} round={round} canRotate={snapshot.matches('idle')} />}
          </div>
        </>
      )}
    </Page>
  );
}

