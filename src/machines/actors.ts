import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { Settings } from './settings.machine.ts';
import type { ApiClient } from '../api/client.ts';
import type { RestoredSession } from './app.machine.ts';
import type { ErrorCode, User } from './effects.ts';
import { ApiFailure, type ServerFieldError } from './failure.ts';
import type { Category, GamesPage, GamesRequest, Provider, SubCategory } from './gameList.machine.ts';
import type { Banner } from './lobby.machine.ts';
import type { BonusCalls } from './bonus.actors.ts';
import type { DocumentsCalls } from './documents.actors.ts';
import type { LimitsCalls } from './limits.actors.ts';
import type { ProfileCalls } from './profile.actors.ts';
import type { PlayerCalls } from './player.actors.ts';

/*
 * The real implementations of the machines' API actors, one per actor name, each one call of the typed
 * client. The app provides them (`machine.provide({ actors })`); tests of the machines provide fakes.
 * Every failure is thrown as an ApiFailure, so machines keep a status and a code, never a message.
 */

export interface TokenStorage {
  /** The access token saved by an earlier session, or null. */
  readToken(): string | null;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The failure an error answer describes: its envelope's first code and field errors, when it has them. */
export function failureFromAnswer(status: number, body: unknown): ApiFailure {
  const first = isRecord(body) && Array.isArray(body.errors) ? (body.errors[0] as unknown) : undefined;
  if (!isRecord(first)) return new ApiFailure(status, null);
  const code = typeof first.description === 'string' ? (first.description as ErrorCode) : null;
  const fields = Array.isArray(first.fields)
    ? first.fields.filter(
        (field): field is ServerFieldError =>
          isRecord(field) && typeof field.field === 'string' && typeof field.code === 'string',
      )
    : [];
  return new ApiFailure(status, code, fields);
}

/** The success envelope of a call, or the ApiFailure of its error answer, network failure or timeout. */
export async function settle<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    // fetch rejected (offline, DNS, CORS), the 30 s timeout or an abort fired, or a body was not JSON.
    throw new ApiFailure(0, null);
  }
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  throw failureFromAnswer(answer.response.status, answer.error);
}

/** A module's calls as actors of the same names: each call's input and output. */
type ActorsOf<TCalls> = {
  [K in keyof TCalls]: TCalls[K] extends (client: ApiClient, input: infer TInput, signal: AbortSignal) => Promise<infer TOutput> ? PromiseActorLogic<TOutput, TInput> : never;
};
type LazyCall = (client: ApiClient, input: unknown, signal: AbortSignal) => Promise<unknown>;

/**
 * The actors of a lazily loaded module's calls (./bonus.actors.ts, ./limits.actors.ts, ./player.actors.ts): it loads with
 * the first of them, not with the app. One function for every such module keeps the app's first load small.
 */
function lazyActors<TCalls>(client: ApiClient, names: readonly (keyof TCalls & string)[], load: () => Promise<TCalls>): ActorsOf<TCalls> {
  return Object.fromEntries(
    names.map((name) => [name, fromPromise<unknown, never>(({ input, signal }) => load().then((calls) => (calls[name] as LazyCall)(client, input, signal)))]),
  ) as ActorsOf<TCalls>;
}

/** The calls of ./player.actors.ts: every flow's but the session's and the lobby's, which are below. */
const PLAYER_CALLS = [
  'login',
  'googleLogin',
  'facebookLogin',
  'signup',
  'loadCountries',
  'verifyEmail',
  'forgotPassword',
  'resetPassword',
  'loadPages',
  'loadNotifications',
  'markNotificationsRead',
  'loadWallets',
  'selectWallet',
  'loadPaymentProviders',
  'loadPaymentActivity',
  'requestDepositAddress',
  'loadTransactions',
  'loadBetHistory',
  'loadFavouriteGames',
  'toggleFavourite',
  'launchGame',
  'launchDemo',
  'loadGameSession',
  'loadHouseTable',
  'requestWithdrawal',
  'loadReferral',
  'claimReferral',
] as const satisfies readonly (keyof PlayerCalls)[];

export function createApiActors(client: ApiClient, storage: TokenStorage) {
  return {
    ...lazyActors<BonusCalls>(client, ['loadBonusOffers', 'loadUserBonuses', 'loadBonusDetail', 'claimBonus', 'forfeitBonus'], () =>
      import('./bonus.actors.ts').then((module) => module.bonusCalls),
    ),
    ...lazyActors<LimitsCalls>(client, ['loadLimits', 'saveLimits', 'selfExclude', 'saveSessionLimit'], () =>
      import('./limits.actors.ts').then((module) => module.limitsCalls),
    ),
    ...lazyActors<DocumentsCalls>(client, ['loadDocumentLabels', 'loadDocuments', 'uploadDocument', 'updatePassword', 'resendVerificationEmail'], () => import('./documents.actors.ts').then((module) => module.documentsCalls)),
    ...lazyActors<ProfileCalls>(client, ['updateProfile', 'loadAddresses', 'addAddress', 'updateAddress', 'removeAddress', 'uploadProfileImage', 'removeProfileImage'], () => import('./profile.actors.ts').then((module) => module.profileCalls)),
    ...lazyActors<PlayerCalls>(client, PLAYER_CALLS, () => import('./player.actors.ts').then((module) => module.playerCalls)),
    restoreSession: fromPromise<RestoredSession | null>(async ({ signal }) => {
      const accessToken = storage.readToken();
      if (accessToken === null || accessToken === '') return null;
      const answer = await settle(client.GET('/user/get-user', { signal }));
      return { accessToken, user: answer.data.user };
    }),
    fetchProfile: fromPromise<User>(async ({ signal }) => {
      const answer = await settle(client.GET('/user/get-user', { signal }));
      return answer.data.user;
    }),
    logout: fromPromise<void>(async ({ signal }) => {
      await settle(client.POST('/user/logout', { signal }));
    }),
    loadSettings: fromPromise<Settings>(async ({ signal }) => {
      const answer = await settle(client.GET('/common/get-settings', { signal }));
      return answer.data.settings;
    }),
    loadCategories: fromPromise<Category[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/casino/get-categories', { signal }));
      return answer.data.categories;
    }),
    loadSubCategories: fromPromise<SubCategory[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/casino/get-sub-categories', { signal }));
      return answer.data.subCategories;
    }),
    loadProviders: fromPromise<Provider[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/casino/get-providers', { signal }));
      return answer.data.providers;
    }),
    loadBanners: fromPromise<Banner[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/common/get-banners', { signal }));
      return answer.data.banners;
    }),
    loadGames: fromPromise<GamesPage, GamesRequest>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/casino/get-all-games', { params: { query: input }, signal }));
      return { rows: answer.data.casinoGames.rows, count: answer.data.casinoGames.count };
    }),
  };
}

export type ApiActors = ReturnType<typeof createApiActors>;
