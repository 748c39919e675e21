// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatNumber } from '../../src/format.ts';
import { referralFixtures } from '../../src/flows/fixtures/referral.ts';
import type { Notice } from '../../src/machines/effects.ts';
import {
  claimableAmount,
  claimBlocker,
  claimWallet,
  referralLink,
  type ReferralClaim,
  type ReferralClaimRequest,
  type referralMachine,
} from '../../src/machines/referral.machine.ts';
import { ReferralPanel } from '../../src/views/screens/ReferralScreen.tsx';
import { DEFAULT_SETTINGS } from '../unit/machines/fixtures.ts';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ReferralView = View<typeof referralMachine>;
type ReferralSnapshot = SnapshotFrom<typeof referralMachine>;

/*
 * Refer a friend: the code and the link with Copy (and its confirmation, or the message when the
 * clipboard refuses) and Share where the browser shares; the reward and the limit of the settings; the
 * friends pending and qualified apart, with what qualifies a friend, paid for and claimable; the claim into the chosen wallet with the claim's
 * Idempotency-Key (the same key when sent again after no answer), the toast and /bonus on success, the
 * SPEC §8 message on a refusal, and why the claim is disabled when there is nothing to claim.
 */

/** What each path's view sent: claims, texts copied, links shared. */
const claims = new WeakMap<ReferralView, ReferralClaimRequest[]>();
const copies = new WeakMap<ReferralView, string[]>();
const shares = new WeakMap<ReferralView, string[]>();
const keysAsked = new WeakMap<ReferralView, number>();

const { referralReward: REWARD, referralLimit: LIMIT } = DEFAULT_SETTINGS;

/** The key the latest claim made (the output of the path's last newIdempotencyKey). */
function latestKey(view: ReferralView): unknown {
  const made = view.steps.filter((step) => step.kind.kind === 'done' && step.kind.src === 'newIdempotencyKey').at(-1);
  return (made?.event as { output?: unknown } | undefined)?.output;
}

function entries(view: ReferralView, state: string): number {
  return view.steps.filter((step, index) => step.state.matches(state) && !view.steps[index - 1]?.state.matches(state)).length;
}

/**
 * In every state: a key was made for each claim and only then, a claim was sent each time the flow
 * entered `claiming`, the clipboard and the share sheet were asked once per copy and share, and the
 * toast and the way to /bonus came with the credited claim only.
 */
function seeEffects(view: ReferralView, snapshot: ReferralSnapshot) {
  expect(keysAsked.get(view) ?? 0).toBe(view.steps.filter((step) => step.event.type === 'CLAIM' && step.state.matches('keying')).length);
  expect(claims.get(view)!.length).toBe(entries(view, 'claiming'));
  expect(copies.get(view)!.length).toBe(entries(view, 'copying'));
  expect(shares.get(view)!.length).toBe(entries(view, 'sharing'));
  const claimed = snapshot.matches('claimed');
  expect(view.harness.notices).toEqual(claimed ? [{ tone: 'success', message: 'messages.referralClaimed' } satisfies Notice] : []);
  expect(view.harness.navigations).toEqual(claimed ? ['/bonus'] : []);
}

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The friends' figures as label → value pairs. */
function stats(view: ReferralView): [string, string][] {
  const list = screen.getByRole('heading', { name: view.t('referral.stats') }).parentElement!.querySelector('dl')!;
  const terms = [...list.querySelectorAll('dt')].map((term) => term.textContent ?? '');
  const values = [...list.querySelectorAll('dd')].map((value) => value.textContent ?? '');
  return terms.map((term, index) => [term, values[index] ?? '']);
}

type Mode = 'ready' | 'copying' | 'sharing' | 'busy' | 'unanswered';

