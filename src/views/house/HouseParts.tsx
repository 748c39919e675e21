import { useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { keyframes, styled } from 'goober';
import { errorMessageKey, ruleMessageKey, UNKNOWN_RULE_KEY } from '../../api/errors.ts';
import { formatAmount } from '../../format.ts';
import { parseAmount } from '../../money.ts';
import type { ErrorCode } from '../../machines/effects.ts';
import type { ServerFieldError } from '../../machines/failure.ts';
import type { AmountCode, HouseRound, HouseSeedPairs, HouseTable } from '../../machines/house.ts';
import { Button } from '../components/Button.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useHouseSeeds } from './wiring.ts';

/*
 * The parts every house page has (DESIGN.md's look): the balance line, the bet amount with ½ and 2×, the
 * result stated in words in a live region, the last results, the refusal as an alert, and the small
 * fairness panel. The game's own controls and board go between them.
 */

/**
 * From 720 px of the page's own width (the page is a document of its own: in the game page's frame, the
 * frame's width, some 990 px at 1280 beside the SPA's sidebar) the controls sit in a column on the left and
 * the board with its result on the right, as the casino's originals do; below it, the phone's one column.
 */
export const WIDE = '@media (min-width: 45rem)';

/** Whether the page is in the game page's frame, under the SPA's bar that names the game already. */
export const FRAMED = typeof window !== 'undefined' && window.parent !== window;

export const Page = styled('main')`
  box-sizing: border-box;
  min-height: 100vh;
  padding: ${theme.space(3)};
  background: ${theme.color.background};
  color: ${theme.color.text};
  font-family: ${theme.font.body};
  display: grid;
  gap: ${theme.space(3)};
  align-content: start;
  grid-template-columns: minmax(0, 1fr);
  ${WIDE} {
    grid-template-columns: clamp(20rem, 36vw, 22.5rem) minmax(0, 1fr);
    grid-template-areas: 'head head' 'controls board' 'controls results';
    /* The controls span the board's row and the last results' row: a tall column of controls lengthens the
       last row, where the results start at the top, and never stretches the board under its result. */
    grid-template-rows: auto auto 1fr;
    padding: ${theme.space(FRAMED ? 3 : 5)};
    & > header { grid-area: head; }
    & > [data-area='controls'] { grid-area: controls; align-self: start; position: sticky; top: ${theme.space(3)}; }
    & > [data-area='board'] { grid-area: board; }
    & > [data-area='results'] { grid-area: results; }
  }
  & > [data-area='results'] { display: grid; gap: ${theme.space(3)}; align-content: start; }
  & *:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  @media (prefers-reduced-motion: reduce) {
    & * { animation: none !important; transition: none !important; }
  }
`;

export const Panel = styled('section')`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  padding: ${theme.space(4)};
  display: grid;
  gap: ${theme.space(3)};
  align-content: start;
  min-width: 0;
`;

const Head = styled('header')`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: space-between;
  gap: ${theme.space(2)};
  & h1 { margin: 0; font-size: ${theme.font.size.large}; }
  & p { margin: 0 0 0 auto; font-variant-numeric: tabular-nums; color: ${theme.color.textMuted}; }
  & strong { color: ${theme.color.text}; }
`;

export const Label = styled('label')`
  display: grid;
  gap: ${theme.space(1)};
  font-size: ${theme.font.size.small};
  color: ${theme.color.textMuted};
`;

export const inputStyle = `
  font: inherit;
  /* Inside a Label (the targets, the selects) too: the label's small print is not the field's. */
  font-size: ${theme.font.size.body};
  font-variant-numeric: tabular-nums;
  min-height: 2.75rem;
  box-sizing: border-box;
  width: 100%;
  padding: 0 ${theme.space(3)};
  border-radius: ${theme.radius.medium};
  border: 1px solid ${theme.color.border};
  background: ${theme.color.background};
  color: ${theme.color.text};
  &[aria-invalid='true'] { border-color: ${theme.color.danger}; }
`;

export const Input = styled('input')`
  ${inputStyle}
`;

export const Select = styled('select')`
  ${inputStyle}
`;

const Row = styled('div')`
  display: flex;
  gap: ${theme.space(2)};
  & > input { flex: 1; min-width: 0; }
  & > button { min-width: 2.75rem; padding-left: ${theme.space(3)}; padding-right: ${theme.space(3)}; }
`;

export const Segmented = styled('div')`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: 1fr;
  gap: ${theme.space(2)};
  & > button[aria-pressed='true'] { background: ${theme.color.accentStrong}; border-color: ${theme.color.accent}; }
`;

export const FieldError = styled('p')`
  margin: 0;
  color: ${theme.color.danger};
  font-size: ${theme.font.size.small};
`;

const Hint = styled('p')`
  margin: 0;
  font-size: ${theme.font.size.small};
  color: ${theme.color.textMuted};
  font-variant-numeric: tabular-nums;
`;

export const Figures = styled('dl')`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space(2)};
  margin: 0;
  & div { background: ${theme.color.surfaceRaised}; border-radius: ${theme.radius.medium}; padding: ${theme.space(2)} ${theme.space(3)}; }
  & dt { font-size: ${theme.font.size.small}; color: ${theme.color.textMuted}; }
  & dd { margin: 0; font-weight: 700; font-variant-numeric: tabular-nums; }
`;

export const PlayButton = styled(Button)`
  width: 100%;
  font-size: ${theme.font.size.large};
  min-height: 3.25rem;
`;

const pop = keyframes`
  from { transform: scale(0.6); opacity: 0.3; }
  to { transform: scale(1); opacity: 1; }
`;

/** A result figure that pops in (still when the player asks for less motion). */
export const Pop = styled('span')`
  display: inline-block;
  animation: ${pop} 0.35s ease-out;
  &[data-win='true'] { color: ${theme.color.success}; }
  &[data-win='false'] { color: ${theme.color.danger}; }
`;

/** "0.02 LTC" for real money, "0.02" for play money. */
export function useMoney(): (amount: string, currencyCode: string | null) => string {
  const { language } = useT();
  return (amount, currencyCode) => formatAmount(amount, currencyCode ?? '', language);
}

/** Multipliers with two decimals at least: "2.00", "1.03125". */
export function multiplierText(multiplier: string): string {
  const [whole = '0', fraction = ''] = multiplier.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

export function GameHead({ table, balance }: { table: HouseTable | null; balance: string | null }) {
  const { t } = useT();
  const money = useMoney();
  return (
    <Head>
      {/* In the game page's frame, the SPA's bar above names the game: the heading stays for screen readers. */}
      <h1 className={FRAMED ? 'visually-hidden' : undefined}>{table?.game.name ?? t('house.loading')}</h1>
      {table && (
        <p data-testid="house-balance">
          {table.demo ? `${t('house.playMoney')}: ` : `${t('house.balance')}: `}
          <strong>{balance === null ? t('house.balanceOwed') : money(balance, table.currencyCode)}</strong>
        </p>
      )}
    </Head>
  );
}

/** The messages of the per-field codes of one field. */
export function fieldMessages(t: ReturnType<typeof useT>['t'], fieldErrors: readonly ServerFieldError[], field: string): string[] {
  return fieldErrors.filter((error) => error.field === field).map((error) => t(ruleMessageKey(error.code) ?? UNKNOWN_RULE_KEY));
}

export function AmountField(props: {
  table: HouseTable | null;
  amount: string;
  amountError: AmountCode | null;
  fieldErrors: readonly ServerFieldError[];
  disabled: boolean;
  onChange(value: string): void;
  onHalve(): void;
  onDouble(): void;
}) {
  const { t } = useT();
  const money = useMoney();
  const errors = [...(props.amountError ? [t(ruleMessageKey(props.amountError) ?? UNKNOWN_RULE_KEY)] : []), ...fieldMessages(t, props.fieldErrors, 'amount')];
  const currency = props.table?.currencyCode ?? null;
  return (
    <div style={{ display: 'grid', gap: theme.space(1) }}>
      <Label htmlFor="bet-amount">{t('house.amount')}</Label>
      <Row>
        <Input
          id="bet-amount"
          inputMode="decimal"
          autoComplete="off"
          value={props.amount}
          aria-invalid={errors.length > 0}
          aria-describedby="amount-hint amount-error"
          disabled={props.disabled}
          onChange={(event) => props.onChange(event.target.value)}
        />
        <Button type="button" variant="secondary" disabled={props.disabled} onClick={props.onHalve}>
          ½
        </Button>
        <Button type="button" variant="secondary" disabled={props.disabled} onClick={props.onDouble}>
          2×
        </Button>
      </Row>
      {props.table && (
        <Hint id="amount-hint">
          {t('house.limits', { min: money(props.table.minBet, currency), max: money(props.table.maxBet, currency) })}
        </Hint>
      )}
      <div id="amount-error">
        {errors.map((message) => (
          <FieldError key={message}>{message}</FieldError>
        ))}
      </div>
    </div>
  );
}

/** The refusal of the last call, as the catalogue words it (SPEC §8), unless it was about one field. */
export function RefusalAlert({ errorCode, fieldErrors }: { errorCode: ErrorCode | null; fieldErrors: readonly ServerFieldError[] }) {
  const { t } = useT();
  if (errorCode === null || (errorCode === 'PLEASE_CHECK_REQUEST_DATA' && fieldErrors.length > 0)) return null;
  return <FieldError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FieldError>;
}

/** What the round paid, in words: "You won 0.02 LTC at ×2.00", "No win". */
export function useOutcomeText(): (round: HouseRound) => string {
  const { t } = useT();
  const money = useMoney();
  return (round) => {
    const won = round.payout !== '0' && /[1-9]/.test(round.payout);
    if (!won) return t('house.noWin');
    // Below ×1 (Plinko's middle buckets, a small slot line) the player gets part of the stake back: no "win".
    const partial = parseAmount(round.payout) < parseAmount(round.amount);
    const text = t(partial ? 'house.returned' : 'house.won', { amount: money(round.payout, round.currencyCode), multiplier: multiplierText(round.multiplier ?? '0') });
    return round.state === 'pending' ? `${text} ${t('house.pending')}` : text;
  };
}

/** The live region: the result in words once its animation is over (screen readers hear it then). */
export function Announcement({ text }: { text: string | null }) {
  return (
    <Announced role="status" aria-live="polite" data-testid="house-result">
      {text ?? ''}
    </Announced>
  );
}

const Announced = styled('p')`
  margin: 0;
  min-height: 1.5em;
  font-size: ${theme.font.size.large};
  font-weight: 700;
  text-align: center;
`;

const List = styled('ol')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space(1)};
  font-variant-numeric: tabular-nums;
  & li { display: flex; flex-wrap: wrap; justify-content: space-between; column-gap: ${theme.space(2)}; padding: ${theme.space(1)} ${theme.space(2)}; border-radius: ${theme.radius.small}; background: ${theme.color.surfaceRaised}; }
  /* On a phone, what the round paid goes whole to its own line, at the right, rather than both halves wrapping. */
  & li > span:first-child { white-space: nowrap; }
  & li > span:last-child { margin-left: auto; text-align: end; }
  & [data-win='true'] { color: ${theme.color.success}; }
`;

export function LastResults({ history, describe }: { history: readonly HouseRound[]; describe(round: HouseRound): string }) {
  const { t } = useT();
  const outcome = useOutcomeText();
  return (
    <section aria-labelledby="last-results">
      <h2 id="last-results" style={{ fontSize: theme.font.size.body, margin: `0 0 ${theme.space(2)}` }}>
        {t('house.lastResults')}
      </h2>
      {history.length === 0 ? (
        <Hint>{t('house.noResults')}</Hint>
      ) : (
        <List>
          {history.map((round) => (
            <li key={round.roundId} data-win={/[1-9]/.test(round.payout)}>
              <span>{describe(round)}</span>
              <span>{outcome(round)}</span>
            </li>
          ))}
        </List>
      )}
    </section>
  );
}

const Details = styled('details')`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  padding: ${theme.space(3)} ${theme.space(4)};
  & summary { cursor: pointer; font-weight: 600; padding: ${theme.space(2.5)} 0; }
  & h3 { margin: ${theme.space(3)} 0 0; font-size: ${theme.font.size.small}; text-transform: uppercase; letter-spacing: 0.04em; }
  & dl { display: grid; gap: ${theme.space(2)}; margin: ${theme.space(2)} 0; }
  & dt { font-size: ${theme.font.size.small}; color: ${theme.color.textMuted}; }
  & dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; font-size: ${theme.font.size.small}; }
  & a { color: ${theme.color.link}; }
  & form { display: grid; gap: ${theme.space(2)}; }
