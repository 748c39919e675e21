import type { NonReducibleUnknown } from 'xstate';
import type { ApiClient } from '../api/client.ts';
import { settle } from './actors.ts';
import type { Language, User } from './effects.ts';
import { ApiFailure } from './failure.ts';
import type { ForgotPasswordRequest } from './forgotPassword.machine.ts';
import type { LoginRequest, Session } from './login.machine.ts';
import type { FacebookLoginRequest, GoogleLoginRequest, SocialSession } from './socialSignIn.machine.ts';
import type { Country, SignupRequest } from './register.machine.ts';
import type { ResetPasswordRequest } from './resetPassword.machine.ts';
import type { MarkNotificationsReadRequest, NotificationsPage, NotificationsRequest } from './notifications.machine.ts';
import type { Page } from './page.machine.ts';
import type { Wallet } from './live.ts';
import type { DepositAddress, DepositRequest, PaymentActivity, PaymentProvider } from './deposit.machine.ts';
import type { WithdrawAnswer, WithdrawRequest } from './withdraw.machine.ts';
import type { TransactionsPage, TransactionsRequest } from './transactions.machine.ts';
import type { GamesPage, GamesRequest } from './gameList.machine.ts';
import type { FavouriteToggle } from './favourite.machine.ts';
import type { GameSession, HouseTable, OpenGameSession } from './launch.machine.ts';
import type { BetHistoryPage, BetHistoryRequest } from './betHistory.machine.ts';
import type { ReferralClaim, ReferralClaimRequest, ReferralStatus } from './referral.machine.ts';

/*
 * The API calls of every flow a visitor's lobby does not run (the account dialogs, the wallet, the
 * player's screens, the game page), one per actor name. src/machines/actors.ts makes them actors that
 * load this module with the first of them, so the SPA's first load carries only the lobby's and the
 * session's calls.
 */

