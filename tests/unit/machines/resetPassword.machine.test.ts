import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { encodePassword } from '../../../src/rules/password.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import {
  passwordTicks,
  resetPasswordMachine,
  type ResetPasswordRequest,
} from '../../../src/machines/resetPassword.machine.ts';
import { deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

function start(token: string, reset: (input: ResetPasswordRequest) => Promise<void> = async () => undefined) {
  const { spies, order } = recordedActions(['notify', 'navigate'] as const);
  const sent: ResetPasswordRequest[] = [];
  const machine = resetPasswordMachine.provide({
    actors: {
      resetPassword: fromPromise<void, ResetPasswordRequest>(async ({ input }) => {
        sent.push(input);
        return reset(input);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine, { input: { token } }).start();
  const type = (field: 'newPassword' | 'confirmPassword', value: string) =>
    actor.send({ type: 'FIELD.CHANGE', field, value });
  return { actor, spies, order, sent, type };
}

describe('resetPasswordMachine', () => {
  it('checks the new password and its confirmation as the player types', () => {
    const { actor, type } = start('reset-token');
    type('newPassword', 'short A');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      newPassword: ['password.minLength', 'password.number', 'password.special', 'password.noSpaces'],
    });
    expect(passwordTicks(actor.getSnapshot().context)).toMatchObject({ uppercase: true, lowercase: true, noSpaces: false });
    type('confirmPassword', 'other');
    expect(actor.getSnapshot().context.fieldErrors.confirmPassword).toEqual(['confirmPassword.mismatch']);
    type('newPassword', 'other');
    expect(actor.getSnapshot().context.fieldErrors.confirmPassword).toEqual([]);
  });

  it('blocks SUBMIT until both fields pass', () => {
    const { actor, sent, type } = start('reset-token');
    type('newPassword', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ newPassword: [], confirmPassword: ['required'] });
    expect(sent).toEqual([]);
  });

  it('sends the token and the base64 password, says so and returns to /', async () => {
    const answer = deferred<void>();
    const { actor, spies, order, sent, type } = start('reset-token', () => answer.promise);
    type('newPassword', 'Secret@123');
    type('confirmPassword', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(sent).toEqual([{ token: 'reset-token', newPassword: encodePassword('Secret@123') }]);
    answer.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(order).toEqual(['notify', 'navigate']);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.passwordReset' }]);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
  });

  it('keeps the code and field codes of a refusal; retries and edits leave failed', async () => {
    let attempts = 0;
    const { actor, spies, type } = start('reset-token', async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiFailure(422, 'SAME_PASSWORD');
      if (attempts === 2) {
        throw new ApiFailure(400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'newPassword', code: 'password.encoding' }]);
      }
    });
    type('newPassword', 'Secret@123');
    type('confirmPassword', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('SAME_PASSWORD');
    expect(spies.navigate).not.toHaveBeenCalled();
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(actor.getSnapshot().context.fieldErrors.newPassword).toEqual(['password.encoding']);
    type('newPassword', 'Secret@1234');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    type('confirmPassword', 'Secret@1234');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('fails a link without a token as an unknown token, without calling the server', () => {
    const { actor, sent, type } = start('');
    type('newPassword', 'Secret@123');
    type('confirmPassword', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('INVALID_TOKEN');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(sent).toEqual([]);
  });
});
