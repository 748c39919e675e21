import { useEffect, useRef, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { styled } from 'goober';
import { FAIRNESS_GAMES, fairnessFormOf, hundredthsText, type FairnessForm, type FairnessGame } from '../../machines/fairness.address.ts';
import { fairnessMachine, type Check, type FairnessField, type FairnessResult } from '../../machines/fairness.machine.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';

/*
 * The /fairness page (src/machines/fairness.machine.ts): pick the game, enter the seeds, the nonce and the
 * bet's parameters (or come from the bet history's Verify link with all of it filled in); the page
 * recomputes the bet in this browser and says whether the server seed matches the hash shown before the
 * bet and the result the one recorded. "How it works" says the scheme in a few lines.
 */

/** The house games by their names in the casino (names, the same in every language). */
const GAME_NAMES: Record<FairnessGame, string> = { dice: 'Dice', limbo: 'Limbo', mines: 'Mines', plinko: 'Plinko', slot: 'Slot' };

/** The field each refusal belongs beside. */
const FIELD_OF_ERROR: Record<string, FairnessField> = {
  'seed.server': 'serverSeed',
  'seed.client': 'clientSeed',
  'seed.nonce': 'nonce',
  'dice.target': 'diceTarget',
  'dice.chance': 'diceTarget',
  'dice.direction': 'diceDirection',
  'limbo.target': 'limboTarget',
  'mines.count': 'mineCount',
  'plinko.rows': 'plinkoRows',
  'plinko.risk': 'plinkoRisk',
  'slot.skin': 'slotSkin',
};

const Columns = styled('div')`
  display: grid;
  gap: ${theme.space(6)};
  align-items: start;
  @media (min-width: 1024px) {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  }
`;

const Panel = styled('section')`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  padding: ${theme.space(4)};
  /* Scrolled to, it stays clear of the top bar. */
  scroll-margin-top: calc(${theme.layout.topBar} + ${theme.space(4)});
  h2 {
    font-size: ${theme.font.size.large};
    margin: 0 0 ${theme.space(3)};
  }
  p {
    margin: 0 0 ${theme.space(3)};
  }
`;

const Pair = styled('div')`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 0 ${theme.space(3)};
`;

const Verdicts = styled('ul')`
  list-style: none;
  margin: 0 0 ${theme.space(4)};
  padding: 0;
  li {
    display: flex;
    justify-content: space-between;
    gap: ${theme.space(3)};
    padding: ${theme.space(2)} 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  strong[data-check='match'] {
    color: ${theme.color.success};
  }
  strong[data-check='mismatch'] {
    color: ${theme.color.danger};
  }
  strong[data-check='none'] {
    color: ${theme.color.textMuted};
    font-weight: 400;
  }
`;

const Facts = styled('dl')`
  margin: 0 0 ${theme.space(4)};
  dt {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  dd {
    margin: 0 0 ${theme.space(2)};
    overflow-wrap: anywhere;
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: ${theme.font.size.small};
  }
`;

/** Mines: the 5 × 5 board, mines marked. */
const Board = styled('ol')`
  display: grid;
  grid-template-columns: repeat(5, 2.5rem);
  gap: ${theme.space(1)};
  list-style: none;
  margin: 0 0 ${theme.space(4)};
  padding: 0;
  li {
    height: 2.5rem;
    display: flex;
    align-items: center;
    justify-content: center;
    border-radius: ${theme.radius.small};
    background: ${theme.color.surfaceRaised};
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  li[data-mine='true'] {
    background: ${theme.color.danger};
    color: ${theme.color.background};
    font-weight: 700;
  }
`;

/** The slot: rows × reels of symbols. */
const Reels = styled('table')`
  border-collapse: separate;
  border-spacing: ${theme.space(1)};
  margin: 0 0 ${theme.space(4)};
  td {
    width: 2.75rem;
    height: 2.75rem;
    text-align: center;
    font-size: 1.5rem;
    background: ${theme.color.surfaceRaised};
    border-radius: ${theme.radius.small};
  }
`;

const How = styled('section')`
  margin-top: ${theme.space(8)};
  max-width: 48rem;
  h2 {
    font-size: ${theme.font.size.large};
    margin: 0 0 ${theme.space(3)};
  }
  p {
    color: ${theme.color.textMuted};
    margin: 0 0 ${theme.space(3)};
  }
`;

function CheckLine({ label, check }: { label: string; check: Check }) {
  const { t } = useT();
  const text = check === 'match' ? t('fairness.matches') : check === 'mismatch' ? t('fairness.doesNotMatch') : t('fairness.notCompared');
  return (
    <li>
      <span>{label}</span>
      <strong data-check={check}>{text}</strong>
    </li>
  );
}

/** What the bet drew, drawn as the game shows it. */
function Outcome({ result, form }: { result: FairnessResult; form: FairnessForm }) {
  const { t } = useT();
  const { outcome } = result;
  const winLoss = outcome.win === undefined ? '' : ` · ${outcome.win ? t('fairness.win') : t('fairness.loss')}`;
  switch (result.game) {
    case 'dice':
      return (
        <p>
          {t('fairness.roll', {
            roll: hundredthsText(outcome.roll ?? 0),
            direction: form.diceDirection === 'over' ? t('fairness.over') : t('fairness.under'),
            target: form.diceTarget,
          })}
          {winLoss}
        </p>
      );
    case 'limbo':
      return (
        <p>
          {t('fairness.limboResult', { result: hundredthsText(outcome.result ?? 0), target: form.limboTarget })}
          {winLoss}
        </p>
      );
    case 'mines': {
      const mines = new Set(outcome.mines ?? []);
      return (
        <Board aria-label={t('fairness.minesBoard')}>
          {Array.from({ length: 25 }, (_, tile) => (
            // Tiles 0 to 24, row by row from the top left, as the bet history records them.
            <li key={tile} data-mine={mines.has(tile)} aria-label={`${tile}: ${mines.has(tile) ? t('fairness.mine') : t('fairness.safe')}`}>
              {mines.has(tile) ? '✱' : tile}
            </li>
          ))}
        </Board>
      );
    }
    case 'plinko':
      return <p>{t('fairness.plinkoPath', { path: (outcome.path ?? []).join(' '), bucket: String(outcome.bucket ?? 0), rows: form.plinkoRows })}</p>;
    case 'slot':
      return (
        <>
          <Reels aria-label={t('fairness.slotGrid')}>
            <tbody>
              {(outcome.glyphs ?? []).map((row, r) => (
                <tr key={r}>
                  {row.map((glyph, reel) => (
                    <td key={reel}>{glyph}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Reels>
          <p>{t('fairness.stops', { stops: (outcome.stops ?? []).join(', ') })}</p>
        </>
      );
  }
}

/** The page without the shell around it (the model test renders it alone). */
export function Fairness({ form: filledIn }: { form: FairnessForm }) {
  const { t } = useT();
  const actor = useFlow(fairnessMachine, { form: filledIn });
  const state = useSelector(actor, (s) => (s.matches('verifying') ? 'verifying' : s.matches('failed') ? 'failed' : s.matches('verified') ? 'verified' : 'editing'));
  const form = useSelector(actor, (s) => s.context.form);
  const result = useSelector(actor, (s) => s.context.result);
  const error = useSelector(actor, (s) => s.context.error);
  const change = (field: FairnessField) => (event: { target: { value: string } }) => actor.send({ type: 'CHANGE', field, value: event.target.value });
  // On a phone the result is under the form: brought into view when it arrives (a Verify link lands on it).
  const resultPanel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (result && window.matchMedia?.('(max-width: 1023px)').matches) resultPanel.current?.scrollIntoView?.({ block: 'start' });
  }, [result]);
  const errorsOf = (field: FairnessField) => (error !== null && FIELD_OF_ERROR[error] === field ? [t(`fairness.errors.${error}` as MessageKey)] : []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state !== 'verifying') actor.send({ type: 'VERIFY' });
  };

  let params;
  switch (form.game) {
    case 'dice':
      params = (
        <Pair>
          <TextField label={t('fairness.diceTarget')} inputMode="decimal" value={form.diceTarget} onChange={change('diceTarget')} errors={errorsOf('diceTarget')} />
          <SelectField label={t('fairness.diceDirection')} value={form.diceDirection} onChange={change('diceDirection')} errors={errorsOf('diceDirection')}>
            <option value="under">{t('fairness.under')}</option>
            <option value="over">{t('fairness.over')}</option>
          </SelectField>
        </Pair>
      );
      break;
    case 'limbo':
      params = <TextField label={t('fairness.limboTarget')} inputMode="decimal" value={form.limboTarget} onChange={change('limboTarget')} errors={errorsOf('limboTarget')} />;
      break;
    case 'mines':
      params = <TextField label={t('fairness.mineCount')} inputMode="numeric" value={form.mineCount} onChange={change('mineCount')} errors={errorsOf('mineCount')} />;
      break;
    case 'plinko':
      params = (
        <Pair>
          <TextField label={t('fairness.plinkoRows')} inputMode="numeric" value={form.plinkoRows} onChange={change('plinkoRows')} errors={errorsOf('plinkoRows')} />
          <SelectField label={t('fairness.plinkoRisk')} value={form.plinkoRisk} onChange={change('plinkoRisk')} errors={errorsOf('plinkoRisk')}>
            <option value="low">{t('fairness.risks.low')}</option>
            <option value="medium">{t('fairness.risks.medium')}</option>
            <option value="high">{t('fairness.risks.high')}</option>
          </SelectField>
        </Pair>
      );
      break;
    case 'slot':
      params = <TextField label={t('fairness.slotSkin')} value={form.slotSkin} onChange={change('slotSkin')} errors={errorsOf('slotSkin')} spellCheck={false} />;
      break;
  }

  return (
    <div>
      <p>{t('fairness.intro')}</p>
      <Columns>
        <Panel aria-labelledby="fairness-bet">
          <h2 id="fairness-bet">{t('fairness.bet')}</h2>
          <form onSubmit={submit} noValidate>
            <SelectField label={t('fairness.game')} value={form.game} onChange={change('game')}>
              {FAIRNESS_GAMES.map((game) => (
                <option key={game} value={game}>
                  {GAME_NAMES[game]}
                </option>
              ))}
            </SelectField>
            <TextField label={t('fairness.serverSeed')} value={form.serverSeed} onChange={change('serverSeed')} errors={errorsOf('serverSeed')} autoComplete="off" spellCheck={false} />
            <Pair>
              <TextField label={t('fairness.clientSeed')} value={form.clientSeed} onChange={change('clientSeed')} errors={errorsOf('clientSeed')} autoComplete="off" spellCheck={false} />
              <TextField label={t('fairness.nonce')} inputMode="numeric" value={form.nonce} onChange={change('nonce')} errors={errorsOf('nonce')} />
            </Pair>
            {params}
            <TextField label={t('fairness.expectedHash')} value={form.expectedHash} onChange={change('expectedHash')} autoComplete="off" spellCheck={false} />
            <TextField label={t('fairness.expectedOutcome')} value={form.expectedOutcome} onChange={change('expectedOutcome')} autoComplete="off" spellCheck={false} />
            <Button type="submit" aria-busy={state === 'verifying'}>
              {state === 'verifying' ? t('fairness.verifying') : t('fairness.verify')}
            </Button>
          </form>
        </Panel>
        <Panel ref={resultPanel} aria-labelledby="fairness-result" aria-live="polite">
          <h2 id="fairness-result">{t('fairness.result')}</h2>
          {state === 'failed' ? (
            <div>
              <FormError role="alert">{t('fairness.failed')}</FormError>
              <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
                {t('common.retry')}
              </Button>
            </div>
          ) : result ? (
            <div>
              <Verdicts>
                <CheckLine label={t('fairness.hashCheck')} check={result.hashCheck} />
                <CheckLine label={t('fairness.outcomeCheck')} check={result.outcomeCheck} />
              </Verdicts>
              <Outcome result={result} form={form} />
              <Facts>
                <dt>{t('fairness.computedHash')}</dt>
                <dd>{result.serverSeedHash}</dd>
                {result.summary !== null ? (
                  <>
                    <dt>{t('fairness.summaryLabel')}</dt>
                    <dd>{result.summary}</dd>
                  </>
                ) : null}
                {result.outcome.multiplier !== null ? (
                  <>
                    <dt>{t('fairness.multiplier')}</dt>
                    <dd>×{result.outcome.multiplier.replace(/\.?0+$/, '')}</dd>
                  </>
                ) : null}
                <dt>{t('fairness.numbers')}</dt>
                <dd>{result.numbers.join(', ')}</dd>
              </Facts>
            </div>
          ) : (
            <p>{t('fairness.nothingYet')}</p>
          )}
        </Panel>
      </Columns>
      <How aria-labelledby="fairness-how">
        <h2 id="fairness-how">{t('fairness.howTitle')}</h2>
        <p>{t('fairness.how1')}</p>
        <p>{t('fairness.how2')}</p>
        <p>{t('fairness.how3')}</p>
      </How>
    </div>
  );
}

export default function FairnessScreen() {
  const { t } = useT();
  const search = useSearch();
  return (
    <Screen title={t('fairness.title')}>
      {/* A new link (the bet history's next Verify) starts the page again with its bet. */}
      <Fairness key={search} form={fairnessFormOf(search)} />
    </Screen>
  );
}
