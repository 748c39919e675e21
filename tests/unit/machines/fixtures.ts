import { vi } from 'vitest';
import type { User } from '../../../src/machines/effects.ts';
import type { Settings } from '../../../src/machines/settings.machine.ts';

/** A player as GET /user/get-user returns one. */
export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    firstName: 'Ana',
    middleName: null,
    lastName: 'Silva',
    email: 'ana@example.com',
    username: 'ana7',
    phoneCode: '+351',
    phone: '912345678',
    dateOfBirth: '1990-04-12',
    gender: 'female',
    address: 'Rua Augusta 10',
    city: 'Lisboa',
    stateCode: '11',
    countryCode: 'PT',
    zipCode: '12345',
    profileImageUrl: null,
    emailVerified: true,
    active: true,
    authProvider: 'email',
    profileComplete: true,
    referralCode: 'ANA7REF',
    selfExcludedUntil: null,
    selfExclusionPermanent: false,
    createdAt: '2024-01-01T00:00:00.000Z',
    lastLoginAt: '2024-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A promise the test settles when it wants, to look at the machine while a call is in flight. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises deliver their results to the actors. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Spies for named side-effect actions that also log their names in call order, so a test can assert
 * what fired and in which order. Each spy receives (args, params) like any XState action.
 */
export function recordedActions<const TNames extends readonly string[]>(names: TNames) {
  const order: string[] = [];
  const spies = Object.fromEntries(
    names.map((name) => [name, vi.fn((_args: unknown, _params?: unknown) => void order.push(name))]),
  ) as Record<TNames[number], ReturnType<typeof vi.fn<(args: unknown, params?: unknown) => void>>>;
  return { spies, order };
}

/** The params each call of an action spy received. */
export function paramsOf(spy: { mock: { calls: unknown[][] } }): unknown[] {
  return spy.mock.calls.map((call) => call[1]);
}

/** The server's default settings (openapi.yaml's example): no social sign-in configured. */
export const DEFAULT_SETTINGS: Settings = {
  siteName: 'Crypto Casino',
  minDeposit: '0.00005',
  minWithdraw: '0.03',
  maxTransferAmount: '10000',
  withdrawFee: '0.000006',
  depositConfirmations: 6,
  referralReward: '0.01',
  referralLimit: 10,
  maxUploadBytes: 5242880,
  documentRefetchMs: 500,
  requestTimeoutMs: 30000,
  socialLogin: { googleClientId: null, facebookAppId: null },
  simulator: true,
};
