import { styled } from 'goober';
import { PLINKO_RISKS, PLINKO_ROWS_MAX, PLINKO_ROWS_MIN, plinkoTable, type PlinkoRisk } from '../../fairness/plinko.ts';
import type { HouseRound } from '../../machines/house.ts';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { fieldMessages, FieldError, Label, multiplierText, Select, WIDE } from './HouseParts.tsx';
import { InstantGame, type GameParts, type HouseTableRef, type HouseTableSnapshot } from './InstantGame.tsx';
import { hundredthsText } from './numbers.ts';

/* Plinko: the ball falls through 8 to 16 rows of pegs into a bucket that pays its multiplier. */

const Board = styled('svg')`
  width: 100%;
  max-width: 40rem;
  margin: 0 auto;
  display: block;
  /* Beside the controls, the board with its result stays within the frame's height (the drawing keeps its shape). */
  ${WIDE} { max-height: max(16rem, 100vh - 10rem); }
  & circle[data-part='peg'] { fill: ${theme.color.textMuted}; }
  & circle[data-part='ball'] { fill: ${theme.color.focus}; }
  & rect[data-hit='true'] { fill: ${theme.color.accent}; }
  & rect { fill: ${theme.color.surfaceRaised}; }
  & text { fill: ${theme.color.text}; font-weight: 700; }
`;

const WIDTH = 100;

function prefersLessMotion(): boolean {
  return typeof window !== 'undefined' && (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
}

const outcomeOf = (round: HouseRound | null) => (round && 'path' in round.outcome ? round.outcome : null);

function PlinkoBoard({ snapshot }: { snapshot: HouseTableSnapshot }) {
  const { t } = useT();
  const { rows, risk } = snapshot.context.plinko;
  const round = snapshot.context.round;
  const outcome = outcomeOf(round);
  const params = round && 'rows' in round.params && outcome ? { rows: round.params.rows, risk: round.params.risk } : { rows, risk };
  const table = plinkoTable(params);
  const dx = WIDTH / (params.rows + 2);
  const dy = dx * 0.9;
  const height = dy * (params.rows + 1) + 8;
  const pegs = Array.from({ length: params.rows }, (_, row) =>
    Array.from({ length: row + 3 }, (_, j) => ({ x: WIDTH / 2 + (j - (row + 2) / 2) * dx, y: dy * (row + 0.5) })),
  ).flat();
  const bucketX = (bucket: number) => WIDTH / 2 + (bucket - params.rows / 2) * dx;
  let points = `M ${WIDTH / 2} 0`;
  if (outcome) {
    let rights = 0;
    outcome.path.forEach((step, row) => {
      if (step === 'R') rights += 1;
      points += ` L ${WIDTH / 2 + (rights - (row + 1) / 2) * dx} ${dy * (row + 1)}`;
    });
    points += ` L ${bucketX(outcome.bucket)} ${height - 10}`;
  }
  const still = prefersLessMotion();
  return (
    <Board viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={t('house.plinko.board')}>
      {pegs.map((peg) => (
        <circle key={`${peg.x}-${peg.y}`} data-part="peg" cx={peg.x} cy={peg.y} r={0.7} />
      ))}
      {table.map((hundredths, bucket) => (
        <g key={bucket}>
          <rect x={bucketX(bucket) - dx / 2 + 0.3} y={height - 8} width={dx - 0.6} height={7} rx={1} data-hit={outcome?.bucket === bucket} />
          <text x={bucketX(bucket)} y={height - 3.3} textAnchor="middle" fontSize={Math.min(2.4, dx * 0.36)}>
            {hundredths % 100 === 0 ? String(hundredths / 100) : hundredths >= 1000 ? String(hundredths / 100) : hundredthsText(hundredths).replace(/0$/, '')}
          </text>
        </g>
      ))}
      {outcome && (
        <circle key={round?.roundId} data-part="ball" r={1.4} cx={still ? bucketX(outcome.bucket) : 0} cy={still ? height - 10 : 0}>
          {!still && <animateMotion dur="0.8s" fill="freeze" path={points} />}
        </circle>
      )}
    </Board>
  );
}

function PlinkoControls({ snapshot, actor, disabled }: { snapshot: HouseTableSnapshot; actor: HouseTableRef; disabled: boolean }) {
  const { t } = useT();
  const { rows, risk } = snapshot.context.plinko;
  const rowErrors = fieldMessages(t, snapshot.context.fieldErrors, 'rows');
  const riskErrors = fieldMessages(t, snapshot.context.fieldErrors, 'risk');
  const rowChoices = Array.from({ length: PLINKO_ROWS_MAX - PLINKO_ROWS_MIN + 1 }, (_, i) => PLINKO_ROWS_MIN + i);
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: theme.space(2) }}>
      <Label htmlFor="plinko-rows">
        {t('house.plinko.rows')}
        <Select id="plinko-rows" value={rows} disabled={disabled} onChange={(event) => actor.send({ type: 'PLINKO.CHANGE', rows: Number(event.target.value), risk })}>
          {rowChoices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </Select>
        {rowErrors.map((message) => (
          <FieldError key={message}>{message}</FieldError>
        ))}
      </Label>
      <Label htmlFor="plinko-risk">
        {t('house.plinko.risk')}
        <Select id="plinko-risk" value={risk} disabled={disabled} onChange={(event) => actor.send({ type: 'PLINKO.CHANGE', rows, risk: event.target.value as PlinkoRisk })}>
          {PLINKO_RISKS.map((choice) => (
            <option key={choice} value={choice}>
              {t(`house.plinko.${choice}`)}
            </option>
          ))}
        </Select>
        {riskErrors.map((message) => (
          <FieldError key={message}>{message}</FieldError>
        ))}
      </Label>
    </div>
  );
}

export function PlinkoPage({ sessionId }: { sessionId: string }) {
  const { t } = useT();
  const describe = (round: HouseRound) => t('house.plinko.landed', { multiplier: multiplierText(round.multiplier ?? '0') });
  const parts: GameParts = {
    controls: (snapshot, actor, disabled) => <PlinkoControls snapshot={snapshot} actor={actor} disabled={disabled} />,
    board: (snapshot) => <PlinkoBoard snapshot={snapshot} />,
    describe,
    headline: (round) => `${describe(round)}.`,
    playLabel: t('house.plinko.play'),
  };
  return <InstantGame sessionId={sessionId} engine="plinko" parts={parts} />;
}
