import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey, fieldMessages } from '../../api/errors.ts';
import { formatAmount, formatDate } from '../../format.ts';
import { LIMIT_KINDS, LIMIT_PERIODS, type LimitKind } from '../../rules/limitChecks.ts';
import { limitsMachine, type ResponsibleGambling } from '../../machines/limits.machine.ts';
import { EXCLUSION_PERIODS, exclusionEnd, selfExclusionMachine, type ExclusionPeriod, type SelfExclusion } from '../../machines/selfExclusion.machine.ts';
import { SESSION_LIMITS, sessionLimitMachine } from '../../machines/sessionLimit.machine.ts';
import { Button } from '../components/Button.tsx';
import { Failure } from '../components/Failure.tsx';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Screen } from '../components/Screen.tsx';
import { formatDuration } from '../duration.ts';

// The app's reality check comes with this page's chunk (src/views/PlayerActions.tsx loads it with the session).
export { default as RealityCheck } from '../RealityCheck.tsx';
import { useT } from '../i18n-context.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { theme } from '../theme.ts';
import { Card as PageCard, Cards } from '../components/Page.tsx';
import { useFlow } from '../wiring.ts';

/*
 * The responsible-gambling page (SPEC §2): the deposit, bet and loss limits (limits.machine.ts), the
 * session limit (sessionLimit.machine.ts) and self-exclusion (selfExclusion.machine.ts). The limits'
 * settings load once; the other two cards start from them.
 */

const Card = styled(PageCard)`
  h3 {
    margin: 0;
    font-size: ${theme.font.size.body};
  }
`;

const Kind = styled('fieldset')`
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  margin: 0;
  padding: ${theme.space(3)} ${theme.space(3)} 0;
  min-width: 0;
  legend {
    padding: 0 ${theme.space(1)};
    font-weight: 600;
  }
  .periods {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    column-gap: ${theme.space(3)};
    ${theme.breakpoint.tablet} {
      grid-template-columns: repeat(3, minmax(0, 1fr));
    }
  }
  input {
    font-variant-numeric: tabular-nums;
  }
  .state {
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
    font-variant-numeric: tabular-nums;
  }
  .pending {
    color: ${theme.color.focus};
  }
`;

const Choices = styled('fieldset')`
  border: 0;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
  legend {
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
    margin-bottom: ${theme.space(1)};
  }
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space(2)};
    min-height: 2.75rem;
    padding: 0 ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.medium};
    cursor: pointer;
  }
  label:has(input:checked) {
    border-color: ${theme.color.accent};
    background: ${theme.color.surfaceRaised};
  }
  input {
    width: 1.1rem;
    height: 1.1rem;
    accent-color: ${theme.color.accent};
  }
`;

const Confirmation = styled('section')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.danger};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  h3:focus {
    outline: none;
  }
  ul {
    margin: 0;
    padding-left: ${theme.space(5)};
    display: flex;
    flex-direction: column;
    gap: ${theme.space(1)};
  }
`;

const Note = styled('p')`
  margin: 0 0 ${theme.space(4)};
  color: ${theme.color.textMuted};
  max-width: 56rem;
