import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useSelector } from '@xstate/react';
import { Link, useSearch } from 'wouter';
import { styled } from 'goober';
import { formatAmount, formatDate } from '../../format.ts';
import { parseAmount } from '../../money.ts';
import {
  BONUS_TABS,
  bonusesMachine,
  bonusTab,
  canForfeit,
  inTab,
  claimOf,
  wageringPercent,
  type Bonus,
  type BonusTab,
  type UserBonus,
} from '../../machines/bonuses.machine.ts';
import { bonusClaimMachine, claimWallet } from '../../machines/bonusClaim.machine.ts';
import { bonusForfeitMachine } from '../../machines/bonusForfeit.machine.ts';
import type { Language } from '../../machines/effects.ts';
import { Button } from '../components/Button.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { Failure } from '../components/Failure.tsx';
import { FormError, SelectField } from '../components/Form.tsx';
import { EmptyState, Screen, Tabs } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { theme } from '../theme.ts';
import { ButtonLink } from '../components/Page.tsx';
import { useFlow, useWiring } from '../wiring.ts';
import { withParams } from '../address.ts';
import type { Translator } from '../../i18n/index.ts';

/*
 * The bonus screen (src/machines/bonuses.machine.ts): the tabs All, Active, Queued, Completed and
 * Forfeited in the address (`?tab=`); All shows the offers to claim, then the player's bonuses. An offer's
 * dialog (`?bonus=<offer id>`: its details and the claim, src/machines/bonusClaim.machine.ts) and the
 * forfeit's confirmation (`?forfeit=<user bonus id>`, src/machines/bonusForfeit.machine.ts) are in the
 * address too, so Back closes them.
 */

type T = Translator['t'];

/** An empty list's way on. */
const SpacedLink = styled(ButtonLink)`
  margin-top: ${theme.space(3)};
`;

const Section = styled('section')`
  margin-bottom: ${theme.space(8)};
  h2 {
    font-size: ${theme.font.size.large};
    margin: 0 0 ${theme.space(3)};
  }
`;

const Grid = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space(4)};
  grid-template-columns: minmax(0, 1fr);
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr));
  }
`;

const Card = styled('li')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  min-width: 0;
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  background: ${theme.color.surface};
  h3 {
    margin: 0;
    font-size: ${theme.font.size.body};
    overflow-wrap: anywhere;
  }
  p {
    margin: 0;
  }
`;

const Head = styled('div')`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: ${theme.space(2)};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
`;

const Badge = styled('span')`
  padding: ${theme.space(0.5)} ${theme.space(2)};
  border-radius: 999px;
  border: 1px solid ${theme.color.border};
  color: ${theme.color.text};
  font-size: ${theme.font.size.small};
  white-space: nowrap;
  &[data-status='active'] {
    border-color: ${theme.color.success};
    color: ${theme.color.success};
  }
  &[data-status='forfeited'],
  &[data-status='expired'] {
    border-color: ${theme.color.danger};
    color: ${theme.color.danger};
  }
`;

const Headline = styled('p')`
  font-size: ${theme.font.size.large};
  font-weight: 700;
  font-variant-numeric: tabular-nums;
`;

const Muted = styled('p')`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
`;

const Facts = styled('dl')`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: ${theme.space(1)} ${theme.space(3)};
  margin: 0;
  font-size: ${theme.font.size.small};
  font-variant-numeric: tabular-nums;
  dt {
    color: ${theme.color.textMuted};
  }
  dd {
    margin: 0;
    text-align: right;
    overflow-wrap: anywhere;
  }
`;

const Bar = styled('div')`
  height: 0.5rem;
  border-radius: 999px;
  background: ${theme.color.background};
  border: 1px solid ${theme.color.border};
  overflow: hidden;
  span {
    display: block;
    height: 100%;
    background: ${theme.color.success};
  }
`;

const Actions = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space(3)};
  margin-top: auto;
  padding-top: ${theme.space(2)};
  a {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    color: ${theme.color.link};
  }
  a[data-primary] {
    padding: 0 ${theme.space(4)};
    border-radius: ${theme.radius.medium};
    background: ${theme.color.accentStrong};
    color: ${theme.color.accentText};
    font-weight: 600;
    text-decoration: none;
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const Stack = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(4)};
  p {
    margin: 0;
  }
