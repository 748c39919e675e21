import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { Page } from './page.machine.ts';
import type { Settings } from './settings.machine.ts';
import type { ApiClient } from '../api/client.ts';
import type { RestoredSession } from './app.machine.ts';
import type { ErrorCode, Language, User } from './effects.ts';
import { ApiFailure, type ServerFieldError } from './failure.ts';
import type { ForgotPasswordRequest } from './forgotPassword.machine.ts';
import type { LoginRequest, Session } from './login.machine.ts';
import type { FacebookLoginRequest, GoogleLoginRequest, SocialSession } from './socialSignIn.machine.ts';
import type { Country, SignupRequest } from './register.machine.ts';
import type { ResetPasswordRequest } from './resetPassword.machine.ts';
import type { MarkNotificationsReadRequest, NotificationsPage, NotificationsRequest } from './notifications.machine.ts';
import type { Wallet } from './live.ts';
import type { DepositAddress, DepositRequest, PaymentActivity, PaymentProvider } from './deposit.machine.ts';
import type { WithdrawAnswer, WithdrawRequest } from './withdraw.machine.ts';
import type { TransactionsPage, TransactionsRequest } from './transactions.machine.ts';
import type { Category, GamesPage, GamesRequest, Provider, SubCategory } from './gameList.machine.ts';
import type { Banner } from './lobby.machine.ts';
import type { FavouriteToggle } from './favourite.machine.ts';
import type { GameSession, HouseTable, OpenGameSession } from './launch.machine.ts';
import type { BetHistoryPage, BetHistoryRequest } from './betHistory.machine.ts';
import type { BonusCalls } from './bonus.actors.ts';
import type { ReferralClaim, ReferralClaimRequest, ReferralStatus } from './referral.machine.ts';
import type { LimitsCalls } from './limits.actors.ts';

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
 * The actors of a lazily loaded page's calls (./bonus.actors.ts, ./limits.actors.ts): the module loads with
 * the first of them, not with the app. One function for every such module keeps the app's first load small.
 */
function lazyActors<TCalls>(client: ApiClient, names: readonly (keyof TCalls & string)[], load: () => Promise<TCalls>): ActorsOf<TCalls> {
  return Object.fromEntries(
    names.map((name) => [name, fromPromise<unknown, never>(({ input, signal }) => load().then((calls) => (calls[name] as LazyCall)(client, input, signal)))]),
  ) as ActorsOf<TCalls>;
}

