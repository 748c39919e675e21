// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { formatDate } from '../../src/format.ts';
import { selfExclusionFixtures } from '../../src/flows/fixtures/responsibleGambling.ts';
import type { Notice } from '../../src/machines/effects.ts';
import {
  exclusionEnd,
  exclusionRequest,
  type SelfExclusion,
  type SelfExclusionEvent,
  type selfExclusionMachine,
  type ExclusionRequest,
} from '../../src/machines/selfExclusion.machine.ts';
import { SelfExclusionPanel } from '../../src/views/screens/ResponsibleGamblingScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type SelfExclusionView = View<typeof selfExclusionMachine>;
type SelfExclusionSnapshot = SnapshotFrom<typeof selfExclusionMachine>;

/*
 * Self-exclusion: temporary (a period from the list) or permanent; the confirmation says until when (or
 * for good) and what happens (logged out, deposits and play refused, withdrawals still possible); the
 * request sent is the one confirmed; on success a toast and the app's logout; a refusal's message; a
 * player already excluded sees until when, and no form.
 */

const sent = new WeakMap<SelfExclusionView, ExclusionRequest[]>();

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** The toast and the logout come with the exclusion's start, and only then. */
function seeEffects(view: SelfExclusionView, snapshot: SelfExclusionSnapshot) {
  const done = snapshot.matches('done');
  expect(view.harness.notices).toEqual(done ? [{ tone: 'success', message: 'responsibleGambling.notices.selfExclusionStarted' } satisfies Notice] : []);
  expect(view.harness.appEvents).toEqual(done ? [{ type: 'LOGOUT' }] : []);
  const entries = view.steps.filter((step, index) => step.state.matches('submitting') && !view.steps[index - 1]?.state.matches('submitting')).length;
  expect(sent.get(view)!.length).toBe(entries);
}

function seeChoice(view: SelfExclusionView, snapshot: SelfExclusionSnapshot) {
  const { context } = snapshot;
  const temporary = screen.getByRole('radio', { name: view.t('responsibleGambling.selfExclusion.temporary') }) as HTMLInputElement;
  const permanent = screen.getByRole('radio', { name: view.t('responsibleGambling.selfExclusion.permanent') }) as HTMLInputElement;
  expect(temporary.checked).toBe(context.choice === 'temporary');
  expect(permanent.checked).toBe(context.choice === 'permanent');
  const period = screen.queryByRole('combobox', { name: view.t('responsibleGambling.selfExclusion.period') }) as HTMLSelectElement | null;
  if (context.choice === 'temporary') {
    expect(period?.value).toBe(String(context.days));
    for (const code of context.untilErrors) expect(screen.getByText(view.t(ruleMessageKey(code)!))).toBeTruthy();
  } else {
    expect(period).toBeNull();
    expect(screen.getByText(view.t('responsibleGambling.selfExclusion.permanentHint'))).toBeTruthy();
  }
  const alert = screen.queryAllByRole('alert').find((element) => element.tagName === 'P');
  if (context.failed) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'default')));
  else expect(alert).toBeUndefined();
  expect(buttonNamed(view.t('responsibleGambling.selfExclusion.submit'))).not.toBeNull();
  seeEffects(view, snapshot);
}

function seeConfirmation(view: SelfExclusionView, snapshot: SelfExclusionSnapshot, busy: boolean) {
  const { context } = snapshot;
  const region = screen.getByRole('region', { name: view.t('responsibleGambling.selfExclusion.confirmTitle') });
  expect(region.textContent).toContain(
    context.choice === 'permanent'
      ? view.t('responsibleGambling.selfExclusion.confirmPermanent')
      : view.t('responsibleGambling.selfExclusion.confirmTemporary', { date: formatDate(exclusionEnd(context.now, context.days), view.language, 'datetime') }),
  );
  const items = [...region.querySelectorAll('li')].map((item) => item.textContent);
  expect(items).toEqual([
    view.t('responsibleGambling.selfExclusion.consequences.logout'),
    view.t('responsibleGambling.selfExclusion.consequences.refused'),
    view.t('responsibleGambling.selfExclusion.consequences.withdraw'),
  ]);
  const confirm = buttonNamed(busy ? view.t('common.submitting') : view.t('responsibleGambling.selfExclusion.confirm'))!;
  expect(confirm.disabled).toBe(busy);
  expect(buttonNamed(view.t('responsibleGambling.selfExclusion.back'))!.disabled).toBe(busy);
  // The confirmation takes the focus: what happens is read first.
  if (!busy) expect(document.activeElement?.textContent).toBe(view.t('responsibleGambling.selfExclusion.confirmTitle'));
  expect(screen.queryByRole('radio')).toBeNull();
  seeEffects(view, snapshot);
}

function seeExcluded(view: SelfExclusionView, snapshot: SelfExclusionSnapshot) {
  const current: SelfExclusion = snapshot.context.current;
  const status = screen.getByRole('status');
  expect(status.textContent).toContain(
    current.type === 'permanent'
      ? view.t('responsibleGambling.selfExclusion.activePermanent')
      : view.t('responsibleGambling.selfExclusion.activeUntil', { date: formatDate(current.until!, view.language, 'datetime') }),
  );
  expect(status.textContent).toContain(view.t('responsibleGambling.selfExclusion.activeHint'));
  expect(screen.queryByRole('radio')).toBeNull();
  expect(buttonNamed(view.t('responsibleGambling.selfExclusion.submit'))).toBeNull();
  seeEffects(view, snapshot);
}

describeModel('selfExclusion', {
  fixtures: selfExclusionFixtures,
  filterEvents: (snapshot, event) => {
    const context = snapshot.context as SelfExclusionSnapshot['context'];
    if (event.type === 'CHOOSE') return (event as SelfExclusionEvent & { type: 'CHOOSE' }).choice !== context.choice;
    // The period list shows for a temporary exclusion; it is picked once.
    if (event.type === 'PERIOD') return context.choice === 'temporary' && context.days !== (event as SelfExclusionEvent & { type: 'PERIOD' }).days;
    return true;
  },
  render: (view) => {
    const requests: ExclusionRequest[] = [];
    sent.set(view, requests);
    const selfExclude = fromPromise<SelfExclusion, ExclusionRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('selfExclude', input, signal);
    });
    return renderWithServices(<SelfExclusionPanel selfExclusion={view.input.selfExclusion} now={view.input.now} />, { actors: { ...view.actors, selfExclude } });
  },
  events: {
    CHOOSE: (view, event) => view.user.click(screen.getByRole('radio', { name: view.t(`responsibleGambling.selfExclusion.${event.choice}`) })),
    PERIOD: (view, event) => view.user.selectOptions(screen.getByRole('combobox', { name: view.t('responsibleGambling.selfExclusion.period') }), String(event.days)),
    SUBMIT: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.selfExclusion.submit'))!),
    BACK: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.selfExclusion.back'))!),
    CONFIRM: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.selfExclusion.confirm'))!),
  },
  states: {
    choosing: seeChoice,
    confirming: (view, snapshot) => seeConfirmation(view, snapshot, false),
    submitting: (view, snapshot) => {
      seeConfirmation(view, snapshot, true);
      expect(sent.get(view)!.at(-1)).toEqual(exclusionRequest(snapshot.context));
    },
    excluded: seeExcluded,
    done: seeExcluded,
  },
});
