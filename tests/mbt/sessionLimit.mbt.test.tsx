// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { sessionLimitFixtures } from '../../src/flows/fixtures/responsibleGambling.ts';
import type { Notice } from '../../src/machines/effects.ts';
import type { sessionLimitMachine } from '../../src/machines/sessionLimit.machine.ts';
import { SessionLimitPanel } from '../../src/views/screens/ResponsibleGamblingScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue } from './filters.ts';
import { describeModel, type View } from './run.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type SessionLimitView = View<typeof sessionLimitMachine>;
type SessionLimitSnapshot = SnapshotFrom<typeof sessionLimitMachine>;

/*
 * The session limit card: the limit in force chosen in the list (none, or a length), Save enabled by a
 * change, busy while sending; the toast once saved; a refusal's SPEC §8 message (else "Something went
 * wrong").
 */

function buttonNamed(name: string): HTMLButtonElement | null {
  return (screen.queryAllByRole('button').find((button) => button.textContent === name) as HTMLButtonElement | undefined) ?? null;
}

/** One toast per save that succeeded. */
function expectedNotices(view: SessionLimitView): Notice[] {
  return view.steps.flatMap((step, index): Notice[] =>
    view.steps[index - 1]?.state.matches('saving') && step.kind.kind === 'done' ? [{ tone: 'success', message: 'responsibleGambling.notices.sessionLimitUpdated' }] : [],
  );
}

function seeCard(view: SessionLimitView, snapshot: SessionLimitSnapshot, saving: boolean) {
  const { context } = snapshot;
  const select = screen.getByRole('combobox', { name: view.t('responsibleGambling.sessionLimit.minutes') }) as HTMLSelectElement;
  expect(select.value).toBe(context.values.minutes);
  expect(select.disabled).toBe(saving);
  expect([...select.options].find((option) => option.value === select.value)?.textContent).toBe(
    context.values.minutes === '' ? view.t('responsibleGambling.sessionLimit.none') : { '15': '15 min', '120': '2 h' }[context.values.minutes],
  );
  const save = buttonNamed(saving ? view.t('common.saving') : view.t('responsibleGambling.sessionLimit.save'))!;
  expect(save.disabled).toBe(saving || !context.hasChanges);
  const alert = screen.queryByRole('alert');
  if (context.failed) expect(alert?.textContent).toBe(view.t(errorMessageKey(context.errorCode, 'limits')));
  else expect(alert).toBeNull();
  expect(view.harness.notices).toEqual(expectedNotices(view));
}

describeModel('sessionLimit', {
  fixtures: sessionLimitFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event),
  render: (view) => renderWithServices(<SessionLimitPanel minutes={view.input.minutes} />, { actors: view.actors }),
  events: {
    'FIELD.CHANGE': (view, event) => view.user.selectOptions(screen.getByRole('combobox', { name: view.t('responsibleGambling.sessionLimit.minutes') }), event.value),
    SAVE: (view) => view.user.click(buttonNamed(view.t('responsibleGambling.sessionLimit.save'))!),
  },
  states: {
    editing: (view, snapshot) => seeCard(view, snapshot, false),
    saving: (view, snapshot) => seeCard(view, snapshot, true),
  },
});
