import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import {
  socialSignInMachine,
  type FacebookLoginRequest,
  type GoogleLoginRequest,
  type SocialSession,
} from '../../../src/machines/socialSignIn.machine.ts';
import { aUser, deferred, flush, paramsOf, recordedActions } from './fixtures.ts';

const SIDE_EFFECTS = ['sessionStarted', 'storeLoginTime', 'notify', 'closeDialog'] as const;

const session: SocialSession = { accessToken: 'tok-9', user: aUser({ lastLoginAt: '2026-11-22T08:00:00.000Z' }), isNewUser: false };

interface Fakes {
  askFacebook?: () => Promise<FacebookLoginRequest | null>;
  googleLogin?: (input: GoogleLoginRequest) => Promise<SocialSession>;
  facebookLogin?: (input: FacebookLoginRequest) => Promise<SocialSession>;
}

function start(fakes: Fakes = {}) {
  const { spies, order } = recordedActions(SIDE_EFFECTS);
  const inputs = { google: [] as GoogleLoginRequest[], facebook: [] as FacebookLoginRequest[], popups: 0 };
  const machine = socialSignInMachine.provide({
    actors: {
      askFacebook: fromPromise<FacebookLoginRequest | null>(async () => {
        inputs.popups += 1;
        return (fakes.askFacebook ?? (async () => ({ accessToken: 'fb-token', userID: 'fb-1' })))();
      }),
      googleLogin: fromPromise<SocialSession, GoogleLoginRequest>(async ({ input }) => {
        inputs.google.push(input);
        return (fakes.googleLogin ?? (async () => session))(input);
      }),
      facebookLogin: fromPromise<SocialSession, FacebookLoginRequest>(async ({ input }) => {
        inputs.facebook.push(input);
        return (fakes.facebookLogin ?? (async () => session))(input);
      }),
    },
    actions: spies,
  });
  const actor = createActor(machine).start();
  return { actor, spies, order, inputs };
}

describe('socialSignInMachine: Google', () => {
  it('sends the credential, starts the session, stores the login time, says so and closes the dialog', async () => {
    const answer = deferred<SocialSession>();
    const { actor, spies, order, inputs } = start({ googleLogin: () => answer.promise });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'GOOGLE.CREDENTIAL', credential: 'google-jwt' });
    expect(actor.getSnapshot().value).toBe('signingInWithGoogle');
    answer.resolve(session);
    await flush();
    expect(inputs.google).toEqual([{ credential: 'google-jwt' }]);
    expect(actor.getSnapshot().value).toBe('done');
    expect(order).toEqual(['sessionStarted', 'storeLoginTime', 'notify', 'closeDialog']);
    expect(paramsOf(spies.sessionStarted)).toEqual([{ accessToken: 'tok-9', user: session.user }]);
    expect(paramsOf(spies.storeLoginTime)).toEqual([{ at: '2026-11-22T08:00:00.000Z' }]);
    expect(paramsOf(spies.notify)).toEqual([{ tone: 'success', message: 'messages.loginSuccess' }]);
  });

  it('keeps the code of a refusal, and another credential tries again', async () => {
    let attempt = 0;
    const { actor, spies } = start({
      googleLogin: async () => {
        attempt += 1;
        if (attempt === 1) throw new ApiFailure(422, 'SOCIAL_LOGIN_FAILED');
        return session;
      },
    });
    actor.send({ type: 'GOOGLE.CREDENTIAL', credential: 'bad' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('SOCIAL_LOGIN_FAILED');
    expect(spies.sessionStarted).not.toHaveBeenCalled();
    actor.send({ type: 'GOOGLE.CREDENTIAL', credential: 'good' });
    // A new attempt clears the old message while it runs.
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
  });
});

describe('socialSignInMachine: Facebook', () => {
  it('opens the popup, sends its login to the server and signs in', async () => {
    const popup = deferred<FacebookLoginRequest | null>();
    const { actor, order, inputs } = start({ askFacebook: () => popup.promise });
    actor.send({ type: 'FACEBOOK.START' });
    expect(actor.getSnapshot().value).toBe('askingFacebook');
    popup.resolve({ accessToken: 'fb-token', userID: 'fb-1' });
    await flush();
    expect(inputs.facebook).toEqual([{ accessToken: 'fb-token', userID: 'fb-1' }]);
    expect(actor.getSnapshot().value).toBe('done');
    expect(order).toEqual(['sessionStarted', 'storeLoginTime', 'notify', 'closeDialog']);
  });

  it('goes back quietly when the player closes the popup', async () => {
    const { actor, spies, inputs } = start({ askFacebook: async () => null });
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(inputs.facebook).toEqual([]);
    expect(spies.notify).not.toHaveBeenCalled();
  });

  it('fails with no code when the SDK cannot be loaded, and can be tried again', async () => {
    let attempt = 0;
    const { actor, inputs } = start({
      askFacebook: async () => {
        attempt += 1;
        if (attempt === 1) throw new Error('could not load the SDK');
        return { accessToken: 'fb-token', userID: 'fb-1' };
      },
    });
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(inputs.popups).toBe(2);
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('keeps the code of a refusal; Google can follow', async () => {
    const { actor } = start({
      facebookLogin: async () => {
        throw new ApiFailure(409, 'EMAIL_ALREADY_EXISTS');
      },
    });
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('EMAIL_ALREADY_EXISTS');
    actor.send({ type: 'GOOGLE.CREDENTIAL', credential: 'google-jwt' });
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('a closed popup after a failure returns to idle, clearing nothing it should keep', async () => {
    let attempt = 0;
    const { actor } = start({
      askFacebook: async () => {
        attempt += 1;
        return attempt === 1 ? { accessToken: 'fb-token', userID: 'fb-1' } : null;
      },
      facebookLogin: async () => {
        throw new ApiFailure(422, 'SOCIAL_LOGIN_FAILED');
      },
    });
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'FACEBOOK.START' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
