import type { ApiActors } from '../machines/actors.ts';
import type { HouseActors } from '../machines/house.actors.ts';

/*
 * What each invoked actor does, by its `src` name, for the charts and their index. API actors name the
 * call that src/machines/actors.ts makes (createApiActors); the others say what they wait for instead.
 * A unit test fails when a machine invokes a src missing here, and the type below when an API actor is.
 */

export interface Operation {
  /** Shown on the chart's edges and in the index: 'POST /user/login'. */
  label: string;
  /** False for an actor that waits on something other than the casino API (a provider's SDK). */
  api: boolean;
  /** When the call is not always made, or something else worth a reviewer's attention. */
  note?: string;
}

export const OPERATIONS: Record<keyof ApiActors | keyof HouseActors | 'askFacebook' | 'liveEvents' | 'copyText' | 'shareLink' | 'newIdempotencyKey' | 'verifyBet' | 'readClock', Operation> = {
  restoreSession: { label: 'GET /user/get-user', api: true, note: 'only when a token was saved; none saved answers at once' },
  fetchProfile: { label: 'GET /user/get-user', api: true },
  logout: { label: 'POST /user/logout', api: true },
  login: { label: 'POST /user/login', api: true },
  googleLogin: { label: 'POST /user/google-login', api: true },
  facebookLogin: { label: 'POST /user/facebook-login', api: true },
  signup: { label: 'POST /user/signup', api: true },
  loadCountries: { label: 'GET /common/get-countries', api: true },
  updateProfile: { label: 'POST /user/update', api: true },
  loadAddresses: { label: 'GET /user/get-addresses', api: true },
  addAddress: { label: 'POST /user/add-address', api: true },
  updateAddress: { label: 'POST /user/update-address', api: true },
  removeAddress: { label: 'POST /user/remove-address', api: true },
  uploadProfileImage: { label: 'POST /user/upload-profile-image', api: true, note: 'multipart: one file part' },
  removeProfileImage: { label: 'POST /user/remove-profile-image', api: true },
  verifyEmail: { label: 'GET /user/verify-email', api: true },
  forgotPassword: { label: 'POST /user/forgot-password', api: true },
  resetPassword: { label: 'POST /user/verify-forgot-password', api: true },
  loadSettings: { label: 'GET /common/get-settings', api: true },
  loadPages: { label: 'GET /common/get-pages', api: true },
  loadNotifications: { label: 'GET /common/user-notification', api: true },
  markNotificationsRead: { label: 'POST /common/user-notification/read', api: true },
  loadWallets: { label: 'GET /user/get-wallets', api: true },
  selectWallet: { label: 'POST /user/select/wallet', api: true },
  loadPaymentProviders: { label: 'GET /payment', api: true },
  loadPaymentActivity: { label: 'GET /payment/activity', api: true },
  requestDepositAddress: { label: 'POST /payment/coin-payments/deposit', api: true },
  loadTransactions: { label: 'GET /user/get-transactions', api: true },
  loadBetHistory: { label: 'GET /casino/get-transactions', api: true },
  requestWithdrawal: { label: 'POST /payment/coin-payments/withdraw', api: true, note: 'with the Idempotency-Key of the confirmation' },
  loadReferral: { label: 'GET /bonus/referral', api: true },
  claimReferral: { label: 'POST /bonus/avail-referral', api: true, note: 'with the Idempotency-Key of the claim' },
  loadLimits: { label: 'GET /responsible-gambling/get-limits', api: true },
  saveLimits: { label: 'POST /responsible-gambling/update-limit', api: true, note: 'one request per kind of limit that changed' },
  selfExclude: { label: 'POST /responsible-gambling/update-self-exclusion', api: true, note: 'ends every session of the player' },
  saveSessionLimit: { label: 'POST /user/update-session-limit', api: true },
  loadDocumentLabels: { label: 'GET /document/get-document-labels', api: true },
  loadDocuments: { label: 'GET /document/get-documents', api: true },
  uploadDocument: { label: 'POST /document/upload', api: true, note: 'multipart: documentLabelId and file' },
  updatePassword: { label: 'POST /internal/update-password', api: true, note: 'both passwords base64-encoded' },
  resendVerificationEmail: { label: 'POST /user/resend-verification-email', api: true },
  loadBonusOffers: { label: 'GET /bonus', api: true },
  loadUserBonuses: { label: 'GET /bonus/user', api: true, note: 'a 401 is ignored (SPEC §6)' },
  loadBonusDetail: { label: 'GET /bonus/detail', api: true },
  claimBonus: { label: 'POST /bonus/avail', api: true, note: 'with the Idempotency-Key of the claim' },
  forfeitBonus: { label: 'POST /bonus/cancel', api: true, note: 'answers only when the server says success' },
  loadCategories: { label: 'GET /casino/get-categories', api: true },
  loadSubCategories: { label: 'GET /casino/get-sub-categories', api: true },
  loadProviders: { label: 'GET /casino/get-providers', api: true },
  loadBanners: { label: 'GET /common/get-banners', api: true },
  loadGames: { label: 'GET /casino/get-all-games', api: true },
  loadFavouriteGames: { label: 'GET /casino/get-favorite-games', api: true },
  toggleFavourite: { label: 'POST /casino/toggle-favorite-game', api: true },
  launchGame: { label: 'POST /casino/init-game', api: true },
  launchDemo: { label: 'POST /casino/init-game-demo', api: true },
  loadGameSession: { label: 'GET /casino/game-session', api: true },
  loadHouseTable: { label: 'GET /house/{sessionId}', api: true },
  playDice: { label: 'POST /house/{sessionId}/dice', api: true },
  playLimbo: { label: 'POST /house/{sessionId}/limbo', api: true },
  playPlinko: { label: 'POST /house/{sessionId}/plinko', api: true },
  playSlot: { label: 'POST /house/{sessionId}/slot', api: true },
  startMines: { label: 'POST /house/{sessionId}/mines', api: true },
  revealMinesTile: { label: 'POST /house/{sessionId}/mines/reveal', api: true },
  cashOutMines: { label: 'POST /house/{sessionId}/mines/cash-out', api: true },
  setNextHouseSeed: { label: 'POST /house/{sessionId}/seeds/next', api: true },
  rotateHouseSeeds: { label: 'POST /house/{sessionId}/seeds/rotate', api: true },
  askFacebook: { label: 'Facebook login popup', api: false, note: "Facebook's SDK, no casino API call" },
  copyText: { label: 'Clipboard', api: false, note: "the browser's clipboard, no casino API call" },
  shareLink: { label: 'Share sheet', api: false, note: "the browser's Web Share API, no casino API call" },
  newIdempotencyKey: { label: 'New Idempotency-Key', api: false, note: 'a random key from the browser, no casino API call' },
  verifyBet: { label: 'Recompute the bet (WebCrypto)', api: false, note: 'src/fairness in the browser, no casino API call' },
  readClock: { label: "The device's clock", api: false, note: 'the time now in this browser, no casino API call' },
  liveEvents: {
    label: 'GET /user/events (event stream)',
    api: false,
    note: "the session's live updates: subscribed while the state lasts, it sends LIVE.* events and never answers",
  },
};

export function operationOf(src: string): Operation | undefined {
  return Object.hasOwn(OPERATIONS, src) ? OPERATIONS[src as keyof typeof OPERATIONS] : undefined;
}
