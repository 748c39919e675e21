import { useState } from 'react';
import { styled } from 'goober';
import { LIMBO_TARGET_MIN } from '../../fairness/limbo.ts';
import type { HouseRound } from '../../machines/house.ts';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { fieldMessages, FieldError, Figures, Input, Label, Pop } from './HouseParts.tsx';
import { InstantGame, type GameParts, type HouseTableRef, type HouseTableSnapshot } from './InstantGame.tsx';
import { hundredthsOf, hundredthsText } from './numbers.ts';

/* Limbo: a result multiplier from ×1.00 up; it wins the target when it reaches it. */

const Big = styled('p')`
  margin: ${theme.space(6)} 0;
  text-align: center;
  font-size: 3rem;
  font-weight: 800;
  font-variant-numeric: tabular-nums;
`;

const resultOf = (round: HouseRound | null) => (round && 'result' in round.outcome ? round.outcome.result : null);

function LimboControls({ snapshot, actor, disabled }: { snapshot: HouseTableSnapshot; actor: HouseTableRef; disabled: boolean }) {
  const { t, language } = useT();
  const { target } = snapshot.context.limbo;
  const [typed, setTyped] = useState(hundredthsText(target));
  const errors = fieldMessages(t, snapshot.context.fieldErrors, 'target');
  const valid = Number.isInteger(target) && target >= LIMBO_TARGET_MIN;
  return (
    <>
      <Label>
        {t('house.limbo.target')}
        <Input
          inputMode="decimal"
          value={typed}
          disabled={disabled}
          aria-invalid={errors.length > 0}
          onChange={(event) => {
            setTyped(event.target.value);
            actor.send({ type: 'LIMBO.CHANGE', target: hundredthsOf(event.target.value) });
          }}
        />
      </Label>
      {errors.map((message) => (
        <FieldError key={message}>{message}</FieldError>
      ))}
      <Figures>
        <div>
          <dt>{t('house.limbo.chance')}</dt>
          <dd data-testid="limbo-chance">{valid ? `${new Intl.NumberFormat(language, { maximumFractionDigits: 6 }).format(9900 / target)} %` : '–'}</dd>
        </div>
        <div>
          <dt>{t('house.multiplier')}</dt>
          <dd>{valid ? `×${hundredthsText(target)}` : '–'}</dd>
        </div>
      </Figures>
    </>
  );
}

function LimboBoard({ snapshot }: { snapshot: HouseTableSnapshot }) {
  const round = snapshot.context.round;
  const result = resultOf(round);
  return (
    <Big aria-hidden="true">
      {result === null ? '×1.00' : (
        <Pop key={round?.roundId} data-win={String(round !== null && 'win' in round.outcome && round.outcome.win)}>
          ×{hundredthsText(result)}
        </Pop>
      )}
    </Big>
  );
}

export function LimboPage({ sessionId }: { sessionId: string }) {
  const { t } = useT();
  const describe = (round: HouseRound) => t('house.limbo.result', { result: hundredthsText(resultOf(round) ?? 100) });
  const parts: GameParts = {
    controls: (snapshot, actor, disabled) => <LimboControls snapshot={snapshot} actor={actor} disabled={disabled} />,
    board: (snapshot) => <LimboBoard snapshot={snapshot} />,
    describe,
    headline: (round) => `${describe(round)}.`,
    playLabel: t('house.limbo.play'),
  };
  return <InstantGame sessionId={sessionId} engine="limbo" parts={parts} />;
}
