// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { expect, vi } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatDate } from '../../src/format.ts';
import { bonusesFixtures } from '../../src/flows/fixtures/bonus.ts';
import { BONUS_TABS, canForfeit, inTab, claimOf, wageringPercent, type BonusTab, type bonusesMachine } from '../../src/machines/bonuses.machine.ts';
import { Bonuses } from '../../src/views/screens/BonusScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type BonusesView = View<typeof bonusesMachine>;
type BonusesSnapshot = SnapshotFrom<typeof bonusesMachine>;
type BonusesContext = BonusesSnapshot['context'];

/*
 * The bonus screen's lists: the tabs in the address (the one shown marked as the page), All with the
 * offers to claim and then the player's bonuses, each other tab with the player's bonuses in its status
 * (expired ones under Forfeited), each with its wagering as a progressbar and in figures; empty tabs
 * saying so; a failure of the offers or of the player's bonuses with Retry; a 401 on the player's
 * bonuses ignored. Picking a tab, a balance moving and a stream back from a drop read the player's
 * bonuses again, the lists staying on screen.
 */

const EMPTY_KEYS = {
  all: 'bonus.emptyMine',
  active: 'bonus.emptyActive',
  queued: 'bonus.emptyQueued',
  completed: 'bonus.emptyCompleted',
  forfeited: 'bonus.emptyForfeited',
} as const;

function seeTabs(view: BonusesView, tab: BonusTab) {
  const nav = screen.getByRole('navigation', { name: view.t('bonus.title') });
  const links = within(nav).getAllByRole('link');
  expect(links.map((link) => link.textContent)).toEqual(BONUS_TABS.map((name) => view.t(`bonus.tabs.${name}`)));
  expect(links.map((link) => link.getAttribute('aria-current'))).toEqual(BONUS_TABS.map((name) => (name === tab ? 'page' : null)));
}

function seeLoading(view: BonusesView, snapshot: BonusesSnapshot) {
  seeTabs(view, snapshot.context.tab);
  expect(screen.getByRole('status').textContent).toBe(view.t('states.loading'));
  expect(screen.queryByRole('listitem')).toBeNull();
}

function seeOffers(view: BonusesView, context: BonusesContext) {
  const region = screen.queryByRole('region', { name: view.t('bonus.available') });
  if (context.tab !== 'all') {
    expect(region).toBeNull();
    return;
  }
  expect(region).not.toBeNull();
  const cards = within(region!).queryAllByRole('listitem');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(context.offers.map((offer) => offer.name));
  if (context.offers.length === 0) expect(within(region!).getByRole('status').textContent).toBe(view.t('bonus.emptyAvailable'));
  context.offers.forEach((offer, index) => {
    const card = cards[index]!;
    const running = claimOf(offer, context.mine, new Date());
    expect(card.textContent).toContain(view.t(`bonus.types.${offer.type}`));
    // A referral reward has no wagering and no time to do it in; a day is one day.
    if (offer.type === 'referral') expect(card.textContent).not.toContain(view.t('bonus.validOneDay'));
    else expect(card.textContent).toContain(offer.validDays === 1 ? view.t('bonus.validOneDay') : view.t('bonus.validDays', { count: offer.validDays }));
    if (offer.type === 'deposit') {
      expect(card.textContent).toContain(view.t('bonus.depositOffer', { percentage: offer.percentage!, amount: formatAmount(offer.minDeposit!, '', view.language), currency: 'LTC' }));
    }
    const claim = within(card).queryByRole('link', { name: `${view.t('bonus.claim')}: ${offer.name}` });
    // A referral offer is claimed on the refer-a-friend page; an offer the player claimed (a daily one today) is not claimed again.
    expect(claim !== null).toBe(offer.type !== 'referral' && running === null);
    if (claim) expect(claim.getAttribute('href')).toBe(`/bonus?bonus=${offer.id}`);
    expect(within(card).queryByRole('link', { name: view.t('bonus.referralLink') }) !== null).toBe(offer.type === 'referral');
    if (running) expect(card.textContent).toContain(view.t('bonus.claimedBadge', { status: view.t(`bonus.statuses.${running.status}`) }));
  });
}