`;


// ── Limits ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The deposit, bet and loss limits; `children` follow once the settings are loaded (the page's other
 * cards), or come first for a self-excluded player, whose limits are shown to read only.
 */
export function LimitsPanel({ children }: { children?: (settings: ResponsibleGambling) => ReactNode }) {
  const { t, language } = useT();
  const actor = useFlow(limitsMachine);
  const state = useSelector(actor, (s) => (s.matches('saving') ? 'saving' : (s.value as string)));
  const { limits, values, fieldErrors, failed, errorCode, hasChanges } = useSelector(actor, (s) => s.context);

  if (state === 'loading') {
    return (
      <Note role="status" aria-busy="true">
        {t('states.loading')}
      </Note>
    );
  }
  if (state === 'failed' || limits === null) {
    return (
      <div>
        <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
      </div>
    );
  }

  const currency = limits.currencyCode;
  const money = (amount: string) => formatAmount(amount, currency, language);
  const saving = state === 'saving';
  const locked = state === 'locked';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SAVE' });
  };
  const kindFields = (kind: LimitKind) =>
    LIMIT_PERIODS.map((period) => {
      const field = `${kind}.${period}` as const;
      const { current, pending } = limits[kind][period];
      const hint = (
        <>
          <span className="state">
            {current === null ? t('responsibleGambling.noLimit') : t('responsibleGambling.inForce', { value: money(current) })}
            {' · '}
            {t('responsibleGambling.used', { value: money(limits.usage[kind][period]) })}
          </span>
          {pending ? (
            <span className="state pending">
              {' · '}
              {pending.value === null
                ? t('responsibleGambling.pendingRemoval', { date: formatDate(pending.effectiveAt, language, 'datetime') })
                : t('responsibleGambling.pendingChange', { value: money(pending.value), date: formatDate(pending.effectiveAt, language, 'datetime') })}
            </span>
          ) : null}
        </>
      );
      return (
        <TextField
          key={field}
          label={t(`responsibleGambling.periods.${period}`)}
          name={field}
          inputMode="decimal"
          autoComplete="off"
          value={values[field]}
          readOnly={saving || locked}
          onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field, value: event.target.value })}
          errors={fieldMessages(t, fieldErrors[field])}
          hint={hint}
        />
      );
    });

  return (
    <Cards>
      {/* Self-excluded: the exclusion first, the limits below it to read. */}
      {locked ? children?.(limits) : null}
      <Card aria-labelledby="limits-title">
        <h2 id="limits-title">{t('responsibleGambling.limitsTitle')}</h2>
        <p className="muted">
          {t('responsibleGambling.amountsIn', { currency })} {t('responsibleGambling.orderRule')}
        </p>
        <form onSubmit={submit} noValidate>
          <Cards>
            {LIMIT_KINDS.map((kind) => (
              <Kind key={kind}>
                <legend>{t(`responsibleGambling.kinds.${kind}`)}</legend>
                <div className="periods">{kindFields(kind)}</div>
              </Kind>
            ))}
            {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'limits'))}</FormError> : null}
            {locked ? (
              <p className="muted">{t('responsibleGambling.lockedWhileExcluded')}</p>
            ) : (
              <div className="row">
                <Button type="submit" disabled={!hasChanges || saving} aria-busy={saving}>
                  {saving ? t('common.saving') : t('responsibleGambling.save')}
                </Button>
                {hasChanges ? <span className="muted">{t('responsibleGambling.unsavedChanges')}</span> : null}
              </div>
            )}
          </Cards>
        </form>
      </Card>
      {locked ? null : children?.(limits)}
    </Cards>
  );
}

// ── Session limit ──────────────────────────────────────────────────────────────────────────────────────

export function SessionLimitPanel({ minutes }: { minutes: number | null }) {
  const { t } = useT();
  const actor = useFlow(sessionLimitMachine, { minutes });
  const state = useSelector(actor, (s) => s.value as string);
  const { values, saved, failed, errorCode, hasChanges } = useSelector(actor, (s) => s.context);
  const saving = state === 'saving';
  const offered: number[] = [...SESSION_LIMITS];
  if (saved !== '' && !offered.includes(Number(saved))) offered.push(Number(saved));
  offered.sort((a, b) => a - b);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SAVE' });
  };
  return (
    <Card aria-labelledby="session-limit-title">
      <h2 id="session-limit-title">{t('responsibleGambling.sessionLimit.title')}</h2>
      <p className="muted">{t('responsibleGambling.sessionLimit.intro')}</p>
      <form onSubmit={submit} noValidate>
        <SelectField
          label={t('responsibleGambling.sessionLimit.minutes')}
          value={values.minutes}
          disabled={saving}
          onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'minutes', value: event.target.value })}
        >
          <option value="">{t('responsibleGambling.sessionLimit.none')}</option>
          {offered.map((option) => (
            <option key={option} value={String(option)}>
              {formatDuration(option * 60_000, t)}
            </option>
          ))}
        </SelectField>
        {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'limits'))}</FormError> : null}
        <div className="row">
          <Button type="submit" disabled={!hasChanges || saving} aria-busy={saving}>
            {saving ? t('common.saving') : t('responsibleGambling.sessionLimit.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

// ── Self-exclusion ─────────────────────────────────────────────────────────────────────────────────────

export function SelfExclusionPanel({ selfExclusion, now }: { selfExclusion: SelfExclusion; now: string }) {
  const { t, language } = useT();
  const actor = useFlow(selfExclusionMachine, { selfExclusion, now });
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const { current, choice, days, failed, errorCode, untilErrors } = context;
  const heading = useRef<HTMLHeadingElement>(null);
  const confirming = state === 'confirming' || state === 'submitting';
  // The confirmation takes the focus, so a keyboard or screen-reader user hears what happens first.
  useEffect(() => {
    if (confirming) heading.current?.focus();
  }, [confirming]);

  const periodLabel = (period: ExclusionPeriod) => t(`responsibleGambling.selfExclusion.periods.d${period}`);
  let body: ReactNode;
  if (state === 'excluded' || state === 'done') {
    body = (
      <div role="status">
        <p>
          {current.type === 'permanent'
            ? t('responsibleGambling.selfExclusion.activePermanent')
            : t('responsibleGambling.selfExclusion.activeUntil', { date: formatDate(current.until ?? '', language, 'datetime') })}
        </p>
        <p className="muted">{t('responsibleGambling.selfExclusion.activeHint')}</p>
      </div>
    );
  } else if (confirming) {
    const submitting = state === 'submitting';
    body = (
      <Confirmation aria-labelledby="self-exclusion-confirm-title">
        <h3 id="self-exclusion-confirm-title" ref={heading} tabIndex={-1}>
          {t('responsibleGambling.selfExclusion.confirmTitle')}
        </h3>
        <p>
          {choice === 'permanent'
            ? t('responsibleGambling.selfExclusion.confirmPermanent')
            : t('responsibleGambling.selfExclusion.confirmTemporary', { date: formatDate(exclusionEnd(context.now, days), language, 'datetime') })}
        </p>
        <ul>
          <li>{t('responsibleGambling.selfExclusion.consequences.logout')}</li>
          <li>{t('responsibleGambling.selfExclusion.consequences.refused')}</li>
          <li>{t('responsibleGambling.selfExclusion.consequences.withdraw')}</li>
        </ul>
        <div className="row">
          <Button type="button" disabled={submitting} aria-busy={submitting} onClick={() => actor.send({ type: 'CONFIRM' })}>
            {submitting ? t('common.submitting') : t('responsibleGambling.selfExclusion.confirm')}
          </Button>
          <Button type="button" variant="secondary" disabled={submitting} onClick={() => actor.send({ type: 'BACK' })}>
            {t('responsibleGambling.selfExclusion.back')}
          </Button>
        </div>
      </Confirmation>
    );
  } else {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      actor.send({ type: 'SUBMIT' });
    };
    body = (
      <form onSubmit={submit} noValidate>
        <Cards>
          <Choices>
            <legend>{t('responsibleGambling.selfExclusion.kind')}</legend>
            {(['temporary', 'permanent'] as const).map((option) => (
              <label key={option}>
                <input
                  type="radio"
                  name="self-exclusion-kind"
                  value={option}
                  checked={choice === option}
                  onChange={() => actor.send({ type: 'CHOOSE', choice: option })}
                />
                {t(`responsibleGambling.selfExclusion.${option}`)}
              </label>
            ))}
          </Choices>
          {choice === 'temporary' ? (
            <SelectField
              label={t('responsibleGambling.selfExclusion.period')}
              value={String(days)}
              onChange={(event) => actor.send({ type: 'PERIOD', days: Number(event.target.value) as ExclusionPeriod })}
              errors={fieldMessages(t, untilErrors)}
            >
              {EXCLUSION_PERIODS.map((period) => (
                <option key={period} value={String(period)}>
                  {periodLabel(period)}
                </option>
              ))}
            </SelectField>
          ) : (
            <p className="muted">{t('responsibleGambling.selfExclusion.permanentHint')}</p>
          )}
          {failed ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
          <div className="row">
            <Button type="submit">{t('responsibleGambling.selfExclusion.submit')}</Button>
          </div>
        </Cards>
      </form>
    );
  }
  return (
    <Card aria-labelledby="self-exclusion-title">
      <h2 id="self-exclusion-title">{t('responsibleGambling.selfExclusion.title')}</h2>
      <p className="muted">{t('responsibleGambling.selfExclusion.intro')}</p>
      {body}
    </Card>
  );
}

function Panels() {
  // The time the page opened: a temporary exclusion's period counts from it.
  const [now] = useState(() => new Date().toISOString());
  return (
    <LimitsPanel>
      {(settings) =>
        settings.selfExclusion.type !== null ? (
          <SelfExclusionPanel selfExclusion={settings.selfExclusion} now={now} />
        ) : (
          <>
            <SessionLimitPanel minutes={settings.sessionLimitMinutes} />
            <SelfExclusionPanel selfExclusion={settings.selfExclusion} now={now} />
          </>
        )
      }
    </LimitsPanel>
  );
}

export default function ResponsibleGamblingScreen() {
  const { t } = useT();
  return (
    <PlayerOnly title={t('responsibleGambling.title')}>
      <Screen title={t('responsibleGambling.title')}>
        <Note>{t('responsibleGambling.intro')}</Note>
        <Panels />
      </Screen>
    </PlayerOnly>
  );
}
