import type { InputFrom, OutputFrom } from 'xstate';
import { operationOf } from '../../src/flows/operations.ts';
import type { ApiActors } from '../../src/machines/actors.ts';
import type { HouseActors } from '../../src/machines/house.actors.ts';
import { PAGE_OPENED } from '../../src/flows/fixtures/responsibleGambling.ts';
import { exclusionBody } from '../../src/machines/selfExclusion.machine.ts';

/*
 * For each API actor (src/machines/actors.ts): the request it sends for its input, and the success
 * envelope the server answers with for its output. Which operation it calls comes from
 * src/flows/operations.ts (the charts' table). The model tests' fakes check both against openapi.yaml,
 * so a fixture cannot say something the server never would.
 */

type Src = keyof ApiActors;

export interface ActorEnvelopes<K extends Src> {
  /** The request the actor sends for an input. */
  request: (input: InputFrom<ApiActors[K]>) => { body?: unknown; query?: Record<string, unknown> };
  /**
   * The 200 body the server answered for an output, or null when the actor answers without calling
   * the server (a session restore without a saved token).
   */
  response: (output: OutputFrom<ApiActors[K]>) => unknown;
}

/** A session's end, as the server sends it: not kept by the actors, required by the envelope. */
const EXPIRES_AT = '2099-01-01T00:00:00.000Z';
const success = { data: { success: true }, errors: [] };
const none = () => ({});

