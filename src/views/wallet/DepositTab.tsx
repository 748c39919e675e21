import { lazy, Suspense, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount } from '../../format.ts';
import { depositMachine } from '../../machines/deposit.machine.ts';
import type { DepositActivity } from '../../machines/live.ts';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { fieldMessages } from '../dialogs/parts.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';
import { Failure } from '../components/Failure.tsx';

const QrCode = lazy(() => import('./QrCode.tsx'));

/*
 * The wallet's Deposit tab (src/machines/deposit.machine.ts): the amount and provider, then the address
 * to send to (text, Copy, QR code, network, minimum, confirmations), and the player's deposits on their
 * way, each updating as the network confirms it.
 */

const Stack = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(4)};
`;

const AddressBox = styled('section')`
  display: grid;
  gap: ${theme.space(3)};
  grid-template-columns: 1fr;
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.background};
  ${theme.breakpoint.tablet} {
    grid-template-columns: auto 1fr;
  }
  .qr {
    width: 168px;
    height: 168px;
    justify-self: center;
    border-radius: ${theme.radius.small};
    overflow: hidden;
  }
  .details {
    display: flex;
    flex-direction: column;
    gap: ${theme.space(2)};
    min-width: 0;
  }
  h3 {
    margin: 0;
    font-size: ${theme.font.size.body};
    color: ${theme.color.textMuted};
    font-weight: 500;
  }
  .address {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    overflow-wrap: anywhere;
    user-select: all;
    margin: 0;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
    align-items: center;
  }
  p {
    margin: 0;
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
  }
  p.copied {
    color: ${theme.color.success};
  }
  p.copy-failed {
    color: ${theme.color.danger};
  }
`;

const List = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  li {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: ${theme.space(1)} ${theme.space(3)};
    align-items: center;
    padding: ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.medium};
    background: ${theme.color.background};
    font-variant-numeric: tabular-nums;
  }
  .status {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  li[data-status='credited'] .status {
    color: ${theme.color.success};
  }
  li[data-status='belowMinimum'] .status {
    color: ${theme.color.danger};
  }
  progress {
    grid-column: 1 / -1;
    width: 100%;
    height: 0.5rem;
    accent-color: ${theme.color.accent};
  }
`;

const Heading = styled('h3')`
  margin: 0;
  font-size: ${theme.font.size.body};
`;

const Muted = styled('p')`
  margin: 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
`;

