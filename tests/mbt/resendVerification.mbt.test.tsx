// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { errorMessageKey } from '../../src/api/errors.ts';
import { resendVerificationFixtures } from '../../src/flows/fixtures/resendVerification.ts';
import type { resendVerificationMachine, ResendVerificationRequest } from '../../src/machines/resendVerification.machine.ts';
import ResendVerification from '../../src/views/dialogs/ResendVerification.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { changesAValue, fillsInOrder } from './filters.ts';
import { describeModel, type View } from './run.tsx';
import { button, expectButton, expectField, formAlerts, setField } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type ResendView = View<typeof resendVerificationMachine>;
type ResendSnapshot = SnapshotFrom<typeof resendVerificationMachine>;

/*
 * The login dialog's new verification email: the email (the login id when it is one), one request per
 * send and none while one is on its way or after it went, the toast, and a refusal's message.
 */

const sent = new WeakMap<ResendView, ResendVerificationRequest[]>();

function seeEffects(view: ResendView) {
  const sendings = view.steps.filter((step, index) => step.state.matches('sending') && !view.steps[index - 1]?.state.matches('sending'));
  expect(sent.get(view)!.length).toBe(sendings.length);
  const done = view.steps.some((step) => step.kind.kind === 'done');
  expect(view.harness.notices).toEqual(done ? [{ tone: 'success', message: 'auth.login.verificationSent' }] : []);
}

function seeForm(view: ResendView, snapshot: ResendSnapshot) {
  expect(screen.getByText(view.t('auth.login.resendPrompt'))).toBeTruthy();
  expectField(view.t, view.t('auth.login.resendEmail'), snapshot.context.values.email, snapshot.context.fieldErrors.email);
}

const fillOrder = fillsInOrder(resendVerificationFixtures.events['FIELD.CHANGE']);

describeModel('resendVerification', {
  fixtures: resendVerificationFixtures,
  filterEvents: (snapshot, event) => changesAValue(snapshot, event) && fillOrder(snapshot, event),
  render: (view) => {
    const requests: ResendVerificationRequest[] = [];
    sent.set(view, requests);
    const resendVerificationEmail = fromPromise<void, ResendVerificationRequest>(({ input, signal }) => {
      requests.push(input);
      return view.call('resendVerificationEmail', input, signal);
    });
    return renderWithServices(<ResendVerification loginId={view.input.loginId} />, { actors: { ...view.actors, resendVerificationEmail } });
  },
  events: {
    'FIELD.CHANGE': (view, event) => setField(view.user, view.t('auth.login.resendEmail'), event.value),
    SUBMIT: (view) => view.user.click(button(view.t('auth.login.resend'))),
  },
  states: {
    editing: (view, snapshot) => {
      seeEffects(view);
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([]);
      expectButton(view.t('auth.login.resend'), false);
    },
    sending: (view, snapshot) => {
      seeEffects(view);
      seeForm(view, snapshot);
      // One at a time: the button is busy and disabled until the answer.
      expectButton(view.t('auth.login.resending'), true);
      expect(sent.get(view)!.at(-1)).toEqual({ email: snapshot.context.values.email.trim() });
    },
    failed: (view, snapshot) => {
      seeEffects(view);
      seeForm(view, snapshot);
      expect(formAlerts()).toEqual([view.t(errorMessageKey(snapshot.context.errorCode, 'default'))]);
      expectButton(view.t('auth.login.resend'), false);
    },
    sent: (view) => {
      seeEffects(view);
      // Sent once: no button to send it again from this dialog.
      expect(screen.getByRole('status').textContent).toBe(view.t('auth.login.verificationSent'));
      expect(screen.queryByRole('button')).toBeNull();
    },
  },
});