export const ENVELOPES: { [K in Src]?: ActorEnvelopes<K> } = {
  restoreSession: {
    request: none,
    response: (output) => (output === null ? null : { data: { user: output.user }, errors: [] }),
  },
  fetchProfile: { request: none, response: (user) => ({ data: { user }, errors: [] }) },
  logout: { request: none, response: () => success },
  login: {
    request: (body) => ({ body }),
    response: (session) => ({ data: { ...session, expiresAt: EXPIRES_AT }, errors: [] }),
  },
  googleLogin: {
    request: (body) => ({ body }),
    response: (session) => ({ data: { ...session, expiresAt: EXPIRES_AT }, errors: [] }),
  },
  facebookLogin: {
    request: (body) => ({ body }),
    response: (session) => ({ data: { ...session, expiresAt: EXPIRES_AT }, errors: [] }),
  },
  signup: { request: (body) => ({ body }), response: (user) => ({ data: { user }, errors: [] }) },
  loadCountries: {
    request: none,
    response: (countries) => ({ data: { countries }, errors: [] }),
  },
  updateProfile: { request: (body) => ({ body }), response: (user) => ({ data: { user }, errors: [] }) },
  loadAddresses: { request: none, response: (addresses) => ({ data: { addresses }, errors: [] }) },
  addAddress: { request: (body) => ({ body }), response: (address) => ({ data: { address }, errors: [] }) },
  updateAddress: { request: (body) => ({ body }), response: (address) => ({ data: { address }, errors: [] }) },
  removeAddress: { request: (body) => ({ body }), response: () => success },
  uploadProfileImage: { request: (input) => ({ body: { file: input.file.name } }), response: (user) => ({ data: { user }, errors: [] }) },
  removeProfileImage: { request: none, response: (user) => ({ data: { user }, errors: [] }) },
  verifyEmail: {
    request: (input) => ({ query: { token: input.token } }),
    response: (output) => ({ data: { success: true, email: output.email }, errors: [] }),
  },
  forgotPassword: { request: (body) => ({ body }), response: () => success },
  resetPassword: { request: (body) => ({ body }), response: () => success },
  loadSettings: {
    request: none,
    response: (settings) => ({ data: { settings }, errors: [] }),
  },
  loadPages: {
    request: (input) => ({ query: { locale: input.language } }),
    response: (pages) => ({ data: { pages }, errors: [] }),
  },
  loadNotifications: {
    request: (input) => ({ query: { page: input.page, limit: input.limit } }),
    response: (page) => ({
      data: { notifications: { rows: page.rows, count: page.count }, unreadCount: page.unreadCount },
      errors: [],
    }),
  },
  markNotificationsRead: { request: (body) => ({ body }), response: () => success },
  loadWallets: { request: none, response: (wallets) => ({ data: { wallets }, errors: [] }) },
  selectWallet: { request: (body) => ({ body }), response: (wallets) => ({ data: { wallets }, errors: [] }) },
  loadPaymentProviders: { request: none, response: (paymentProviders) => ({ data: { paymentProviders }, errors: [] }) },
  loadPaymentActivity: { request: (input) => ({ query: { currencyCode: input.currencyCode } }), response: (activity) => ({ data: activity, errors: [] }) },
  requestDepositAddress: { request: (body) => ({ body }), response: (address) => ({ data: address, errors: [] }) },
  loadTransactions: {
    request: (query) => ({ query: { ...query } }),
    response: (page) => ({ data: { transactions: { rows: page.rows, count: page.count } }, errors: [] }),
  },
  loadBetHistory: {
    request: (query) => ({ query: { ...query } }),
    response: (page) => ({ data: { betHistory: { rows: page.rows, count: page.count } }, errors: [] }),
  },
  loadBonusOffers: { request: () => ({ query: { limit: 100 } }), response: (rows) => ({ data: { bonus: { rows, count: rows.length } }, errors: [] }) },
  loadUserBonuses: { request: () => ({ query: { limit: 100 } }), response: (rows) => ({ data: { userBonus: { rows, count: rows.length } }, errors: [] }) },
  loadBonusDetail: { request: (query) => ({ query: { ...query } }), response: (bonus) => ({ data: { bonus }, errors: [] }) },
  claimBonus: { request: ({ idempotencyKey: _key, ...body }) => ({ body }), response: (userBonus) => ({ data: { userBonus }, errors: [] }) },
  forfeitBonus: { request: (body) => ({ body }), response: () => success },
  loadCategories: { request: none, response: (categories) => ({ data: { categories }, errors: [] }) },
  loadSubCategories: { request: none, response: (subCategories) => ({ data: { subCategories }, errors: [] }) },
  loadProviders: { request: none, response: (providers) => ({ data: { providers }, errors: [] }) },
  loadBanners: { request: none, response: (banners) => ({ data: { banners }, errors: [] }) },
  loadGames: {
    request: (query) => ({ query: { ...query } }),
    response: (page) => ({ data: { casinoGames: { rows: page.rows, count: page.count } }, errors: [] }),
  },
  loadFavouriteGames: {
    request: (query) => ({ query: { page: query.page, limit: query.limit } }),
    response: (page) => ({ data: { casinoGames: { rows: page.rows, count: page.count } }, errors: [] }),
  },
  toggleFavourite: { request: (body) => ({ body }), response: (toggle) => ({ data: toggle, errors: [] }) },
  launchGame: { request: (body) => ({ body }), response: (gameSession) => ({ data: { gameSession }, errors: [] }) },
  launchDemo: { request: (body) => ({ body }), response: (gameSession) => ({ data: { gameSession }, errors: [] }) },
  loadGameSession: { request: (query) => ({ query: { ...query } }), response: (open) => ({ data: open, errors: [] }) },
  // The session is in the path, which the fakes do not check.
  loadHouseTable: { request: none, response: (houseTable) => ({ data: { houseTable }, errors: [] }) },
  requestWithdrawal: { request: ({ idempotencyKey: _key, ...body }) => ({ body }), response: (answer) => ({ data: answer, errors: [] }) },
  loadReferral: { request: none, response: (referral) => ({ data: { referral }, errors: [] }) },
  loadLimits: { request: none, response: (limits) => ({ data: { limits }, errors: [] }) },
  saveLimits: { request: (body) => ({ body }), response: (limits) => ({ data: { success: true, limits }, errors: [] }) },
  // Sent when the fixtures' page opened: a temporary exclusion ends its days after, plus the travel minute.
  selfExclude: { request: (input) => ({ body: exclusionBody(input, Date.parse(PAGE_OPENED)) }), response: (selfExclusion) => ({ data: { success: true, selfExclusion }, errors: [] }) },
  saveSessionLimit: { request: (body) => ({ body }), response: (sessionLimitMinutes) => ({ data: { success: true, sessionLimitMinutes }, errors: [] }) },
  loadDocumentLabels: { request: none, response: (documentLabels) => ({ data: { documentLabels }, errors: [] }) },
  loadDocuments: { request: none, response: (documents) => ({ data: { documents }, errors: [] }) },
  uploadDocument: { request: (input) => ({ body: { documentLabelId: String(input.documentLabelId), file: input.file.name } }), response: (document) => ({ data: { document }, errors: [] }) },
  updatePassword: { request: (body) => ({ body }), response: () => success },
  resendVerificationEmail: { request: (body) => ({ body }), response: () => success },
  claimReferral: { request: ({ idempotencyKey: _key, ...body }) => ({ body }), response: (userBonusWallet) => ({ data: { userBonusWallet }, errors: [] }) },
};