export const playerCalls = {
  login: async (client: ApiClient, input: LoginRequest, signal: AbortSignal): Promise<Session> => {
    const answer = await settle(client.POST('/user/login', { body: input, signal }));
    return { accessToken: answer.data.accessToken, user: answer.data.user };
  },
  googleLogin: async (client: ApiClient, input: GoogleLoginRequest, signal: AbortSignal): Promise<SocialSession> => {
    const answer = await settle(client.POST('/user/google-login', { body: input, signal }));
    const { accessToken, user, isNewUser } = answer.data;
    return { accessToken, user, isNewUser };
  },
  facebookLogin: async (client: ApiClient, input: FacebookLoginRequest, signal: AbortSignal): Promise<SocialSession> => {
    const answer = await settle(client.POST('/user/facebook-login', { body: input, signal }));
    const { accessToken, user, isNewUser } = answer.data;
    return { accessToken, user, isNewUser };
  },
  signup: async (client: ApiClient, input: SignupRequest, signal: AbortSignal): Promise<User> => {
    const answer = await settle(client.POST('/user/signup', { body: input, signal }));
    return answer.data.user;
  },
  loadCountries: async (client: ApiClient, _input: NonReducibleUnknown, signal: AbortSignal): Promise<Country[]> => {
    const answer = await settle(client.GET('/common/get-countries', { signal }));
    return answer.data.countries;
  },
  verifyEmail: async (client: ApiClient, input: { token: string }, signal: AbortSignal): Promise<{ email: string }> => {
    const answer = await settle(client.GET('/user/verify-email', { params: { query: { token: input.token } }, signal }));
    return { email: answer.data.email };
  },
  forgotPassword: async (client: ApiClient, input: ForgotPasswordRequest, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/user/forgot-password', { body: input, signal }));
  },
  resetPassword: async (client: ApiClient, input: ResetPasswordRequest, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/user/verify-forgot-password', { body: input, signal }));
  },
  loadPages: async (client: ApiClient, input: { language: Language }, signal: AbortSignal): Promise<Page[]> => {
    const answer = await settle(client.GET('/common/get-pages', { params: { query: { locale: input.language } }, signal }));
    return answer.data.pages;
  },
  loadNotifications: async (client: ApiClient, input: NotificationsRequest, signal: AbortSignal): Promise<NotificationsPage> => {
    const answer = await settle(
      client.GET('/common/user-notification', { params: { query: { page: input.page, limit: input.limit } }, signal }),
    );
    const { notifications, unreadCount } = answer.data;
    return { rows: notifications.rows, count: notifications.count, unreadCount };
  },
  markNotificationsRead: async (client: ApiClient, input: MarkNotificationsReadRequest, signal: AbortSignal): Promise<void> => {
    await settle(client.POST('/common/user-notification/read', { body: input, signal }));
  },
  loadWallets: async (client: ApiClient, _input: NonReducibleUnknown, signal: AbortSignal): Promise<Wallet[]> => {
    const answer = await settle(client.GET('/user/get-wallets', { signal }));
    return answer.data.wallets;
  },
  selectWallet: async (client: ApiClient, input: { walletId: number }, signal: AbortSignal): Promise<Wallet[]> => {
    const answer = await settle(client.POST('/user/select/wallet', { body: input, signal }));
    return answer.data.wallets;
  },
  loadPaymentProviders: async (client: ApiClient, _input: NonReducibleUnknown, signal: AbortSignal): Promise<PaymentProvider[]> => {
    const answer = await settle(client.GET('/payment', { signal }));
    return answer.data.paymentProviders;
  },
  loadPaymentActivity: async (client: ApiClient, input: { currencyCode: string }, signal: AbortSignal): Promise<PaymentActivity> => {
    const answer = await settle(client.GET('/payment/activity', { params: { query: { currencyCode: input.currencyCode } }, signal }));
    return answer.data;
  },
  requestDepositAddress: async (client: ApiClient, input: DepositRequest, signal: AbortSignal): Promise<DepositAddress> => {
    const answer = await settle(client.POST('/payment/coin-payments/deposit', { body: input, signal }));
    return answer.data;
  },
  loadTransactions: async (client: ApiClient, input: TransactionsRequest, signal: AbortSignal): Promise<TransactionsPage> => {
    const answer = await settle(client.GET('/user/get-transactions', { params: { query: input }, signal }));
    return { rows: answer.data.transactions.rows, count: answer.data.transactions.count };
  },
  loadBetHistory: async (client: ApiClient, input: BetHistoryRequest, signal: AbortSignal): Promise<BetHistoryPage> => {
    const answer = await settle(client.GET('/casino/get-transactions', { params: { query: input }, signal }));
    return { rows: answer.data.betHistory.rows, count: answer.data.betHistory.count };
  },
  loadFavouriteGames: async (client: ApiClient, input: GamesRequest, signal: AbortSignal): Promise<GamesPage> => {
    const answer = await settle(client.GET('/casino/get-favorite-games', { params: { query: { page: input.page, limit: input.limit } }, signal }));
    return { rows: answer.data.casinoGames.rows, count: answer.data.casinoGames.count };
  },
  toggleFavourite: async (client: ApiClient, input: { gameId: number }, signal: AbortSignal): Promise<FavouriteToggle> => {
    const answer = await settle(client.POST('/casino/toggle-favorite-game', { body: input, signal }));
    return answer.data;
  },
  launchGame: async (client: ApiClient, input: { gameId: number }, signal: AbortSignal): Promise<GameSession> => {
    const answer = await settle(client.POST('/casino/init-game', { body: input, signal }));
    return answer.data.gameSession;
  },
  launchDemo: async (client: ApiClient, input: { gameId: number }, signal: AbortSignal): Promise<GameSession> => {
    const answer = await settle(client.POST('/casino/init-game-demo', { body: input, signal }));
    return answer.data.gameSession;
  },
  loadGameSession: async (client: ApiClient, input: { sessionId: string }, signal: AbortSignal): Promise<OpenGameSession> => {
    const answer = await settle(client.GET('/casino/game-session', { params: { query: input }, signal }));
    return answer.data;
  },
  loadHouseTable: async (client: ApiClient, input: { sessionId: string }, signal: AbortSignal): Promise<HouseTable> => {
    const answer = await settle(client.GET('/house/{sessionId}', { params: { path: input }, signal }));
    return answer.data.houseTable;
  },
  requestWithdrawal: async (client: ApiClient, input: WithdrawRequest, signal: AbortSignal): Promise<WithdrawAnswer> => {
    const { idempotencyKey, ...body } = input;
    const answer = await settle(
      client.POST('/payment/coin-payments/withdraw', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal }),
    );
    // SPEC §3: success is signalled by spendRequestId; an answer without one is not a success (SPEC §8).
    if (typeof answer.data?.spendRequestId !== 'string' || answer.data.spendRequestId === '') {
      throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
    }
    return answer.data;
  },
  loadReferral: async (client: ApiClient, _input: NonReducibleUnknown, signal: AbortSignal): Promise<ReferralStatus> => (await settle(client.GET('/bonus/referral', { signal }))).data.referral,
  claimReferral: async (client: ApiClient, { idempotencyKey, ...body }: ReferralClaimRequest, signal: AbortSignal): Promise<ReferralClaim> =>
    (await settle(client.POST('/bonus/avail-referral', { body, params: { header: { 'Idempotency-Key': idempotencyKey } }, signal }))).data.userBonusWallet,
};

export type PlayerCalls = typeof playerCalls;
