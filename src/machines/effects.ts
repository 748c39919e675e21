import { fromPromise, type NonReducibleUnknown } from 'xstate';
import type { components } from '../api/schema.d.ts';

/*
 * The vocabulary machines use to ask the app for side effects. Machines only name them; the app gives
 * them real implementations in one place (`machine.provide(...)`), tests give fakes.
 */

export type ErrorCode = components['schemas']['ErrorCode'];
export type User = components['schemas']['User'];
export type Language = components['schemas']['Locale'];

/**
 * Where a flow may send the player (SPEC §2: only '/' and '/bonus' are known), and the session-limit
 * dialog over the lobby, with the minutes the player played.
 */
export type Route = '/' | '/bonus' | `/?dialog=session-limit&played=${number}`;

/** Success and information messages, as keys of the i18n catalogue (src/i18n; a unit test keeps them there). */
export const NOTICE_MESSAGES = [
  'messages.loginSuccess',
  'messages.logoutSuccess',
  'messages.registerSuccess',
  'messages.profileUpdated',
  'messages.resetLinkSent',
  'messages.passwordReset',
  'messages.sessionExpired',
  'messages.inactive',
  'messages.depositCredited',
  'wallet.withdraw.sentNotice',
  'wallet.withdraw.failedNotice',
  'messages.referralClaimed',
  'messages.pleaseLogin',
  'messages.bonusClaimed',
  'messages.bonusForfeited',
  'messages.limitsUpdated',
  'responsibleGambling.notices.selfExclusionStarted',
  'responsibleGambling.notices.sessionLimitUpdated',
  'messages.documentSubmissionSuccess',
  'messages.documentUploadFailed',
  'messages.passwordChanged',
  'auth.login.verificationSent',
] as const;
export type NoticeMessage = (typeof NOTICE_MESSAGES)[number];

/**
 * The per-flow fallback of SPEC §8, used when a failure's code has no message of its own (or there is no
 * code: network failure, timeout). The app's error catalogue (src/api/errors.ts) turns it into a message.
 */
export type ErrorFallback = 'login' | 'signup' | 'verification' | 'limits' | 'bonus' | 'default';

/** What the `notify` action shows: a catalogue message, or a failure the app maps through its catalogue. */
export type Notice =
  | { tone: 'success' | 'error'; message: NoticeMessage }
  | { tone: 'error'; code: ErrorCode | null; fallback: ErrorFallback };

export interface NavigateParams {
  to: Route;
}

/**
 * The placeholder for an actor the app must provide: the machine declares the actor's name, input and
 * output, and fails loudly when it is run without a real implementation.
 */
export function notProvided<TOutput, TInput = NonReducibleUnknown>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor not provided: ${name}`);
  });
}