function seePanel(view: ReferralView, snapshot: ReferralSnapshot, mode: Mode) {
  seeEffects(view, snapshot);
  const { context } = snapshot;
  const referral = context.referral!;
  const { t, language } = view;
  const wallet = claimWallet(context);
  const money = (amount: string) => formatAmount(amount, wallet?.currencyCode ?? '', language);
  const link = referralLink(context.origin, referral.referralCode);

  // The reward and the limit of the settings.
  expect(screen.getByText(t('referral.intro', { reward: money(REWARD), limit: formatNumber(LIMIT, language) }).replace(/\s+/g, ' '))).toBeTruthy();
  // The code and the link, each with its Copy; Share only where the browser shares.
  expect(screen.getByText(referral.referralCode)).toBeTruthy();
  expect(screen.getByText(link)).toBeTruthy();
  expect(buttonNamed(t('referral.copyCode'))!.getAttribute('aria-busy')).toBe(String(mode === 'copying' && context.copyTarget === 'code'));
  expect(buttonNamed(t('referral.copyLink'))!.getAttribute('aria-busy')).toBe(String(mode === 'copying' && context.copyTarget === 'link'));
  const share = buttonNamed(t('referral.share'));
  expect(share !== null).toBe(context.canShare);
  if (share) expect(share.getAttribute('aria-busy')).toBe(String(mode === 'sharing'));
  // The copy's confirmation, or why it did not work; the share that did not work.
  const news = screen.getByRole('status');
  const expected =
    context.copied === 'done'
      ? t(context.copyTarget === 'code' ? 'referral.copiedCode' : 'referral.copiedLink')
      : context.copied === 'failed'
        ? t('referral.copyFailed')
        : context.shareFailed
          ? t('referral.shareFailed')
          : '';
  expect(news.textContent).toBe(expected);
  if (mode === 'copying') expect(copies.get(view)!.at(-1)).toBe(context.copyTarget === 'code' ? referral.referralCode : link);
  if (mode === 'sharing') expect(shares.get(view)!.at(-1)).toBe(link);

  // The friends: pending and qualified apart, paid for, claimable now; and what qualifies a friend.
  expect(stats(view)).toEqual([
    [t('referral.pending'), formatNumber(referral.pendingCount, language)],
    [t('referral.qualified'), formatNumber(referral.qualifiedCount, language)],
    [t('referral.paid'), formatNumber(referral.paidCount, language)],
    [t('referral.claimable'), formatNumber(referral.claimableCount, language)],
  ]);
  expect(document.getElementById('referral-requirement')?.textContent).toBe(t(`referral.requirement.${referral.requirement}`));

  // The claim: its amount, the wallet it goes to, and why it cannot be made when it cannot.
  const amount = money(claimableAmount(REWARD, referral.claimableCount));
  const shown = screen.getByRole('heading', { name: t('bonus.types.referral') }).parentElement!.querySelector('p.amount');
  expect(shown?.textContent ?? null).toBe(referral.claimableCount > 0 && wallet !== null ? amount : null);
  const select = screen.queryByLabelText(t('referral.claimInto')) as HTMLSelectElement | null;
  expect(select !== null).toBe(context.wallets.length > 1);
  if (select) expect(select.value).toBe(String(context.currencyId));
  else if (wallet) expect(screen.getByText(t('referral.claimTo', { currency: wallet.currencyCode }))).toBeTruthy();
  const blocker = claimBlocker(context, LIMIT);
  const reason = blocker === null ? null : blocker === 'limitReached' ? t('referral.limitReached', { limit: formatNumber(LIMIT, language) }) : t(`referral.${blocker}`);
  if (reason) expect(screen.getByText(reason)).toBeTruthy();
  for (const other of ['noWallet', 'noFriendsYet', 'friendsPending', 'allPaid'] as const) if (other !== blocker) expect(screen.queryByText(t(`referral.${other}`))).toBeNull();

  const alerts = screen.queryAllByRole('alert').map((alert) => alert.textContent);
  if (mode === 'unanswered') {
    expect(alerts).toEqual([t('referral.unanswered')]);
    expect(buttonNamed(t('referral.sendAgain'))).not.toBeNull();
    expect(buttonNamed(t('referral.back'))).not.toBeNull();
    expect(buttonNamed(t('referral.claim'))).toBeNull();
    return;
  }
  const wanted = [
    ...(mode === 'ready' && context.keyRefused ? [t('referral.keyRefused')] : []),
    ...(context.errorCode ? [t(errorMessageKey(context.errorCode, 'bonus'))] : []),
  ];
  expect(alerts).toEqual(wanted);
  const claim = buttonNamed(mode === 'busy' ? t('referral.claiming') : t('referral.claim'))!;
  expect(claim.disabled).toBe(mode === 'busy' || blocker !== null);
  expect(claim.getAttribute('aria-busy')).toBe(String(mode === 'busy'));
  if (blocker) expect(document.getElementById(claim.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
}

describeModel('referral', {
  fixtures: referralFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as ReferralSnapshot['context'];
    // Share is there only where the browser shares; the select changes to another wallet.
    if (event.type === 'SHARE') return context.canShare;
    if (event.type === 'CURRENCY') return 'currencyId' in event && context.currencyId !== event.currencyId;
    // Copying and sharing are the same whatever the friends: tried with friends to claim for.
    if (event.type === 'COPY') return (context.referral?.claimableCount ?? 0) > 0;
    return true;
  },
  render: (view) => {
    const sent: ReferralClaimRequest[] = [];
    const copied: string[] = [];
    const shared: string[] = [];
    claims.set(view, sent);
    copies.set(view, copied);
    shares.set(view, shared);
    const claimReferral = fromPromise<ReferralClaim, ReferralClaimRequest>(({ input, signal }) => {
      sent.push(input);
      return view.call('claimReferral', input, signal);
    });
    return renderWithServices(<ReferralPanel origin={view.input.origin} canShare={view.input.canShare} />, {
      actors: { ...view.actors, claimReferral },
      copyText: (text) => {
        copied.push(text);
        return view.call('copyText', { text });
      },
      share: (data) => {
        shared.push(data.url);
        return view.call('shareLink', data);
      },
      newIdempotencyKey: () => {
        keysAsked.set(view, (keysAsked.get(view) ?? 0) + 1);
        return view.call('newIdempotencyKey');
      },
    });
  },
  events: {
    COPY: (view, event) => view.user.click(buttonNamed(view.t(event.target === 'code' ? 'referral.copyCode' : 'referral.copyLink'))!),
    SHARE: (view) => view.user.click(buttonNamed(view.t('referral.share'))!),
    CURRENCY: (view, event) => view.user.selectOptions(screen.getByLabelText(view.t('referral.claimInto')), String(event.currencyId)),
    CLAIM: (view) => view.user.click(buttonNamed(view.t('referral.claim'))!),
    RETRY: (view) => view.user.click((buttonNamed(view.t('common.retry')) ?? buttonNamed(view.t('referral.sendAgain')))!),
    BACK: (view) => view.user.click(buttonNamed(view.t('referral.back'))!),
  },
  states: {
    loading: (view, snapshot) => {
      seeEffects(view, snapshot);
      expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true');
    },
    loadingWallets: (view, snapshot) => {
      seeEffects(view, snapshot);
      expect(screen.getByRole('status').textContent).toBe(view.t('states.loading'));
    },
    failed: (view, snapshot) => {
      seeEffects(view, snapshot);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
      expect(buttonNamed(view.t('referral.claim'))).toBeNull();
    },
    ready: (view, snapshot) => seePanel(view, snapshot, 'ready'),
    copying: (view, snapshot) => seePanel(view, snapshot, 'copying'),
    sharing: (view, snapshot) => seePanel(view, snapshot, 'sharing'),
    keying: (view, snapshot) => seePanel(view, snapshot, 'busy'),
    claiming: (view, snapshot) => {
      seePanel(view, snapshot, 'busy');
      // The claim sent is for the chosen wallet, with the key its claim made: the same key when it is
      // sent again after no answer, and no new key made for that.
      const sent = claims.get(view)!;
      expect(sent.at(-1)).toEqual({ currencyId: snapshot.context.currencyId, idempotencyKey: latestKey(view) });
      const last = view.steps.at(-1)!;
      if (last.event.type === 'RETRY') expect(sent.at(-1)!.idempotencyKey).toBe(sent.at(-2)!.idempotencyKey);
    },
    unanswered: (view, snapshot) => seePanel(view, snapshot, 'unanswered'),
    claimed: (view, snapshot) => seePanel(view, snapshot, 'busy'),
  },
});