type HouseSrc = Exclude<keyof HouseActors, keyof ApiActors>;
const houseRound = (houseRound: unknown) => ({ data: { houseRound }, errors: [] });

/** The house games' pages' actors (src/machines/house.actors.ts); loadHouseTable is the game page's too. */
export const HOUSE_ENVELOPES: { [K in HouseSrc]: { request: (input: InputFrom<HouseActors[K]>) => { body?: unknown }; response: (output: OutputFrom<HouseActors[K]>) => unknown } } = {
  playDice: { request: ({ amount, params }) => ({ body: { amount, target: params.target, direction: params.direction } }), response: houseRound },
  playLimbo: { request: ({ amount, params }) => ({ body: { amount, target: params.target } }), response: houseRound },
  playPlinko: { request: ({ amount, params }) => ({ body: { amount, rows: params.rows, risk: params.risk } }), response: houseRound },
  playSlot: { request: ({ amount }) => ({ body: { amount } }), response: houseRound },
  startMines: { request: ({ amount, mineCount }) => ({ body: { amount, mineCount } }), response: houseRound },
  revealMinesTile: { request: ({ tile }) => ({ body: { tile } }), response: houseRound },
  cashOutMines: { request: none, response: houseRound },
  setNextHouseSeed: { request: ({ clientSeed }) => ({ body: { clientSeed } }), response: (seeds) => ({ data: { seeds }, errors: [] }) },
  rotateHouseSeeds: { request: ({ clientSeed }) => ({ body: clientSeed === null ? {} : { clientSeed } }), response: (rotation) => ({ data: rotation, errors: [] }) },
};

export interface ApiOperation {
  /** `METHOD /path`, as in openapi.yaml. */
  route: string;
  request: (input: unknown) => { body?: unknown; query?: Record<string, unknown> };
  response: (output: unknown) => unknown;
}

/** True for an actor that calls the casino API (src/flows/operations.ts says which). */
export function isApiActor(src: string): boolean {
  return operationOf(src)?.api === true;
}

/** The operation an API actor calls, with its envelopes; null for an actor that calls no API (an SDK). */
export function apiOperation(src: string): ApiOperation | null {
  const operation = operationOf(src);
  if (!operation?.api) return null;
  const envelopes = (ENVELOPES as Record<string, ApiOperation | undefined>)[src] ?? (HOUSE_ENVELOPES as unknown as Record<string, ApiOperation | undefined>)[src];
  if (!envelopes) throw new Error(`no request and response envelopes for API actor ${src} in tests/mbt/operations.ts`);
  return { route: operation.label, request: envelopes.request, response: envelopes.response };
}
