import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { forgotPasswordMachine, type ForgotPasswordRequest } from '../../../src/machines/forgotPassword.machine.ts';
import { deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

function start(forgot: (input: ForgotPasswordRequest) => Promise<void> = async () => undefined) {
  const { spies } = recordedActions(['notify'] as const);
  const sent: ForgotPasswordRequest[] = [];
  const machine = forgotPasswordMachine.provide({
    actors: {
      forgotPassword: fromPromise<void, ForgotPasswordRequest>(async ({ input }) => {
        sent.push(input);
        return forgot(input);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine).start();
  return { actor, spies, sent };
}

describe('forgotPasswordMachine', () => {
  it('blocks SUBMIT without a valid email', () => {
    const { actor, sent } = start();
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: ['required'] });
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana@' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: [] });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: ['email'] });
    expect(sent).toEqual([]);
  });

  it('asks for the link, says it is sent and is done', async () => {
    const answer = deferred<void>();
    const { actor, spies, sent } = start(() => answer.promise);
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana@example.com' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(sent).toEqual([{ email: 'ana@example.com' }]);
    answer.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.resetLinkSent' }]);
  });

  it('keeps the code of a refusal; a retry or an edit leaves failed', async () => {
    let attempts = 0;
    const { actor, spies } = start(async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiFailure(429, 'RATE_LIMITED');
      if (attempts === 2) throw new ApiFailure(400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'email', code: 'email' }]);
    });
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana@example.com' });
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('RATE_LIMITED');
    expect(spies.notify).not.toHaveBeenCalled();
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('PLEASE_CHECK_REQUEST_DATA');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: ['email'] });
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana2@example.com' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: null, fieldErrors: { email: [] } });
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
  });
});
