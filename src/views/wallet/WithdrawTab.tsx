import type { FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { Link } from 'wouter';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount } from '../../format.ts';
import { selectedProvider, totalTaken, withdrawMachine } from '../../machines/withdraw.machine.ts';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { fieldMessages } from '../dialogs/parts.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';

/*
 * The wallet's Withdraw tab (src/machines/withdraw.machine.ts): the form, its confirmation with the fee
 * and the total, and the pending request until the provider settles it.
 */

const Stack = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(4)};
`;

const Summary = styled('dl')`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${theme.space(1)} ${theme.space(4)};
  margin: 0;
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  font-variant-numeric: tabular-nums;
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0 0 ${theme.space(2)};
    overflow-wrap: anywhere;
  }
  /* From a tablet up, each label beside its value. */
  ${theme.breakpoint.tablet} {
    grid-template-columns: max-content 1fr;
    gap: ${theme.space(2)} ${theme.space(4)};
    dd {
      margin: 0;
      text-align: right;
    }
  }
  dd.total {
    font-weight: 700;
  }
`;

const Row = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
`;

const Note = styled('p')`
  margin: 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
  &[data-tone='success'] {
    color: ${theme.color.success};
  }
  &[data-tone='danger'] {
    color: ${theme.color.danger};
  }
`;

/* Why a bonus stops the withdrawal, and the way to the bonus. */
const Help = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  padding: ${theme.space(3)} ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-left: 4px solid ${theme.color.danger};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  p {
    margin: 0;
  }
  a {
    color: ${theme.color.link};
    font-weight: 600;
    align-self: flex-start;
    padding: ${theme.space(2)} 0;
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const Title = styled('h3')`
  margin: 0;
  font-size: ${theme.font.size.body};
`;

export default function WithdrawTab({ currencyCode }: { currencyCode: string }) {
  const { t, language } = useT();
  const actor = useFlow(withdrawMachine, { currencyCode });
  const state = useSelector(actor, (s) => s.value as string);
  const values = useSelector(actor, (s) => s.context.values);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const providers = useSelector(actor, (s) => s.context.providers);
  const providerId = useSelector(actor, (s) => s.context.providerId);
  const pending = useSelector(actor, (s) => s.context.pending);
  const settled = useSelector(actor, (s) => s.context.settled);
  const keyRefused = useSelector(actor, (s) => s.context.keyRefused);
  const provider = selectedProvider({ providers, providerId });
  const money = (value: string) => formatAmount(value, currencyCode, language);

  if (state === 'loading' || state === 'checking') {
    return (
      <Note role="status" aria-busy="true">
        {t('states.loading')}
      </Note>
    );
  }
  if (state === 'failed') {
    return (
      <Stack>
        <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
        <Row>
          <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('common.retry')}
          </Button>
        </Row>
      </Stack>
    );
  }
  if (state === 'pending' && pending) {
    return (
      <Stack>
        <Title>{t('wallet.withdraw.pendingTitle')}</Title>
        <Note role="status">{t('wallet.withdraw.pendingBody')}</Note>
        <Summary aria-label={t('wallet.withdraw.pendingTitle')}>
          <dt>{t('wallet.withdraw.amount')}</dt>
          <dd>{money(pending.amount)}</dd>
          <dt>{t('wallet.withdraw.feeLabel')}</dt>
          <dd>{money(pending.fee)}</dd>
          <dt>{t('wallet.withdraw.address')}</dt>
          <dd>{pending.address}</dd>
          <dt>{t('wallet.withdraw.status')}</dt>
          <dd>{t('wallet.withdraw.statusPending')}</dd>
        </Summary>
      </Stack>
    );
  }

  const fee = provider?.withdrawFee ?? '0';
  const total = totalTaken(values.amount, fee);
  if (state === 'confirming' || state === 'keying' || state === 'submitting' || state === 'unanswered') {
    const submitting = state === 'keying' || state === 'submitting';
    return (
      <Stack>
        <Title>{t('wallet.withdraw.review')}</Title>
        <Summary aria-label={t('wallet.withdraw.review')}>
          <dt>{t('wallet.withdraw.amount')}</dt>
          <dd>{money(values.amount)}</dd>
          <dt>{t('wallet.withdraw.feeLabel')}</dt>
          <dd>{money(fee)}</dd>
          <dt>{t('wallet.withdraw.totalLabel')}</dt>
          <dd className="total">{total === null ? '' : money(total)}</dd>
          <dt>{t('wallet.withdraw.address')}</dt>
          <dd>{values.address.trim()}</dd>
        </Summary>
        {state === 'unanswered' ? <FormError role="alert">{t('wallet.withdraw.unanswered')}</FormError> : null}
        {state === 'confirming' && keyRefused ? <FormError role="alert">{t('wallet.withdraw.keyRefused')}</FormError> : null}
        <Row>
          {state === 'unanswered' ? (
            <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
              {t('wallet.withdraw.sendAgain')}
            </Button>
          ) : (
            <Button
              type="button"
              disabled={submitting}
              aria-busy={submitting}
              onClick={() => actor.send({ type: 'CONFIRM' })}
            >
              {submitting ? t('common.submitting') : t('wallet.withdraw.confirm')}
            </Button>
          )}
          <Button type="button" variant="secondary" disabled={submitting} onClick={() => actor.send({ type: 'BACK' })}>
            {t('wallet.withdraw.back')}
          </Button>
        </Row>
      </Stack>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };
  // How the last request ended (the live update that settled it).
  const news = settled ? (
    <Note role="status" data-tone={settled.status === 'completed' ? 'success' : 'danger'}>
      {settled.status === 'completed'
        ? t('wallet.withdraw.sent', { amount: money(settled.amount) })
        : t('wallet.withdraw.failed', { amount: money(settled.amount), total: money(totalTaken(settled.amount, settled.fee) ?? settled.amount) })}
    </Note>
  ) : null;
  if (state === 'unavailable') {
    return (
      <Stack>
        {news}
        <Note>{t('wallet.withdraw.unavailable', { currency: currencyCode })}</Note>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {news}
        {errorCode === 'CASHOUT_NOT_ALLOWED' ? (
          <Help>
            <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
            <p>{t('wallet.withdraw.cashoutHelp')}</p>
            <Link href="/bonus?tab=active">{t('wallet.withdraw.seeActiveBonus')}</Link>
          </Help>
        ) : errorCode ? (
          <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
        ) : null}
        {providers.length > 1 ? (
          <SelectField
            label={t('wallet.paymentProvider')}
            value={String(providerId ?? '')}
            onChange={(event) => actor.send({ type: 'PROVIDER', providerId: Number(event.target.value) })}
          >
            {providers.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField
          label={t('wallet.withdraw.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={values.amount}
          onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: event.target.value })}
          errors={fieldMessages(t, fieldErrors.amount)}
          hint={provider ? `${t('wallet.withdraw.minimum', { amount: money(provider.minWithdraw) })} · ${t('wallet.withdraw.fee', { amount: money(fee) })}` : undefined}
        />
        <TextField
          label={t('wallet.withdraw.address')}
          name="address"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={t('wallet.withdraw.addressPlaceholder', { currency: currencyCode })}
          value={values.address}
          onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'address', value: event.target.value })}
          errors={fieldMessages(t, fieldErrors.address)}
        />
        <Row>
          <Button type="submit">{t('wallet.withdraw.submit')}</Button>
        </Row>
      </Stack>
    </form>
  );
}
