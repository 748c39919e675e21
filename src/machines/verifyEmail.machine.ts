import { assign, setup } from 'xstate';
import { notProvided, type ErrorCode, type NavigateParams, type Notice } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The email verification link (SPEC §4 token verification, §2 navigation): the token is sent as soon as
 * the flow starts. Verified: back to '/' where the view shows the email-verified popup. Failed: a toast
 * with the code's message or the 'verification' fallback ('Verification Failed'), and back to '/' too.
 */

export interface VerifyEmailInput {
  /** The token from the link (`?token=`); '' when the link carries none. */
  token: string;
}

export interface VerifyEmailContext {
  token: string;
  /** The verified address, for the popup. */
  email: string | null;
  errorCode: ErrorCode | null;
}

export const verifyEmailMachine = setup({
  types: {
    context: {} as VerifyEmailContext,
    input: {} as VerifyEmailInput,
  },
  actors: {
    /** GET /user/verify-email?token=... */
    verifyEmail: notProvided<{ email: string }, { token: string }>('verifyEmail'),
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: Notice) => {},
    storeEmail: assign((_, params: { email: string }) => ({ email: params.email })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    tokenMissing: ({ context }) => context.token.trim() === '',
  },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({ token: input.token, email: null, errorCode: null }),
  initial: 'verifying',
  states: {
    verifying: {
      // A link without a token is an unknown token (the server would answer INVALID_TOKEN). Leaving the
      // state in the same step as entering it means the call below is never started.
      always: {
        guard: 'tokenMissing',
        target: 'failed',
        actions: [
          { type: 'storeFailure', params: { code: 'INVALID_TOKEN' } },
          { type: 'notify', params: { tone: 'error', code: 'INVALID_TOKEN', fallback: 'verification' } },
          { type: 'navigate', params: { to: '/' } },
        ],
      },
      invoke: {
        src: 'verifyEmail',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'verified',
          actions: [
            { type: 'storeEmail', params: ({ event }) => ({ email: event.output.email }) },
            { type: 'navigate', params: { to: '/' } },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) },
            {
              type: 'notify',
              params: ({ event }) => ({ tone: 'error', code: toFailure(event.error).code, fallback: 'verification' }),
            },
            { type: 'navigate', params: { to: '/' } },
          ],
        },
      },
    },
    verified: { type: 'final' },
    failed: { type: 'final' },
  },
});
