// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey, ruleMessageKey } from '../../src/api/errors.ts';
import { formatAmount, formatDate } from '../../src/format.ts';
import { limitsFixtures } from '../../src/flows/fixtures/responsibleGambling.ts';
import type { Notice } from '../../src/machines/effects.ts';
import { changedKinds, limitUpdate, type LimitField, type LimitUpdate, type limitsMachine, type ResponsibleGambling } from '../../src/machines/limits.machine.ts';
import { LIMIT_KINDS, LIMIT_PERIODS, type LimitKind } from '../../src/rules/limitChecks.ts';
import { LimitsPanel } from '../../src/views/screens/ResponsibleGamblingScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type LimitsView = View<typeof limitsMachine>;
type LimitsSnapshot = SnapshotFrom<typeof limitsMachine>;

/*
 * The limits form: nine fields in three groups (deposit, bet, loss), each with the limit in force and a
 * pending change with its date; the SPEC §5 messages beside the fields as typed; Save enabled by the
 * has-changes flag; one request per kind that changed, in page order, each with every period of its kind;
 * the toast once all are saved (and the flag reset); a refusal's message, or "Something went wrong"; a
 * self-excluded player's limits to read, without Save.
 */

/** The requests each path's view sent, in order. */
const sent = new WeakMap<LimitsView, LimitUpdate[]>();

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

function fieldOf(view: LimitsView, field: LimitField): HTMLInputElement {
  const [kind, period] = field.split('.') as [(typeof LIMIT_KINDS)[number], (typeof LIMIT_PERIODS)[number]];
  const group = screen.getByRole('group', { name: view.t(`responsibleGambling.kinds.${kind}`) });
  return within(group).getByLabelText(view.t(`responsibleGambling.periods.${period}`)) as HTMLInputElement;
}

/** A toast after the last kind was saved, and only then. */
function expectedNotices(view: LimitsView): Notice[] {
  return view.steps.flatMap((step, index): Notice[] =>
    view.steps[index - 1]?.state.matches('saving') && step.kind.kind === 'done' && step.state.matches('editing')
      ? [{ tone: 'success', message: 'messages.limitsUpdated' }]
      : [],
  );
}

/** What the field's hint says: the limit in force (or none), its use, and the change waiting with its date. */
function hintOf(view: LimitsView, limits: ResponsibleGambling, field: LimitField): string {
  const [kind, period] = field.split('.') as [(typeof LIMIT_KINDS)[number], (typeof LIMIT_PERIODS)[number]];
  const { current, pending } = limits[kind][period];
  const money = (amount: string) => formatAmount(amount, 'LTC', view.language);
  let text = current === null ? view.t('responsibleGambling.noLimit') : view.t('responsibleGambling.inForce', { value: money(current) });
  // The current use of the limit, in its window.
  text += ` · ${view.t('responsibleGambling.used', { value: money(limits.usage[kind][period]) })}`;
  if (pending) {
    const date = formatDate(pending.effectiveAt, view.language, 'datetime');
    text += ` · ${pending.value === null ? view.t('responsibleGambling.pendingRemoval', { date }) : view.t('responsibleGambling.pendingChange', { value: money(pending.value), date })}`;
  }
  return text;
}

function seeForm(view: LimitsView, snapshot: LimitsSnapshot, saving: boolean, locked = false) {
  const { context } = snapshot;
  const limits = context.limits!;
  for (const kind of LIMIT_KINDS) {
    for (const period of LIMIT_PERIODS) {
      const field = `${kind}.${period}` as const;
      const input = fieldOf(view, field);
      expect(input.value).toBe(context.values[field]);
      expect(input.readOnly).toBe(saving || locked);
      const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
      expect(described).toContain(hintOf(view, limits, field));
      const messages = (context.fieldErrors[field] ?? []).map((code) => view.t(ruleMessageKey(code)!));
      expect(input.getAttribute('aria-invalid')).toBe(String(messages.length > 0));
      if (messages.length) expect(described).toContain(messages.join(''));
    }
  }
  const save = buttonNamed(saving ? view.t('common.saving') : view.t('responsibleGambling.save'));
  if (locked) {
    // Self-excluded: the limits to read, no Save, and why.
    expect(save).toBeNull();
    expect(screen.getByText(view.t('responsibleGambling.lockedWhileExcluded'))).toBeTruthy();
  } else {
    expect(save!.disabled).toBe(saving || !context.hasChanges);
    expect(screen.queryByText(view.t('responsibleGambling.lockedWhileExcluded'))).toBeNull();
  }
  expect(screen.queryByText(view.t('responsibleGambling.unsavedChanges')) !== null).toBe(context.hasChanges);
  const alert = screen.queryAllByRole('alert').find((element) => element.tagName === 'P');
  if (context.failed) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'limits')));
  else expect(alert).toBeUndefined();
  expect(view.harness.notices).toEqual(expectedNotices(view));
}

/** Saving one kind: the request for it, with every period of it; one request per kind entered. */
function seeSaving(view: LimitsView, snapshot: LimitsSnapshot, kind: LimitKind) {
  seeForm(view, snapshot, true);
  const requests = sent.get(view)!;
  expect(changedKinds(snapshot.context)[0]).toBe(kind);
  expect(requests.at(-1)).toEqual(limitUpdate(snapshot.context.values, kind));
  const entries = view.steps.filter((step, index) => LIMIT_KINDS.some((each) => step.state.matches({ saving: each }) && !view.steps[index - 1]?.state.matches({ saving: each })));
  expect(requests.length).toBe(entries.length);
}

describeModel('limits', {
  fixtures: limitsFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event) && fillsInOrder(limitsFixtures.events['FIELD.CHANGE'])(snapshot, event),
  render: (view) => {
    const requests: LimitUpdate[] = [];
    sent.set(view, requests);
    const saveLimits = fromPromise<ResponsibleGambling, LimitUpdate>(({ input, signal }) => {
      requests.push(input);
      return view.call('saveLimits', input, signal);
    });
    return renderWithServices(<LimitsPanel />, { actors: { ...view.actors, saveLimits } });
  },
  events: {
    'FIELD.CHANGE': async (view, event) => {
      const input = fieldOf(view, event.field);
      if (input.value === '') await view.user.click(input);
      else await view.user.tripleClick(input);
      await view.user.paste(event.value);
    },
    SAVE: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.save'))!),
    RETRY: (view) => view.user.click(buttonNamed(view.t('common.retry'))!),
  },
  states: {
    loading: () => expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true'),
    failed: (view, snapshot) => {
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(buttonNamed(view.t('common.retry'))).not.toBeNull();
    },
    editing: (view, snapshot) => seeForm(view, snapshot, false),
    locked: (view, snapshot) => seeForm(view, snapshot, false, true),
    // Passed through between two requests, never rested in.
    'saving.next': (view, snapshot) => seeForm(view, snapshot, true),
    'saving.deposit': (view, snapshot) => seeSaving(view, snapshot, 'deposit'),
    'saving.bet': (view, snapshot) => seeSaving(view, snapshot, 'bet'),
    'saving.loss': (view, snapshot) => seeSaving(view, snapshot, 'loss'),
  },
});