`;

const Row = styled('div')`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
`;

/** The page's address with some parameters changed (a dialog opened or closed). */
function useAddress(): (changes: Record<string, string>) => string {
  const search = useSearch();
  return (changes) => withParams({ path: '/bonus', search }, changes);
}

const money = (amount: string, currency: string, language: Language) => formatAmount(amount, currency, language);

/** What an offer gives: a fixed amount, or a percentage of a deposit. */
function headline(bonus: Bonus, language: Language): string {
  if (bonus.type === 'deposit' && bonus.percentage !== null) return `${formatAmount(bonus.percentage, '', language)}%`;
  const amount = bonus.type === 'referral' ? (bonus.referralBonusAmount ?? bonus.amount) : bonus.type === 'joining' ? (bonus.joiningAmount ?? bonus.amount) : bonus.amount;
  return amount === null ? '' : money(amount, bonus.currencyCode, language);
}

/** The offer's terms, one line each: the deposit offer (SPEC §9), its cap, the wagering and how long. */
function terms(bonus: Bonus, t: T, language: Language): string[] {
  const lines: string[] = [];
  if (bonus.type === 'deposit' && bonus.percentage !== null && bonus.minDeposit !== null) {
    lines.push(t('bonus.depositOffer', { percentage: formatAmount(bonus.percentage, '', language), amount: formatAmount(bonus.minDeposit, '', language), currency: bonus.currencyCode }));
    if (bonus.amount !== null) lines.push(t('bonus.upTo', { amount: money(bonus.amount, bonus.currencyCode, language) }));
  }
  // A referral reward is paid per friend, with nothing to wager and no time to do it in.
  if (bonus.type === 'referral') return lines;
  if (bonus.wageringMultiplier > 0) lines.push(t('bonus.wagering', { multiplier: bonus.wageringMultiplier }));
  lines.push(bonus.validDays === 1 ? t('bonus.validOneDay') : t('bonus.validDays', { count: bonus.validDays }));
  if (bonus.validTill !== null) lines.push(t('bonus.validTill', { date: formatDate(bonus.validTill, language, 'datetime') }));
  return lines;
}

function OfferCard({ bonus, running }: { bonus: Bonus; running: UserBonus | null }) {
  const { t, language } = useT();
  const address = useAddress();
  return (
    <Card aria-label={bonus.name}>
      <Head>
        <span>{t(`bonus.types.${bonus.type}`)}</span>
        {running ? <Badge data-status={running.status}>{t('bonus.claimedBadge', { status: t(`bonus.statuses.${running.status}`) })}</Badge> : null}
      </Head>
      <h3>{bonus.name}</h3>
      <Headline>{headline(bonus, language)}</Headline>
      {terms(bonus, t, language).map((line) => (
        <Muted key={line}>{line}</Muted>
      ))}
      <Actions>
        {bonus.type === 'referral' ? (
          <Link href="/refer-a-friend" data-primary="">
            {t('bonus.referralLink')}
          </Link>
        ) : running ? null : (
          <Link href={address({ bonus: String(bonus.id) })} data-primary="" aria-label={`${t('bonus.claim')}: ${bonus.name}`}>
            {t('bonus.claim')}
          </Link>
        )}
        <Link href={address({ bonus: String(bonus.id) })} aria-label={`${t('bonus.details')}: ${bonus.name}`}>
          {t('bonus.details')}
        </Link>
      </Actions>
    </Card>
  );
}

/** The wagering as a bar (a progressbar with its figures) and in words. */
export function Wagering({ bonus }: { bonus: UserBonus }) {
  const { t, language } = useT();
  const percent = wageringPercent(bonus);
  const figures = t('bonus.wageringProgress', { wagered: money(bonus.wageredAmount, bonus.currencyCode, language), total: money(bonus.amountToWager, bonus.currencyCode, language) });
  return (
    <>
      <Bar role="progressbar" aria-label={t('bonus.progress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={figures}>
        <span style={{ width: `${percent}%` }} />
      </Bar>
      <Muted>{figures}</Muted>
    </>
  );
}

function MyBonusCard({ bonus }: { bonus: UserBonus }) {
  const { t, language } = useT();
  const address = useAddress();
  return (
    <Card aria-label={bonus.bonus.name}>
      <Head>
        <span>{t(`bonus.types.${bonus.bonus.type}`)}</span>
        <Badge data-status={bonus.status}>{t(`bonus.statuses.${bonus.status}`)}</Badge>
      </Head>
      <h3>{bonus.bonus.name}</h3>
      {/* Nothing credited yet (a queued bonus, a deposit bonus before its deposit): what the offer gives. */}
      <Headline>{parseAmount(bonus.amount) > 0n ? money(bonus.amount, bonus.currencyCode, language) : headline(bonus.bonus, language)}</Headline>
      {bonus.status === 'queued' ? <Muted>{t('bonus.notStarted')}</Muted> : <Wagering bonus={bonus} />}
      <Facts>
        <dt>{t('bonus.claimedAt')}</dt>
        <dd>{formatDate(bonus.claimedAt, language, 'datetime')}</dd>
        {bonus.expireAt === null ? null : (
          <>
            <dt>{t('bonus.expireAt')}</dt>
            <dd>{formatDate(bonus.expireAt, language, 'datetime')}</dd>
          </>
        )}
      </Facts>
      <Actions>
        {canForfeit(bonus) ? (
          <Link href={address({ forfeit: String(bonus.id) })} aria-label={`${t('bonus.forfeit')}: ${bonus.bonus.name}`}>
            {t('bonus.forfeit')}
          </Link>
        ) : null}
        <Link href={address({ bonus: String(bonus.bonusId) })} aria-label={`${t('bonus.details')}: ${bonus.bonus.name}`}>
          {t('bonus.details')}
        </Link>
      </Actions>
    </Card>
  );
}

const EMPTY_KEYS = {
  all: 'bonus.emptyMine',
  active: 'bonus.emptyActive',
  queued: 'bonus.emptyQueued',
  completed: 'bonus.emptyCompleted',
  forfeited: 'bonus.emptyForfeited',
} as const satisfies Record<BonusTab, string>;

/** A tab without bonuses says so and what to do next: claim one (All), or play the active one's wagering. */
function Empty({ tab, hasOffers }: { tab: BonusTab; hasOffers: boolean }) {
  const { t } = useT();
  const next: ReactNode =
    tab === 'completed' ? (
      <SpacedLink href="/casino">{t('bonus.browseGames')}</SpacedLink>
    ) : tab !== 'all' && hasOffers ? (
      <SpacedLink href="/bonus">{t('bonus.seeOffers')}</SpacedLink>
    ) : null;
  return (
    <EmptyState>
      <p>{t(EMPTY_KEYS[tab])}</p>
      {next}
    </EmptyState>
  );
}

export function Bonuses() {
  const { t } = useT();
  const search = useSearch();
  const params = new URLSearchParams(search);
  const tab = bonusTab(params.get('tab'));
  const actor = useFlow(bonusesMachine, { tab });
  const state = useSelector(actor, (s) => s.value as string);
  const offers = useSelector(actor, (s) => s.context.offers);
  const mine = useSelector(actor, (s) => s.context.mine);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  // The address changed (a tab picked, a dialog closed after a claim or a forfeit): the lists are read again.
  const shown = useRef(search);
  useEffect(() => {
    if (shown.current === search) return;
    shown.current = search;
    actor.send({ type: 'SHOW', tab });
  }, [actor, search, tab]);

  const offerId = Number(params.get('bonus'));
  const forfeitId = Number(params.get('forfeit'));
  const forfeiting = mine.find((bonus) => bonus.id === forfeitId && canForfeit(bonus)) ?? null;
  const listed = mine.filter((bonus) => inTab(bonus, tab));
  const loading = state === 'loadingOffers' || state === 'loadingMine';

  return (
    <>
      <Tabs aria-label={t('bonus.title')}>
        {BONUS_TABS.map((name) => (
          <Link key={name} href={name === 'all' ? '/bonus' : `/bonus?tab=${name}`} aria-current={tab === name ? 'page' : undefined}>
            {t(`bonus.tabs.${name}`)}
          </Link>
        ))}
      </Tabs>
      {state === 'failed' ? (
        <Stack>
          <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
        </Stack>
      ) : loading ? (
        <EmptyState>{t('states.loading')}</EmptyState>
      ) : (
        <>
          {tab === 'all' ? (
            <Section aria-labelledby="bonus-offers">
              <h2 id="bonus-offers">{t('bonus.available')}</h2>
              {offers.length === 0 ? (
                <EmptyState>{t('bonus.emptyAvailable')}</EmptyState>
              ) : (
                <Grid>
                  {offers.map((offer) => (
                    <OfferCard key={offer.id} bonus={offer} running={claimOf(offer, mine, new Date())} />
                  ))}
                </Grid>
              )}
            </Section>
          ) : null}
          <Section aria-labelledby="bonus-mine" aria-busy={state === 'refreshing'}>
            <h2 id="bonus-mine">{tab === 'all' ? t('bonus.myBonuses') : t(`bonus.tabs.${tab}`)}</h2>
            {state === 'mineFailed' ? (
              <Stack>
                <p>{t('bonus.mineFailed')}</p>
                <Row>
                  <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
                </Row>
              </Stack>
            ) : listed.length === 0 ? (
              <Empty tab={tab} hasOffers={offers.length > 0} />
            ) : (
              <Grid>
                {listed.map((bonus) => (
                  <MyBonusCard key={bonus.id} bonus={bonus} />
                ))}
              </Grid>
            )}
          </Section>
        </>
      )}
      {/* The dialogs go beside the page's shell, which they make inert while open. */}
      {offerId > 0 ? createPortal(<ClaimDialog key={offerId} bonusId={offerId} claims={mine.filter((bonus) => bonus.bonusId === offerId)} />, document.body) : null}
      {forfeiting ? createPortal(<ForfeitDialog key={forfeiting.id} bonus={forfeiting} />, document.body) : null}
    </>
  );
}

/** The offer's terms as label and value pairs, for its dialog. */
function OfferFacts({ bonus }: { bonus: Bonus }) {
  const { t, language } = useT();
  return (
    <Stack>
      <Headline>{headline(bonus, language)}</Headline>
      {bonus.description ? <p>{bonus.description}</p> : null}
      {terms(bonus, t, language).map((line) => (
        <Muted key={line}>{line}</Muted>
      ))}
    </Stack>
  );
}

/**
 * An offer's dialog: its details, then the claim in a wallet of its currency; an offer the player already
 * claimed (`claims`: theirs of this offer) says so instead, as the server would refuse it.
 */
export function ClaimDialog({ bonusId, claims = [] }: { bonusId: number; claims?: readonly UserBonus[] }) {
  const { t, language } = useT();
  const { navigate } = useWiring();
  const address = useAddress();
  const actor = useFlow(bonusClaimMachine, { bonusId });
  const state = useSelector(actor, (s) => s.value as string);
  const bonus = useSelector(actor, (s) => s.context.bonus);
  const wallets = useSelector(actor, (s) => s.context.wallets);
  const walletId = useSelector(actor, (s) => s.context.walletId);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const keyRefused = useSelector(actor, (s) => s.context.keyRefused);
  const close = () => navigate(address({ bonus: '' }));
  const busy = state === 'keying' || state === 'claiming' || state === 'reloading' || state === 'done';

  let body: ReactNode;
  if (state === 'loading') body = <Muted role="status" aria-busy="true">{t('states.loading')}</Muted>;
  else if (state === 'failed') body = <Stack><Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} /></Stack>;
  else if (state === 'referral') {
    body = (
      <>
        <p>{t('bonus.referralHint')}</p>
        <Actions>
          <Link href="/refer-a-friend" data-primary="">
            {t('bonus.referralLink')}
          </Link>
        </Actions>
      </>
    );
  } else if (state === 'loadingWallets') body = <Muted role="status" aria-busy="true">{t('states.loading')}</Muted>;
  else if (state === 'noWallet') {
    body = (
      <>
        <p role="status">{t('bonus.noWallet', { currency: bonus?.currencyCode ?? '' })}</p>
        <Actions>
          <Link href={address({ bonus: '', wallet: 'open', tab: 'deposit' })} data-primary="">
            {t('bonus.deposit')}
          </Link>
        </Actions>
      </>
    );
  } else if (state === 'ready' && bonus && claimOf(bonus, claims, new Date())) {
    const claimed = claimOf(bonus, claims, new Date())!;
    body = (
      <p role="status">
        <Badge data-status={claimed.status}>{t('bonus.claimedBadge', { status: t(`bonus.statuses.${claimed.status}`) })}</Badge>
      </p>
    );
  } else {
    const wallet = claimWallet({ wallets, walletId });
    body = (
      <>
        <SelectField
          label={t('bonus.claimIn')}
          value={String(walletId ?? '')}
          disabled={state !== 'ready'}
          onChange={(event) => actor.send({ type: 'WALLET', walletId: Number(event.target.value) })}
        >
          {wallets.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {t('bonus.walletOption', { currency: candidate.currencyCode, amount: money(candidate.available, candidate.currencyCode, language) })}
            </option>
          ))}
        </SelectField>
        {state === 'unanswered' ? <FormError role="alert">{t('bonus.unanswered')}</FormError> : null}
        {state === 'ready' && keyRefused ? <FormError role="alert">{t('bonus.keyRefused')}</FormError> : null}
        <Row>
          {state === 'unanswered' ? (
            <>
              <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
                {t('bonus.sendAgain')}
              </Button>
              <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'BACK' })}>
                {t('common.back')}
              </Button>
            </>
          ) : (
            <Button type="button" disabled={busy || wallet === null} aria-busy={busy} onClick={() => actor.send({ type: 'CLAIM' })}>
              {busy ? t('bonus.claiming') : t('bonus.claim')}
            </Button>
          )}
        </Row>
      </>
    );
  }
  return (
    <Dialog title={bonus?.name ?? t('bonus.details')} closeLabel={t('common.close')} onClose={close}>
      <Stack>
        {bonus ? <OfferFacts bonus={bonus} /> : null}
        {body}
      </Stack>
    </Dialog>
  );
}

/** The forfeit's confirmation: what is lost, then Forfeit or Keep. */
export function ForfeitDialog({ bonus }: { bonus: UserBonus }) {
  const { t, language } = useT();
  const actor = useFlow(bonusForfeitMachine, { bonus });
  const state = useSelector(actor, (s) => s.value as string);
  const busy = state !== 'confirming';
  const loses =
    bonus.status === 'active'
      ? t('bonus.forfeitLosesActive', {
          amount: money(bonus.amount, bonus.currencyCode, language),
          wagered: money(bonus.wageredAmount, bonus.currencyCode, language),
          total: money(bonus.amountToWager, bonus.currencyCode, language),
        })
      : t('bonus.forfeitLosesQueued');
  return (
    <Dialog title={t('bonus.forfeitTitle')} closeLabel={t('common.close')} onClose={() => actor.send({ type: 'CANCEL' })}>
      <Stack>
        <p>
          <strong>{bonus.bonus.name}</strong> · {t(`bonus.statuses.${bonus.status}`)}
        </p>
        <p>{loses}</p>
        <Row>
          <Button type="button" disabled={busy} aria-busy={state === 'forfeiting'} onClick={() => actor.send({ type: 'CONFIRM' })}>
            {state === 'forfeiting' ? t('bonus.forfeiting') : t('bonus.forfeitConfirmButton')}
          </Button>
          <Button type="button" variant="secondary" disabled={busy} onClick={() => actor.send({ type: 'CANCEL' })}>
            {t('bonus.forfeitKeep')}
          </Button>
        </Row>
      </Stack>
    </Dialog>
  );
}

export default function BonusScreen() {
  const { t } = useT();
  return (
    <PlayerOnly title={t('bonus.title')}>
      <Screen title={t('bonus.title')}>
        <Bonuses />
      </Screen>
    </PlayerOnly>
  );
}
