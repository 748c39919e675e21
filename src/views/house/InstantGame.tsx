import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { HouseRound } from '../../machines/house.ts';
import type { houseTableMachine, InstantEngine } from '../../machines/houseTable.machine.ts';
import { useT } from '../i18n-context.ts';
import {
  AmountField,
  Announcement,
  FairnessPanel,
  GameHead,
  LastResults,
  Loading,
  Page,
  Panel,
  PlayButton,
  RefusalAlert,
  Unavailable,
  useOutcomeText,
} from './HouseParts.tsx';
import { useHouseTable } from './wiring.ts';

/*
 * The page of a house game played in one call (Dice, Limbo, Plinko, the slot): the shared parts around the
 * game's own controls and board, which each game gives as render functions of the flow's snapshot.
 */

export type HouseTableRef = ActorRefFrom<typeof houseTableMachine>;
export type HouseTableSnapshot = SnapshotFrom<typeof houseTableMachine>;

export interface GameParts {
  /** The game's controls above Play (target, direction, rows, risk). */
  controls?(snapshot: HouseTableSnapshot, actor: HouseTableRef, disabled: boolean): ReactNode;
  /** The board: the last round animated while `showing`, at rest otherwise. */
  board(snapshot: HouseTableSnapshot): ReactNode;
  /** Below the result: what the player may look up (the slot's paytable and paylines). */
  extras?(snapshot: HouseTableSnapshot): ReactNode;
  /** A round in the last results: "Rolled 12.34". */
  describe(round: HouseRound): string;
  /** What the round drew, before what it paid: "Rolled 12.34." */
  headline(round: HouseRound): string;
  playLabel: string;
}

export function InstantGame({ sessionId, engine, parts }: { sessionId: string; engine: InstantEngine; parts: GameParts }) {
  const actor = useHouseTable({ sessionId, engine });
  const snapshot = useSelector(actor, (state) => state);
  const { t } = useT();
  const outcome = useOutcomeText();
  const { context } = snapshot;
  const busy = snapshot.matches('playing');
  const settling = busy || snapshot.matches('showing');
  const ready = snapshot.matches('idle') || settling;
  const said = snapshot.matches('idle') && context.round !== null ? `${parts.headline(context.round)} ${outcome(context.round)}`.trim() : null;

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
              disabled={busy}
              onChange={(value) => actor.send({ type: 'AMOUNT.CHANGE', value })}
              onHalve={() => actor.send({ type: 'AMOUNT.HALVE' })}
              onDouble={() => actor.send({ type: 'AMOUNT.DOUBLE' })}
            />
            {parts.controls?.(snapshot, actor, busy)}
            <RefusalAlert errorCode={context.errorCode} fieldErrors={context.fieldErrors} />
            <PlayButton type="button" aria-busy={snapshot.matches('playing')} disabled={settling} onClick={() => actor.send({ type: 'PLAY' })}>
              {parts.playLabel}
            </PlayButton>
          </Panel>
          <Panel data-area="board">
            {parts.board(snapshot)}
            <Announcement text={said} />
            {parts.extras?.(snapshot)}
          </Panel>
          <div data-area="results">
            <LastResults history={context.history} describe={parts.describe} />
            {context.table?.seeds && <FairnessPanel sessionId={sessionId} seeds={context.table.seeds} round={context.round} canRotate={snapshot.matches('idle')} />}
          </div>
        </>
      )}
    </Page>
  );
}
