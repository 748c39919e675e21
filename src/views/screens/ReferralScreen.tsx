import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount, formatNumber } from '../../format.ts';
import { claimableAmount, claimBlocker, claimWallet, referralLink, referralMachine, type ReferralInput } from '../../machines/referral.machine.ts';
import { Button } from '../components/Button.tsx';
import { Failure } from '../components/Failure.tsx';
import { FormError, SelectField } from '../components/Form.tsx';
import { Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { theme } from '../theme.ts';
import { Card as PageCard, Cards } from '../components/Page.tsx';
import { useFlow, useWiring } from '../wiring.ts';

/*
 * Refer a friend (src/machines/referral.machine.ts): the player's code and link to copy or share, the
 * reward and the limit of the server's settings, the friends pending and qualified apart (with what
 * qualifies a friend), and the claim of the reward into a wallet of the player's choice.
 */

const Card = styled(PageCard)`
  h3 {
    margin: 0;
    font-size: ${theme.font.size.small};
    font-weight: 500;
    color: ${theme.color.textMuted};
  }
  .value {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    overflow-wrap: anywhere;
    user-select: all;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-radius: ${theme.radius.small};
    background: ${theme.color.background};
  }
  .code {
    font-size: ${theme.font.size.large};
    letter-spacing: 0.08em;
  }
  .done {
    color: ${theme.color.success};
  }
  .refused {
    color: ${theme.color.danger};
  }
  button:disabled:not([aria-busy='true']) {
    cursor: not-allowed;
  }
  .amount {
    font-size: ${theme.font.size.large};
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
`;

/* One figure a row on a phone, label beside value; two by two on a tablet, four side by side from a desktop up. */
const Stats = styled('dl')`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${theme.space(2)};
  margin: 0;
  div {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: ${theme.space(3)};
    padding: ${theme.space(3)};
    border-radius: ${theme.radius.medium};
    background: ${theme.color.background};
    min-width: 0;
  }
  dt {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  dd {
    margin: 0;
    font-size: ${theme.font.size.large};
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    div {
      display: block;
    }
    dd {
      margin-top: ${theme.space(1)};
      font-size: ${theme.font.size.title};
    }
  }
  ${theme.breakpoint.desktop} {
    grid-template-columns: repeat(4, minmax(0, 1fr));
  }
`;

const Note = styled('p')`
  margin: 0;
  color: ${theme.color.textMuted};
`;

/** The page's content, for the browser it runs in (`origin`, `canShare`): the screen below, and the model tests. */
export function ReferralPanel({ origin, canShare }: ReferralInput) {
  const { t, language } = useT();
  const actor = useFlow(referralMachine, { origin, canShare });
  const { settings } = useWiring();
  const loaded = useSelector(settings, (s) => s.context.settings);
  const state = useSelector(actor, (s) => s.value as string);
  const context = useSelector(actor, (s) => s.context);
  const { referral, wallets, errorCode, copied, copyTarget } = context;

  if (state === 'loading' || state === 'loadingWallets') {
    return (
      <Note role="status" aria-busy="true">
        {t('states.loading')}
      </Note>
    );
  }
  if (state === 'failed' || referral === null) {
    return (
      <div>
        <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
      </div>
    );
  }

  const wallet = claimWallet(context);
  const currency = wallet?.currencyCode ?? '';
  const money = (amount: string) => formatAmount(amount, currency, language);
  const link = referralLink(origin, referral.referralCode);
  const reward = loaded?.referralReward ?? null;
  const limit = loaded?.referralLimit ?? null;
  const blocker = claimBlocker(context, limit);
  const busy = state === 'keying' || state === 'claiming' || state === 'claimed';
  const copyMessage =
    copied === 'done' ? (
      <p className="done">{t(copyTarget === 'code' ? 'referral.copiedCode' : 'referral.copiedLink')}</p>
    ) : copied === 'failed' ? (
      <p className="refused">{t('referral.copyFailed')}</p>
    ) : context.shareFailed ? (
      <p className="refused">{t('referral.shareFailed')}</p>
    ) : null;

  return (
    <Cards>
      {reward !== null && limit !== null ? (
        <Note>{t('referral.intro', { reward: money(reward), limit: formatNumber(limit, language) })}</Note>
      ) : null}
      <Card aria-labelledby="referral-code-title">
        <h3 id="referral-code-title">{t('referral.yourCode')}</h3>
        <p className="value code">{referral.referralCode}</p>
        <h3 id="referral-link-title">{t('referral.yourLink')}</h3>
        <p className="value" aria-labelledby="referral-link-title">
          {link}
        </p>
        <div className="row">
          <Button type="button" onClick={() => actor.send({ type: 'COPY', target: 'code' })} aria-busy={state === 'copying' && copyTarget === 'code'}>
            {t('referral.copyCode')}
          </Button>
          <Button type="button" onClick={() => actor.send({ type: 'COPY', target: 'link' })} aria-busy={state === 'copying' && copyTarget === 'link'}>
            {t('referral.copyLink')}
          </Button>
          {canShare ? (
            <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'SHARE' })} aria-busy={state === 'sharing'}>
              {t('referral.share')}
            </Button>
          ) : null}
        </div>
        <div role="status">{copyMessage}</div>
      </Card>
      <Card aria-labelledby="referral-stats-title">
        <h2 id="referral-stats-title">{t('referral.stats')}</h2>
        <Stats>
          <div>
            <dt>{t('referral.pending')}</dt>
            <dd>{formatNumber(referral.pendingCount, language)}</dd>
          </div>
          <div>
            <dt>{t('referral.qualified')}</dt>
            <dd>{formatNumber(referral.qualifiedCount, language)}</dd>
          </div>
          <div>
            <dt>{t('referral.paid')}</dt>
            <dd>{formatNumber(referral.paidCount, language)}</dd>
          </div>
          <div>
            <dt>{t('referral.claimable')}</dt>
            <dd>{formatNumber(referral.claimableCount, language)}</dd>
          </div>
        </Stats>
        <Note id="referral-requirement">{t(`referral.requirement.${referral.requirement}`)}</Note>
      </Card>
      <Card aria-labelledby="referral-claim-title">
        <h2 id="referral-claim-title">{t('bonus.types.referral')}</h2>
        {reward !== null && referral.claimableCount > 0 && wallet ? (
          <p className="amount">{money(claimableAmount(reward, referral.claimableCount))}</p>
        ) : null}
        {wallets.length > 1 ? (
          <SelectField
            label={t('referral.claimInto')}
            value={String(context.currencyId ?? '')}
            disabled={state !== 'ready'}
            onChange={(event) => actor.send({ type: 'CURRENCY', currencyId: Number(event.target.value) })}
          >
            {wallets.map((candidate) => (
              <option key={candidate.id} value={candidate.currencyId}>
                {candidate.currencyCode}
              </option>
            ))}
          </SelectField>
        ) : wallet ? (
          <p className="muted">{t('referral.claimTo', { currency })}</p>
        ) : null}
        {state === 'unanswered' ? <FormError role="alert">{t('referral.unanswered')}</FormError> : null}
        {state === 'ready' && context.keyRefused ? <FormError role="alert">{t('referral.keyRefused')}</FormError> : null}
        {state !== 'unanswered' && errorCode ? <FormError role="alert">{t(errorMessageKey(errorCode, 'bonus'))}</FormError> : null}
        {blocker ? (
          <p id="referral-claim-reason" className="muted">
            {blocker === 'limitReached' ? t('referral.limitReached', { limit: formatNumber(limit ?? 0, language) }) : t(`referral.${blocker}`)}
          </p>
        ) : null}
        <div className="row">
          {state === 'unanswered' ? (
            <>
              <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
                {t('referral.sendAgain')}
              </Button>
              <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'BACK' })}>
                {t('referral.back')}
              </Button>
            </>
          ) : (
            <Button
              type="button"
              disabled={blocker !== null || busy}
              aria-busy={busy}
              aria-describedby={blocker ? 'referral-claim-reason' : undefined}
              onClick={() => actor.send({ type: 'CLAIM' })}
            >
              {busy ? t('referral.claiming') : t('referral.claim')}
            </Button>
          )}
        </div>
      </Card>
    </Cards>
  );
}

export default function ReferralScreen() {
  const { t } = useT();
  return (
    <PlayerOnly title={t('referral.title')}>
      <Screen title={t('referral.title')}>
        <ReferralPanel origin={window.location.origin} canShare={typeof navigator.share === 'function'} />
      </Screen>
    </PlayerOnly>
  );
}