`;

const Actions = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
  & > button { flex: 1 1 10rem; }
`;

/**
 * The seed panel (houseSeeds.machine.ts): the active pair, the next pair with its client seed to change
 * and save, Rotate (while `canRotate`: no round in play) and the server seed the last rotation revealed.
 * The page hands it the table's seeds once and each round it plays.
 */
export function FairnessPanel(props: { sessionId: string; seeds: HouseSeedPairs; round: HouseRound | null; canRotate: boolean }) {
  const { t } = useT();
  const actor = useHouseSeeds({ sessionId: props.sessionId, seeds: props.seeds });
  const snapshot = useSelector(actor, (state) => state);
  const { context } = snapshot;
  const idle = snapshot.matches('idle');
  const { round } = props;
  useEffect(() => {
    if (round) actor.send({ type: 'PLAYED', seeds: round.seeds });
  }, [actor, round]);
  const clientSeedErrors = fieldMessages(t, context.fieldErrors, 'clientSeed');
  return (
    <Details>
      <summary>{t('house.fairness.title')}</summary>
      <h3>{t('house.fairness.active')}</h3>
      <dl>
        <div>
          <dt>{t('house.fairness.serverSeedHash')}</dt>
          <dd data-testid="server-seed-hash">{context.seeds.serverSeedHash}</dd>
        </div>
        <div>
          <dt>{t('house.fairness.clientSeed')}</dt>
          <dd data-testid="client-seed">{context.seeds.clientSeed}</dd>
        </div>
        <div>
          <dt>{t('house.fairness.nonce')}</dt>
          <dd data-testid="nonce">{context.seeds.nonce}</dd>
        </div>
      </dl>
      <h3>{t('house.fairness.next')}</h3>
      <dl>
        <div>
          <dt>{t('house.fairness.serverSeedHash')}</dt>
          <dd data-testid="next-server-seed-hash">{context.seeds.nextServerSeedHash}</dd>
        </div>
        <div>
          <dt>{t('house.fairness.clientSeed')}</dt>
          <dd data-testid="next-client-seed">{context.seeds.nextClientSeed}</dd>
        </div>
      </dl>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'NEXT.SAVE' });
        }}
      >
        <Label>
          {t('house.fairness.nextClientSeed')}
          <Input
            value={context.nextClientSeed}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            readOnly={!idle}
            aria-invalid={clientSeedErrors.length > 0}
            onChange={(event) => actor.send({ type: 'NEXT.CHANGE', value: event.target.value })}
          />
        </Label>
        {clientSeedErrors.map((message) => (
          <FieldError key={message}>{message}</FieldError>
        ))}
        <RefusalAlert errorCode={context.errorCode} fieldErrors={context.fieldErrors} />
        <Hint>{t('house.fairness.rotateHint')}</Hint>
        <Actions>
          <Button type="submit" variant="secondary" disabled={!idle} aria-busy={snapshot.matches('saving')}>
            {t('house.fairness.saveNext')}
          </Button>
          <Button type="button" variant="secondary" disabled={!idle || !props.canRotate} aria-busy={snapshot.matches('rotating')} onClick={() => actor.send({ type: 'ROTATE' })}>
            {t('house.fairness.rotate')}
          </Button>
        </Actions>
      </form>
      {context.revealed && (
        <dl>
          <div>
            <dt>{t('house.fairness.revealed')}</dt>
            <dd data-testid="revealed-seed">{context.revealed.serverSeed}</dd>
          </div>
        </dl>
      )}
      <p>
        <a href="/fairness" target="_top">
          {t('house.fairness.link')}
        </a>
      </p>
    </Details>
  );
}

export function Loading({ children }: { children?: ReactNode }) {
  const { t } = useT();
  return (
    <Panel aria-busy="true">
      <p>{t('house.loading')}</p>
      {children}
    </Panel>
  );
}

export function Unavailable({ errorCode, onRetry }: { errorCode: ErrorCode | null; onRetry(): void }) {
  const { t } = useT();
  return (
    <Panel>
      <FieldError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FieldError>
      <Button type="button" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </Panel>
  );
}
