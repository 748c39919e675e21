// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import EmailVerifiedDialog from '../../../src/views/dialogs/EmailVerifiedDialog.tsx';
import { deferred, renderWithServices } from './harness.tsx';

type Verified = { email: string };

function verifyActor(answer: () => Promise<Verified>) {
  const tokens: string[] = [];
  const verifyEmail = fromPromise<Verified, { token: string }>(async ({ input }) => {
    tokens.push(input.token);
    return answer();
  });
  return { verifyEmail, tokens };
}

describe('EmailVerifiedDialog', () => {
  it("says it is verifying, then shows the email-verified popup and goes to '/'", async () => {
    const answer = deferred<Verified>();
    const { verifyEmail, tokens } = verifyActor(() => answer.promise);
    const onClose = vi.fn();
    const onLogin = vi.fn();
    const { user, navigations } = renderWithServices(
      <EmailVerifiedDialog token="mail-token" onClose={onClose} onLogin={onLogin} />,
      { actors: { verifyEmail } },
    );
    expect(screen.getByRole('dialog', { name: 'Email verification' })).toBeTruthy();
    expect(screen.getByText('Verifying your email…')).toBeTruthy();
    expect(tokens).toEqual(['mail-token']);

    answer.resolve({ email: 'ana@example.com' });
    expect(await screen.findByRole('dialog', { name: 'Email verified' })).toBeTruthy();
    expect(screen.getByText('Your email address is verified. You can log in now.')).toBeTruthy();
    expect(navigations).toEqual(['/']);
    const login = screen.getByRole('button', { name: 'Log in' });
    expect(document.activeElement).toBe(login);
    await user.click(login);
    expect(onLogin).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('"Log in" closes the popup when the host gives no onLogin; Escape closes it too', async () => {
    const { verifyEmail } = verifyActor(async () => ({ email: 'ana@example.com' }));
    const onClose = vi.fn();
    const { user } = renderWithServices(<EmailVerifiedDialog token="mail-token" onClose={onClose} />, {
      actors: { verifyEmail },
    });
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("shows nothing on failure: the machine's toast says why and the player goes to '/'", async () => {
    const { verifyEmail } = verifyActor(async () => {
      throw new ApiFailure(400, 'INVALID_TOKEN');
    });
    const { navigations, notices } = renderWithServices(<EmailVerifiedDialog token="bad" onClose={vi.fn()} />, {
      actors: { verifyEmail },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notices).toEqual([{ tone: 'error', code: 'INVALID_TOKEN', fallback: 'verification' }]);
    expect(navigations).toEqual(['/']);
  });

  it('a link without a token fails at once, without calling the server', () => {
    const { verifyEmail, tokens } = verifyActor(async () => ({ email: 'x@example.com' }));
    const { navigations } = renderWithServices(<EmailVerifiedDialog token="" onClose={vi.fn()} />, {
      actors: { verifyEmail },
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(tokens).toEqual([]);
    expect(navigations).toEqual(['/']);
  });
});
