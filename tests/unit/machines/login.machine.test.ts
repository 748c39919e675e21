import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { encodePassword } from '../../../src/rules/password.ts';
import { loginMachine, type LoginRequest, type Session } from '../../../src/machines/login.machine.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { aUser, deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

const SIDE_EFFECTS = ['sessionStarted', 'closeDialog', 'notify'] as const;

interface Fakes {
  login?: (input: LoginRequest) => Promise<Session>;
}

const session: Session = { accessToken: 'tok-1', user: aUser() };

function start(fakes: Fakes = {}) {
  const { spies, order } = recordedActions(SIDE_EFFECTS);
  const inputs: { login: LoginRequest[] } = { login: [] };
  const machine = loginMachine.provide({
    actors: {
      login: fromPromise<Session, LoginRequest>(async ({ input }) => {
        inputs.login.push(input);
        return (fakes.login ?? (async () => session))(input);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine).start();
  const fill = (email: string, password: string) => {
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: email });
    actor.send({ type: 'FIELD.CHANGE', field: 'password', value: password });
  };
  return { actor, spies, order, inputs, fill };
}

describe('loginMachine: validation', () => {
  it('blocks SUBMIT on an empty form and shows each field code', () => {
    const { actor, inputs } = start();
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: ['required'], password: ['required'] });
    expect(inputs.login).toEqual([]);
  });

  it('refuses an identifier that is neither an email nor a username', () => {
    const { actor, fill, inputs } = start();
    fill('not an id', 'whatever');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('editing');
    // Every field was checked: the password passes ([]), the identifier does not.
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: ['loginId'], password: [] });
    expect(inputs.login).toEqual([]);
  });

  it('clears a field code when the player edits that field', () => {
    const { actor } = start();
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana7' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: [], password: ['required'] });
    expect(actor.getSnapshot().context.values.email).toBe('ana7');
  });
});

describe('loginMachine: email or username and password', () => {
  it('sends the base64 password, starts the session, says so and closes the dialog', async () => {
    const answer = deferred<Session>();
    const { actor, fill, spies, order, inputs } = start({ login: () => answer.promise });
    fill('ana7', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(inputs.login).toEqual([{ email: 'ana7', password: encodePassword('Secret@123') }]);
    answer.resolve(session);
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().status).toBe('done');
    expect(order).toEqual(['sessionStarted', 'notify', 'closeDialog']);
    expect(paramsOf(spies.sessionStarted)).toEqual([{ accessToken: 'tok-1', user: aUser() }]);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
    // The login time is a social-login rule (SPEC §4).
  });

  it('keeps the code of a refusal, then retries after an edit', async () => {
    let attempts = 0;
    const { actor, fill, spies } = start({
      login: async () => {
        attempts += 1;
        if (attempts === 1) throw new ApiFailure(422, 'WRONG_PASSWORD');
        return session;
      },
    });
    fill('ana@example.com', 'Wrong@123');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('WRONG_PASSWORD');
    expect(spies.sessionStarted).not.toHaveBeenCalled();
    expect(spies.closeDialog).not.toHaveBeenCalled();

    actor.send({ type: 'FIELD.CHANGE', field: 'password', value: 'Right@123' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('retries straight from failed, and stores no code when there was no answer', async () => {
    let attempts = 0;
    const { actor, fill } = start({
      login: async () => {
        attempts += 1;
        throw attempts === 1 ? new ApiFailure(403, 'EMAIL_NOT_VERIFIED') : new ApiFailure(0, null);
      },
    });
    fill('ana7', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('EMAIL_NOT_VERIFIED');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });

  it('adds the server field codes to the fields', async () => {
    const { actor, fill } = start({
      login: async () => {
        throw new ApiFailure(400, 'PLEASE_CHECK_REQUEST_DATA', [{ field: 'password', code: 'password.encoding' }]);
      },
    });
    fill('ana7', 'Secret@123');
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().context.fieldErrors.password).toEqual(['password.encoding']);
    expect(actor.getSnapshot().context.errorCode).toBe('PLEASE_CHECK_REQUEST_DATA');
  });
});
