// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatAmount } from '../../src/format.ts';
import { bonusClaimFixtures } from '../../src/flows/fixtures/bonus.ts';
import type { bonusClaimMachine, BonusClaimContext, ClaimRequest } from '../../src/machines/bonusClaim.machine.ts';
import type { UserBonus } from '../../src/machines/bonuses.machine.ts';
import type { Notice, User } from '../../src/machines/effects.ts';
import { toFailure } from '../../src/machines/failure.ts';
import { ClaimDialog } from '../../src/views/screens/BonusScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, outputOf, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ClaimView = View<typeof bonusClaimMachine>;
type ClaimSnapshot = SnapshotFrom<typeof bonusClaimMachine>;

/*
 * An offer's dialog: the offer's terms, then the claim in a wallet of its currency (a player without one
 * is told so and offered a deposit; a referral offer leads to the refer-a-friend page). The claim is sent
 * with the key its confirmation made (the same key when sent again after no answer); a refusal is a toast
 * with its SPEC §8 message or "Something went wrong."; success reads the player's details again for the
 * app, shows "Bonus Claimed." and leads to /bonus.
 */

const sent = new WeakMap<ClaimView, ClaimRequest[]>();
const keysAsked = new WeakMap<ClaimView, number>();

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The key the latest claim made (the output of the path's last newIdempotencyKey). */
function latestKey(view: ClaimView): unknown {
  const made = view.steps.filter((step) => step.kind.kind === 'done' && step.kind.src === 'newIdempotencyKey').at(-1);
  return (made?.event as { output?: unknown } | undefined)?.output;
}

/** The toasts so far: one per refusal of the claim (not for no answer), and the success. */
function expectedNotices(view: ClaimView): Notice[] {
  return view.steps.flatMap((step): Notice[] => {
    if (step.kind.kind !== 'error' || step.kind.src !== 'claimBonus') return [];
    const failure = toFailure((step.event as EventObject & { error: unknown }).error);
    return failure.status === 0 ? [] : [{ tone: 'error', code: failure.code, fallback: 'bonus' }];
  });
}

/** In every state: a key for each claim and only then, a request each time the flow entered `claiming`, the toasts. */
function seeEffects(view: ClaimView) {
  expect(keysAsked.get(view) ?? 0).toBe(view.steps.filter((step) => step.event.type === 'CLAIM').length);
  const sendings = view.steps.filter((step, index) => step.state.matches('claiming') && !view.steps[index - 1]?.state.matches('claiming'));
  expect(sent.get(view)!.length).toBe(sendings.length);
}

function seeDialog(view: ClaimView, context: BonusClaimContext): HTMLElement {
  const dialog = screen.getByRole('dialog', { name: context.bonus?.name ?? view.t('bonus.details') });
  if (context.bonus) {
    expect(dialog.textContent).toContain(context.bonus.description);
    if (context.bonus.type !== 'referral') expect(dialog.textContent).toContain(view.t('bonus.validDays', { count: context.bonus.validDays }));
  }
  return dialog;
}

function seeClaim(view: ClaimView, snapshot: ClaimSnapshot, mode: 'ready' | 'busy' | 'unanswered') {
  seeEffects(view);
  const { context } = snapshot;
  seeDialog(view, context);
  const select = screen.getByLabelText(view.t('bonus.claimIn')) as HTMLSelectElement;
  expect(select.value).toBe(String(context.walletId));
  expect([...select.options].map((option) => option.textContent)).toEqual(
    context.wallets.map((wallet) => view.t('bonus.walletOption', { currency: 'LTC', amount: formatAmount(wallet.available, 'LTC', view.language) })),
  );
  expect(select.disabled).toBe(mode !== 'ready');
  if (mode === 'unanswered') {
    expect(screen.getByRole('alert').textContent).toBe(view.t('bonus.unanswered'));
    expect(buttonNamed(view.t('bonus.sendAgain'))).not.toBeNull();
    expect(buttonNamed(view.t('common.back'))).not.toBeNull();
  } else {
    const claim = buttonNamed(mode === 'busy' ? view.t('bonus.claiming') : view.t('bonus.claim'))!;
    expect(claim.disabled).toBe(mode === 'busy');
    if (mode === 'ready' && context.keyRefused) expect(screen.getByRole('alert').textContent).toBe(view.t('bonus.keyRefused'));
    else expect(screen.queryByRole('alert')).toBeNull();
  }
  expect(view.harness.notices).toEqual(expectedNotices(view));
  expect(view.harness.navigations).toEqual([]);
}

function seeLoading(view: ClaimView, snapshot: ClaimSnapshot) {
  seeEffects(view);
  seeDialog(view, snapshot.context);
  expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true');
  expect(buttonNamed(view.t('bonus.claim'))).toBeNull();
}

describeModel('bonusClaim', {
  fixtures: bonusClaimFixtures,
  // The wallet is picked when there is a choice, and only another one than the one picked.
  filterEvents: (snapshot, event) => {
    if (event.type !== 'WALLET') return true;
    const context = snapshot.context as BonusClaimContext;
    return context.wallets.length > 1 && context.walletId !== (event as EventObject & { walletId: number }).walletId;
  },
  render: (view) => {
    const requests: ClaimRequest[] = [];
    sent.set(view, requests);
    const claimBonus = fromPromise<UserBonus, ClaimRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('claimBonus', input, signal);
    });
    return renderWithServices(<ClaimDialog bonusId={view.input.bonusId} />, {
      actors: { ...view.actors, claimBonus },
      address: `/bonus?bonus=${view.input.bonusId}`,
      newIdempotencyKey: () => {
        keysAsked.set(view, (keysAsked.get(view) ?? 0) + 1);
        return view.call('newIdempotencyKey');
      },
    });
  },
  events: {
    WALLET: (view, event) => view.user.selectOptions(screen.getByLabelText(view.t('bonus.claimIn')), String(event.walletId)),
    CLAIM: (view) => view.user.click(buttonNamed(view.t('bonus.claim'))!),
    RETRY: (view) => view.user.click((buttonNamed(view.t('common.retry')) ?? buttonNamed(view.t('bonus.sendAgain')))!),
    BACK: (view) => view.user.click(buttonNamed(view.t('common.back'))!),
  },
  states: {
    loading: seeLoading,
    loadingWallets: seeLoading,
    failed: (view, snapshot) => {
      seeDialog(view, snapshot.context);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
    },
    referral: (view, snapshot) => {
      seeDialog(view, snapshot.context);
      expect(screen.getByText(view.t('bonus.referralHint'))).toBeTruthy();
      expect(screen.getByRole('link', { name: view.t('bonus.referralLink') }).getAttribute('href')).toBe('/refer-a-friend');
      expect(buttonNamed(view.t('bonus.claim'))).toBeNull();
    },
    noWallet: (view, snapshot) => {
      seeDialog(view, snapshot.context);
      expect(screen.getByRole('status').textContent).toBe(view.t('bonus.noWallet', { currency: 'LTC' }));
      expect(screen.getByRole('link', { name: view.t('bonus.deposit') }).getAttribute('href')).toBe('/bonus?wallet=open&tab=deposit');
      expect(buttonNamed(view.t('bonus.claim'))).toBeNull();
    },
    ready: (view, snapshot) => seeClaim(view, snapshot, 'ready'),
    keying: (view, snapshot) => seeClaim(view, snapshot, 'busy'),
    claiming: (view, snapshot) => {
      seeClaim(view, snapshot, 'busy');
      const requests = sent.get(view)!;
      const { context } = snapshot;
      // The claim sent is the one made, in the wallet picked, with its key (the same one when sent again).
      expect(requests.at(-1)).toEqual({
        bonusId: context.bonusId,
        currencyId: context.wallets.find((wallet) => wallet.id === context.walletId)!.currencyId,
        idempotencyKey: latestKey(view),
      });
    },
    unanswered: (view, snapshot) => seeClaim(view, snapshot, 'unanswered'),
    reloading: (view, snapshot) => {
      seeEffects(view);
      seeDialog(view, snapshot.context);
      expect(buttonNamed(view.t('bonus.claiming'))!.disabled).toBe(true);
      expect(view.harness.navigations).toEqual([]);
    },
    done: (view) => {
      seeEffects(view);
      // The app has the player as just read (when the read answered), a toast says so, and the player is on /bonus.
      const profile = view.steps.find((step) => step.kind.kind === 'done' && step.kind.src === 'fetchProfile');
      expect(view.harness.appEvents.filter((event) => event.type === 'USER.UPDATED')).toEqual(
        profile ? [{ type: 'USER.UPDATED', user: outputOf<User>(profile) }] : [],
      );
      expect(view.harness.notices).toEqual([...expectedNotices(view), { tone: 'success', message: 'messages.bonusClaimed' }]);
      expect(view.harness.navigations).toEqual(['/bonus']);
    },
  },
});