export function createApiActors(client: ApiClient, storage: TokenStorage) {
  return {
    ...lazyActors<BonusCalls>(client, ['loadBonusOffers', 'loadUserBonuses', 'loadBonusDetail', 'claimBonus', 'forfeitBonus'], () =>
      import('./bonus.actors.ts').then((module) => module.bonusCalls),
    ),
    ...lazyActors<LimitsCalls>(client, ['loadLimits', 'saveLimits', 'selfExclude', 'saveSessionLimit'], () =>
      import('./limits.actors.ts').then((module) => module.limitsCalls),
    ),
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
    login: fromPromise<Session, LoginRequest>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/user/login', { body: input, signal }));
      return { accessToken: answer.data.accessToken, user: answer.data.user };
    }),
    googleLogin: fromPromise<SocialSession, GoogleLoginRequest>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/user/google-login', { body: input, signal }));
      const { accessToken, user, isNewUser } = answer.data;
      return { accessToken, user, isNewUser };
    }),
    facebookLogin: fromPromise<SocialSession, FacebookLoginRequest>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/user/facebook-login', { body: input, signal }));
      const { accessToken, user, isNewUser } = answer.data;
      return { accessToken, user, isNewUser };
    }),
    signup: fromPromise<User, SignupRequest>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/user/signup', { body: input, signal }));
      return answer.data.user;
    }),
    loadCountries: fromPromise<Country[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/common/get-countries', { signal }));
      return answer.data.countries;
    }),
    verifyEmail: fromPromise<{ email: string }, { token: string }>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/user/verify-email', { params: { query: { token: input.token } }, signal }));
      return { email: answer.data.email };
    }),
    forgotPassword: fromPromise<void, ForgotPasswordRequest>(async ({ input, signal }) => {
      await settle(client.POST('/user/forgot-password', { body: input, signal }));
    }),
    resetPassword: fromPromise<void, ResetPasswordRequest>(async ({ input, signal }) => {
      await settle(client.POST('/user/verify-forgot-password', { body: input, signal }));
    }),
    loadSettings: fromPromise<Settings>(async ({ signal }) => {
      const answer = await settle(client.GET('/common/get-settings', { signal }));
      return answer.data.settings;
    }),
    loadPages: fromPromise<Page[], { language: Language }>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/common/get-pages', { params: { query: { locale: input.language } }, signal }));
      return answer.data.pages;
    }),
    loadNotifications: fromPromise<NotificationsPage, NotificationsRequest>(async ({ input, signal }) => {
      const answer = await settle(
        client.GET('/common/user-notification', { params: { query: { page: input.page, limit: input.limit } }, signal }),
      );
      const { notifications, unreadCount } = answer.data;
      return { rows: notifications.rows, count: notifications.count, unreadCount };
    }),
    markNotificationsRead: fromPromise<void, MarkNotificationsReadRequest>(async ({ input, signal }) => {
      await settle(client.POST('/common/user-notification/read', { body: input, signal }));
    }),
    loadWallets: fromPromise<Wallet[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/user/get-wallets', { signal }));
      return answer.data.wallets;
    }),
    selectWallet: fromPromise<Wallet[], { walletId: number }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/user/select/wallet', { body: input, signal }));
      return answer.data.wallets;
    }),
    loadPaymentProviders: fromPromise<PaymentProvider[]>(async ({ signal }) => {
      const answer = await settle(client.GET('/payment', { signal }));
      return answer.data.paymentProviders;
    }),
    loadPaymentActivity: fromPromise<PaymentActivity, { currencyCode: string }>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/payment/activity', { params: { query: { currencyCode: input.currencyCode } }, signal }));
      return answer.data;
    }),
    requestDepositAddress: fromPromise<DepositAddress, DepositRequest>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/payment/coin-payments/deposit', { body: input, signal }));
      return answer.data;
    }),
    loadTransactions: fromPromise<TransactionsPage, TransactionsRequest>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/user/get-transactions', { params: { query: input }, signal }));
      return { rows: answer.data.transactions.rows, count: answer.data.transactions.count };
    }),
    loadBetHistory: fromPromise<BetHistoryPage, BetHistoryRequest>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/casino/get-transactions', { params: { query: input }, signal }));
      return { rows: answer.data.betHistory.rows, count: answer.data.betHistory.count };
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
    loadFavouriteGames: fromPromise<GamesPage, GamesRequest>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/casino/get-favorite-games', { params: { query: { page: input.page, limit: input.limit } }, signal }));
      return { rows: answer.data.casinoGames.rows, count: answer.data.casinoGames.count };
    }),
    toggleFavourite: fromPromise<FavouriteToggle, { gameId: number }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/casino/toggle-favorite-game', { body: input, signal }));
      return answer.data;
    }),
    launchGame: fromPromise<GameSession, { gameId: number }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/casino/init-game', { body: input, signal }));
      return answer.data.gameSession;
    }),
    launchDemo: fromPromise<GameSession, { gameId: number }>(async ({ input, signal }) => {
      const answer = await settle(client.POST('/casino/init-game-demo', { body: input, signal }));
      return answer.data.gameSession;
    }),
    loadGameSession: fromPromise<OpenGameSession, { sessionId: string }>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/casino/game-session', { params: { query: input }, signal }));
      return answer.data;
    }),
    loadHouseTable: fromPromise<HouseTable, { sessionId: string }>(async ({ input, signal }) => {
      const answer = await settle(client.GET('/house/{sessionId}', { params: { path: input }, signal }));
      return answer.data.houseTable;
    }),
    requestWithdrawal: fromPromise<WithdrawAnswer, WithdrawRequest>(async ({ input, signal }) => {
      const { idempotencyKey, ...body } = input;
      const answer = await settle(
        client.POST('/payment/coin-payments/withdraw', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal }),
      );
      // SPEC §3: success is signalled by spendRequestId; an answer without one is not a success (SPEC §8).
      if (typeof answer.data?.spendRequestId !== 'string' || answer.data.spendRequestId === '') {
        throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      }
      return answer.data;
    }),
    loadReferral: fromPromise<ReferralStatus>(async ({ signal }) => (await settle(client.GET('/bonus/referral', { signal }))).data.referral),
    claimReferral: fromPromise<ReferralClaim, ReferralClaimRequest>(async ({ input: { idempotencyKey, ...body }, signal }) =>
      (await settle(client.POST('/bonus/avail-referral', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal }))).data.userBonusWallet,
    ),
  };
}

export type ApiActors = ReturnType<typeof createApiActors>;
