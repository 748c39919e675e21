import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTranslator } from '../../../src/i18n/index.ts';
import { NOTICE_MESSAGES } from '../../../src/machines/effects.ts';
import { machines } from '../../../src/machines/index.ts';
import { loginMachine } from '../../../src/machines/login.machine.ts';
import { flush } from './fixtures.ts';

describe('machines index', () => {
  it('lists every flow by the id its machine carries', () => {
    expect(Object.keys(machines).sort()).toEqual(
      [
        'app',
        'forgotPassword',
        'login',
        'notifications',
        'page',
        'register',
        'profile',
        'addresses',
        'profilePicture',
        'resetPassword',
        'settings',
        'socialSignIn',
        'unreadNotifications',
        'verifyEmail',
        'wallets',
        'deposit',
        'withdraw',
        'transactions',
        'betHistory',
        'lobby',
        'gameRow',
        'gameList',
        'favourite',
        'launch',
        'fairness',
        'houseTable',
        'houseSeeds',
        'mines',
        'limits',
        'selfExclusion',
        'sessionLimit',
        'realityCheck',
        'bonuses',
        'bonusClaim',
        'bonusForfeit',
        'referral',
        'documents',
        'changePassword',
        'resendVerification',
      ].sort(),
    );
    for (const [name, machine] of Object.entries(machines)) expect(machine.id).toBe(name);
  });

  it('names only notices the English catalogue has', () => {
    const english = createTranslator('en');
    for (const key of NOTICE_MESSAGES) expect(english.maybe(key), key).toBeTypeOf('string');
  });

  it('placeholder actors fail loudly, and the flow reads that as a failure with no code', async () => {
    const actor = createActor(loginMachine).start();
    actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'ana7' });
    actor.send({ type: 'FIELD.CHANGE', field: 'password', value: 'Secret@123' });
    actor.send({ type: 'SUBMIT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    const logic = loginMachine.implementations.actors.login;
    const lone = createActor(logic as Parameters<typeof createActor>[0], { input: { email: 'a', password: 'b' } });
    const failure = new Promise((resolve) => lone.subscribe({ error: resolve }));
    lone.start();
    await expect(failure).resolves.toMatchObject({ message: 'actor not provided: login' });
  });
});
