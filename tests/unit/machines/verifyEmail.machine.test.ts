import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { verifyEmailMachine } from '../../../src/machines/verifyEmail.machine.ts';
import { deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

function start(token: string, verify: (token: string) => Promise<{ email: string }>) {
  const { spies, order } = recordedActions(['navigate', 'notify'] as const);
  const tokens: string[] = [];
  const machine = verifyEmailMachine.provide({
    actors: {
      verifyEmail: fromPromise<{ email: string }, { token: string }>(async ({ input }) => {
        tokens.push(input.token);
        return verify(input.token);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine, { input: { token } }).start();
  return { actor, spies, order, tokens };
}

describe('verifyEmailMachine', () => {
  it('verifies the token at once, then returns to / for the popup', async () => {
    const answer = deferred<{ email: string }>();
    const { actor, spies, tokens } = start('link-token', () => answer.promise);
    expect(actor.getSnapshot().value).toBe('verifying');
    expect(tokens).toEqual(['link-token']);
    answer.resolve({ email: 'ana@example.com' });
    await flush();
    expect(actor.getSnapshot().value).toBe('verified');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context).toMatchObject({ email: 'ana@example.com', errorCode: null });
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
    expect(spies.notify).not.toHaveBeenCalled();
  });

  it('keeps the code of a refusal, shows it with the verification fallback and returns to /', async () => {
    const { actor, spies, order } = start('used-token', async () => {
      throw new ApiFailure(422, 'INVALID_TOKEN');
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('INVALID_TOKEN');
    expect(order).toEqual(['notify', 'navigate']);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', code: 'INVALID_TOKEN', fallback: 'verification' }]);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
  });

  it('falls back to the verification message when there was no answer', async () => {
    const { actor, spies } = start('token', async () => {
      throw new ApiFailure(0, null);
    });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', code: null, fallback: 'verification' }]);
  });

  it('fails a link without a token without calling the server', async () => {
    const { actor, spies, tokens } = start('  ', async () => ({ email: 'x@example.com' }));
    await flush();
    expect(tokens).toEqual([]);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('INVALID_TOKEN');
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'error', code: 'INVALID_TOKEN', fallback: 'verification' }]);
    expect(paramsOf(spies.navigate)).toEqual([{ to: '/' }]);
  });
});
