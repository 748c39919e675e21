import { useState } from 'react';
import { styled } from 'goober';
import { diceChance, diceMultiplier, DICE_ROLL_MAX } from '../../fairness/dice.ts';
import { ratioToFixed } from '../../fairness/ratio.ts';
import type { HouseRound } from '../../machines/house.ts';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { fieldMessages, FieldError, Figures, Input, Label, Pop, Segmented } from './HouseParts.tsx';
import { InstantGame, type GameParts, type HouseTableRef, type HouseTableSnapshot } from './InstantGame.tsx';
import { hundredthsOf, hundredthsText } from './numbers.ts';

/* Dice: a roll from 0.00 to 100.00 under or over the target; the bar shows where it landed. */

const Track = styled('div')`
  position: relative;
  height: 3rem;
  margin: ${theme.space(8)} ${theme.space(2)} ${theme.space(4)};
  border-radius: 999px;
  background: ${theme.color.surfaceRaised};
  & [data-part='win'] { position: absolute; top: 0; bottom: 0; background: ${theme.color.success}; opacity: 0.35; border-radius: inherit; }
  & [data-part='marker'] {
    position: absolute;
    top: -2.25rem;
    transform: translateX(-50%);
    transition: left 0.6s cubic-bezier(0.2, 0.8, 0.2, 1);
    font-weight: 700;
    font-variant-numeric: tabular-nums;
    background: ${theme.color.surface};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.small};
    padding: 0 ${theme.space(2)};
  }
  & [data-part='target'] { position: absolute; top: -0.25rem; bottom: -0.25rem; width: 3px; background: ${theme.color.focus}; }
`;

const rollOf = (round: HouseRound | null) => (round && 'roll' in round.outcome ? round.outcome.roll : null);
const winOf = (round: HouseRound | null) => (round && 'win' in round.outcome ? round.outcome.win : null);

function DiceControls({ snapshot, actor, disabled }: { snapshot: HouseTableSnapshot; actor: HouseTableRef; disabled: boolean }) {
  const { t, language } = useT();
  const { target, direction } = snapshot.context.dice;
  const [typed, setText] = useState(hundredthsText(target));
  // What was typed stays while it says the machine's target; the slider's moves replace it.
  const typedTarget = hundredthsOf(typed);
  const text = typedTarget === target || (Number.isNaN(typedTarget) && Number.isNaN(target)) ? typed : hundredthsText(target);
  const chance = diceChance({ target, direction });
  const valid = Number.isInteger(target) && chance >= 1 && chance <= 9800;
  const targetErrors = fieldMessages(t, snapshot.context.fieldErrors, 'target');
  const change = (next: number, nextDirection = direction) => actor.send({ type: 'DICE.CHANGE', target: next, direction: nextDirection });
  return (
    <>
      <Label>
        {t('house.dice.target')}
        <Input
          inputMode="decimal"
          value={text}
          disabled={disabled}
          aria-invalid={targetErrors.length > 0}
          onChange={(event) => {
            setText(event.target.value);
            change(hundredthsOf(event.target.value));
          }}
        />
      </Label>
      <input
        type="range"
        aria-label={t('house.dice.target')}
        min={100}
        max={9900}
        step={1}
        value={Number.isFinite(target) ? target : 5000}
        disabled={disabled}
        onChange={(event) => change(Number(event.target.value))}
        style={{ width: '100%', accentColor: theme.color.accent, minHeight: '2.75rem' }}
      />
      {targetErrors.map((message) => (
        <FieldError key={message}>{message}</FieldError>
      ))}
      <Segmented role="group" aria-label={t('house.dice.direction')}>
        <Button type="button" variant="secondary" aria-pressed={direction === 'under'} disabled={disabled} onClick={() => change(target, 'under')}>
          {t('house.dice.under')}
        </Button>
        <Button type="button" variant="secondary" aria-pressed={direction === 'over'} disabled={disabled} onClick={() => change(target, 'over')}>
          {t('house.dice.over')}
        </Button>
      </Segmented>
      <Figures>
        <div>
          <dt>{t('house.dice.chance')}</dt>
          <dd data-testid="dice-chance">{valid ? `${new Intl.NumberFormat(language, { minimumFractionDigits: 2 }).format(chance / 100)} %` : '–'}</dd>
        </div>
        <div>
          <dt>{t('house.multiplier')}</dt>
          <dd data-testid="dice-multiplier">{valid ? `×${ratioToFixed(diceMultiplier({ target, direction }), 4)}` : '–'}</dd>
        </div>
      </Figures>
    </>
  );
}

function DiceBoard({ snapshot }: { snapshot: HouseTableSnapshot }) {
  const { t } = useT();
  const { target, direction } = snapshot.context.dice;
  const round = snapshot.context.round;
  const roll = rollOf(round);
  const position = (value: number) => `${(Math.min(Math.max(value, 0), DICE_ROLL_MAX) / DICE_ROLL_MAX) * 100}%`;
  const winStart = direction === 'under' ? 0 : target;
  const winEnd = direction === 'under' ? target : DICE_ROLL_MAX;
  return (
    <div aria-label={t('house.dice.board')} role="img">
      <Track>
        {Number.isFinite(target) && <span data-part="win" style={{ left: position(winStart), width: `calc(${position(winEnd)} - ${position(winStart)})` }} />}
        {Number.isFinite(target) && <span data-part="target" style={{ left: position(target) }} />}
        {roll !== null && (
          <span data-part="marker" style={{ left: position(roll) }}>
            <Pop key={round?.roundId} data-win={String(winOf(round))}>
              {hundredthsText(roll)}
            </Pop>
          </span>
        )}
      </Track>
    </div>
  );
}

export function DicePage({ sessionId }: { sessionId: string }) {
  const { t } = useT();
  const parts: GameParts = {
    controls: (snapshot, actor, disabled) => <DiceControls snapshot={snapshot} actor={actor} disabled={disabled} />,
    board: (snapshot) => <DiceBoard snapshot={snapshot} />,
    describe: (round) => t('house.dice.rolled', { roll: hundredthsText(rollOf(round) ?? 0) }),
    headline: (round) => `${t('house.dice.rolled', { roll: hundredthsText(rollOf(round) ?? 0) })}.`,
    playLabel: t('house.dice.play'),
  };
  return <InstantGame sessionId={sessionId} engine="dice" parts={parts} />;
}