export default function DepositTab({ currencyCode }: { currencyCode: string }) {
  const { t, language } = useT();
  const actor = useFlow(depositMachine, { currencyCode });
  const formState = useSelector(actor, (s) => s.value.form as string);
  const activityState = useSelector(actor, (s) => s.value.activity as string);
  const amount = useSelector(actor, (s) => s.context.values.amount);
  const amountErrors = useSelector(actor, (s) => s.context.fieldErrors.amount);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const providers = useSelector(actor, (s) => s.context.providers);
  const providerId = useSelector(actor, (s) => s.context.providerId);
  const address = useSelector(actor, (s) => s.context.address);
  const copied = useSelector(actor, (s) => s.context.copied);
  const deposits = useSelector(actor, (s) => s.context.deposits);
  const activityErrorCode = useSelector(actor, (s) => s.context.activityErrorCode);
  const money = (value: string) => formatAmount(value, currencyCode, language);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };

  let top;
  if (formState === 'loading') {
    top = (
      <Muted role="status" aria-busy="true">
        {t('states.loading')}
      </Muted>
    );
  } else if (formState === 'failed') {
    top = (
      <div>
        <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
      </div>
    );
  } else if ((formState === 'address' || formState === 'copying') && address) {
    top = (
      <AddressBox aria-labelledby="deposit-address-title">
        <div className="qr">
          <Suspense fallback={null}>
            <QrCode text={address.address} label={t('wallet.deposit.qr')} />
          </Suspense>
        </div>
        <div className="details">
          <h3 id="deposit-address-title">{t('wallet.deposit.address')}</h3>
          <p className="address" data-testid="deposit-address">
            {address.address}
          </p>
          <div className="row">
            <Button type="button" onClick={() => actor.send({ type: 'COPY' })} aria-busy={formState === 'copying'}>
              {t('wallet.deposit.copy')}
            </Button>
            <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'CHANGE_AMOUNT' })}>
              {t('wallet.deposit.changeAmount')}
            </Button>
          </div>
          <div role="status">
            {copied === 'done' ? <p className="copied">{t('wallet.deposit.copied')}</p> : null}
            {copied === 'failed' ? <p className="copy-failed">{t('wallet.deposit.copyFailed')}</p> : null}
          </div>
          <p>
            {t('wallet.deposit.network')}: {address.network}
          </p>
          <p>{t('wallet.deposit.instructions', { currency: address.currencyCode, network: address.network })}</p>
          <p>{t('wallet.deposit.minimum', { amount: money(address.minDeposit) })}</p>
          <p>{t('wallet.deposit.confirmations', { count: String(address.confirmations) })}</p>
        </div>
      </AddressBox>
    );
  } else {
    const requesting = formState === 'requesting';
    const provider = providers.find((candidate) => candidate.id === providerId);
    top = (
      <form onSubmit={submit} noValidate>
        <Stack>
          {errorCode ? <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError> : null}
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
            label={t('wallet.deposit.amount')}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(event) => actor.send({ type: 'FIELD.CHANGE', field: 'amount', value: event.target.value })}
            errors={fieldMessages(t, amountErrors)}
            hint={provider ? t('wallet.deposit.minimum', { amount: money(provider.minDeposit) }) : undefined}
          />
          <div>
            <Button type="submit" disabled={requesting} aria-busy={requesting}>
              {requesting ? t('common.submitting') : t('wallet.deposit.submit')}
            </Button>
          </div>
        </Stack>
      </form>
    );
  }

  return (
    <Stack>
      {top}
      <section aria-labelledby="deposits-title">
        <Stack>
          <Heading id="deposits-title">{t('wallet.deposit.inFlight')}</Heading>
          {activityState === 'loading' ? (
            <Muted role="status" aria-busy="true">
              {t('states.loading')}
            </Muted>
          ) : activityState === 'unavailable' ? (
            <div role="alert">
              <Muted>
                {t('wallet.deposit.unavailable')} {t(errorMessageKey(activityErrorCode, 'default'))}
              </Muted>
              <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'RELOAD_DEPOSITS' })}>
                {t('common.retry')}
              </Button>
            </div>
          ) : deposits.length === 0 ? (
            <Muted>{t('wallet.deposit.noneInFlight')}</Muted>
          ) : (
            <List aria-labelledby="deposits-title">
              {deposits.map((deposit) => (
                <DepositLine key={deposit.txId} deposit={deposit} money={money} />
              ))}
            </List>
          )}
        </Stack>
      </section>
    </Stack>
  );
}

function DepositLine({ deposit, money }: { deposit: DepositActivity; money: (value: string) => string }) {
  const { t } = useT();
  const confirmations = Math.min(deposit.confirmations, deposit.requiredConfirmations);
  const progress = t('wallet.deposit.progress', { count: String(confirmations), required: String(deposit.requiredConfirmations) });
  const credited = deposit.heldAmount ? t('wallet.deposit.creditedHeld', { held: money(deposit.heldAmount) }) : t('wallet.deposit.credited');
  const status = deposit.status === 'credited' ? credited : deposit.status === 'belowMinimum' ? t('wallet.deposit.belowMinimum') : progress;
  return (
    <li data-status={deposit.status}>
      <strong>{money(deposit.amount)}</strong>
      <span className="status">{status}</span>
      {deposit.status === 'pending' ? (
        <progress max={deposit.requiredConfirmations} value={confirmations} aria-label={progress} />
      ) : null}
    </li>
  );
}
