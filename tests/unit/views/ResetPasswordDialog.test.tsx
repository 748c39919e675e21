// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import type { ResetPasswordRequest } from '../../../src/machines/resetPassword.machine.ts';
import ResetPasswordDialog from '../../../src/views/dialogs/ResetPasswordDialog.tsx';
import { deferred, renderWithServices, type HarnessOptions } from './harness.tsx';

function renderReset(token = 'reset-token', options: HarnessOptions = {}) {
  const onClose = vi.fn();
  const harness = renderWithServices(<ResetPasswordDialog token={token} onClose={onClose} />, options);
  return { ...harness, onClose };
}

function ruleItem(label: string): HTMLElement {
  const list = screen.getByRole('list', { name: 'Your password must have:' });
  const item = within(list).getByText(label).closest('li');
  if (!item) throw new Error(`no rule ${label}`);
  return item;
}

describe('ResetPasswordDialog', () => {
  it('labels both fields and ticks the rules as the new password is typed', async () => {
    const { user } = renderReset();
    expect(screen.getByRole('dialog', { name: 'Reset password' }).contains(document.activeElement)).toBe(true);
    expect(screen.getByLabelText('Confirm new password')).toBeTruthy();
    expect(ruleItem('One number').textContent).toContain('not yet');
    await user.type(screen.getByLabelText('New password'), 'abc1');
    expect(ruleItem('One number').textContent).toContain('done');
    expect(ruleItem('One lowercase letter').textContent).toContain('done');
    expect(ruleItem('One uppercase letter').textContent).toContain('not yet');
  });

  it('shows the errors beside the fields on submit', async () => {
    const { user } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'Secret1!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Secret2!');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(screen.getByLabelText('Confirm new password').getAttribute('aria-invalid')).toBe('true');
  });

  it("updates the password: busy while sending, then a toast and the player goes to '/'", async () => {
    const answer = deferred<void>();
    const requests: ResetPasswordRequest[] = [];
    const resetPassword = fromPromise<void, ResetPasswordRequest>(async ({ input }) => {
      requests.push(input);
      return answer.promise;
    });
    const { user, notices, navigations } = renderReset('reset-token', { actors: { resetPassword } });
    await user.type(screen.getByLabelText('New password'), 'Secret1!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Secret1!');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(screen.getByRole('button', { name: 'Sending…' })).toHaveProperty('disabled', true);
    expect(requests).toEqual([{ token: 'reset-token', newPassword: btoa('Secret1!') }]);
    answer.resolve();
    await waitFor(() => expect(navigations).toEqual(['/']));
    expect(notices).toEqual([{ tone: 'success', message: 'messages.passwordReset' }]);
  });

  it('shows the message of a used or expired link', async () => {
    const resetPassword = fromPromise<void, ResetPasswordRequest>(async () => {
      throw new ApiFailure(400, 'INVALID_TOKEN');
    });
    const { user, navigations } = renderReset('old-token', { actors: { resetPassword } });
    await user.type(screen.getByLabelText('New password'), 'Secret1!');
    await user.type(screen.getByLabelText('Confirm new password'), 'Secret1!');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid or has expired.');
    expect(navigations).toEqual([]);
  });

  it('closes on Escape', async () => {
    const { user, onClose } = renderReset();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});