function seeMine(view: BonusesView, context: BonusesContext, mode: 'shown' | 'refreshing' | 'failed') {
  const name = context.tab === 'all' ? view.t('bonus.myBonuses') : view.t(`bonus.tabs.${context.tab}`);
  const region = screen.getByRole('region', { name });
  expect(region.getAttribute('aria-busy')).toBe(String(mode === 'refreshing'));
  if (mode === 'failed') {
    expect(region.textContent).toContain(view.t('bonus.mineFailed'));
    expect(within(region).getByRole('alert').textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
    expect(within(region).getByRole('button', { name: view.t('common.retry') })).toBeTruthy();
    return;
  }
  const listed = context.mine.filter((bonus) => inTab(bonus, context.tab));
  const cards = within(region).queryAllByRole('listitem');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(listed.map((bonus) => bonus.bonus.name));
  if (listed.length === 0) expect(within(region).getByRole('status').textContent).toContain(view.t(EMPTY_KEYS[context.tab]));
  const money = (amount: string) => formatAmount(amount, 'LTC', view.language);
  listed.forEach((bonus, index) => {
    const card = cards[index]!;
    const figures = view.t('bonus.wageringProgress', { wagered: money(bonus.wageredAmount), total: money(bonus.amountToWager) });
    const bar = within(card).queryByRole('progressbar', { name: view.t('bonus.progress') });
    if (bonus.status === 'queued') {
      // Not started: no wagering yet, and when it starts is said instead.
      expect(bar).toBeNull();
      expect(card.textContent).toContain(view.t('bonus.notStarted'));
    } else {
      expect([bar!.getAttribute('aria-valuenow'), bar!.getAttribute('aria-valuemin'), bar!.getAttribute('aria-valuemax'), bar!.getAttribute('aria-valuetext')]).toEqual([
        String(wageringPercent(bonus)),
        '0',
        '100',
        figures,
      ]);
      expect(card.textContent).toContain(figures);
    }
    // The money credited, or before any is credited what the offer gives.
    expect(card.textContent).toContain(bonus.amount === '0' ? money(bonus.bonus.amount!) : money(bonus.amount));
    expect(card.textContent).toContain(view.t(`bonus.statuses.${bonus.status}`));
    expect(card.textContent).toContain(formatDate(bonus.claimedAt, view.language, 'datetime'));
    expect(card.textContent!.includes(view.t('bonus.expireAt'))).toBe(bonus.expireAt !== null);
    if (bonus.expireAt !== null) expect(card.textContent).toContain(formatDate(bonus.expireAt, view.language, 'datetime'));
    const forfeit = within(card).queryByRole('link', { name: `${view.t('bonus.forfeit')}: ${bonus.bonus.name}` });
    expect(forfeit !== null).toBe(canForfeit(bonus));
    if (forfeit) expect(forfeit.getAttribute('href')).toContain(`forfeit=${bonus.id}`);
  });
}

function seeLists(view: BonusesView, snapshot: BonusesSnapshot, mode: 'shown' | 'refreshing' | 'failed') {
  seeTabs(view, snapshot.context.tab);
  seeOffers(view, snapshot.context);
  seeMine(view, snapshot.context, mode);
}

const TAB_PATHS: Record<BonusTab, string> = { all: '/bonus', active: '/bonus?tab=active', queued: '/bonus?tab=queued', completed: '/bonus?tab=completed', forfeited: '/bonus?tab=forfeited' };

describeModel('bonuses', {
  fixtures: bonusesFixtures,
  // A tab link leads somewhere else only when it is not the tab shown.
  filterEvents: (snapshot, event) =>
    event.type !== 'SHOW' || (event as EventObject & { tab: BonusTab }).tab !== (snapshot.context as BonusesContext).tab,
  render: (view) => {
    const memory = memoryLocation({ path: TAB_PATHS[view.input.tab] });
    return renderWithServices(
      <Router hook={memory.hook} searchHook={memory.searchHook}>
        <Bonuses />
      </Router>,
      { actors: view.actors, live: view.live, address: TAB_PATHS[view.input.tab], navigate: (to, options) => memory.navigate(to, options) },
    );
  },
  events: {
    SHOW: (view, event) => view.user.click(within(screen.getByRole('navigation', { name: view.t('bonus.title') })).getByRole('link', { name: view.t(`bonus.tabs.${event.tab}`) })),
    RETRY: (view) => view.user.click(screen.getByRole('button', { name: view.t('common.retry') })),
    'LIVE.WALLETS': (view, event) => view.live.send(event),
    'LIVE.RECONNECTED': (view, event) => view.live.send(event),
  },
  states: {
    loadingOffers: seeLoading,
    loadingMine: seeLoading,
    failed: (view, snapshot) => {
      seeTabs(view, snapshot.context.tab);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(screen.getByRole('button', { name: view.t('common.retry') })).toBeTruthy();
      expect(screen.queryByRole('listitem')).toBeNull();
    },
    mineFailed: (view, snapshot) => seeLists(view, snapshot, 'failed'),
    ready: (view, snapshot) => seeLists(view, snapshot, 'shown'),
    refreshing: (view, snapshot) => seeLists(view, snapshot, 'refreshing'),
  },
});
