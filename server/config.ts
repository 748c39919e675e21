import { isAbsolute, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Where PGlite keeps its files, uploads live and the lock file sits. */
  dataDir: string;
  /** Where uploaded files are kept: DATA_DIR/uploads, or UPLOADS_DIR, a folder several instances share. */
  uploadsDir: string;
  /**
   * Which proxies' X-Forwarded-For names the client, whose address the rate limits count (Fastify's
   * trustProxy): none (false), or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | string[];
  /** postgres://... selects a PostgreSQL server instead of the embedded database. */
  databaseUrl: string | null;
  simulator: boolean;
  production: boolean;
  /** Base address of the SPA, for links in emails. */
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Secret for signing access tokens; generated and kept in the data folder when not given. */
  jwtSecret: string | null;
  accessTokenTtlSeconds: number;
  googleClientId: string | null;
  googleJwksUrl: string;
  googleIssuers: string[];
  facebookAppId: string | null;
  facebookAppSecret: string | null;
  facebookGraphUrl: string;
  /** Response validation against openapi.yaml: on except in production. */
  validateResponses: boolean;
  logLevel: string;
  /** Per-IP and per-account limits on login, signup and password reset; off only for benchmarks and tests. */
  rateLimit: boolean;
  /** The Argon2id cost of new password hashes (a stored hash keeps the cost it was made with). */
  passwordHashing: PasswordHashing;
  /** The payment provider adapter (server/providers/payment.ts). */
  paymentProvider: 'simulator' | 'coinpayments';
  /** CoinPayments API v2 credentials and wallets; set exactly when paymentProvider is `coinpayments`. */
  coinpayments: CoinPaymentsConfig | null;
  /** HMAC-SHA256 key of the provider's webhooks; a random one per start when not given (simulator only). */
  paymentWebhookSecret: string | null;
  /** The payment simulator mines a block (one more confirmation for each open transfer) this often; null: off. */
  simulatorBlockMs: number | null;
  /** How often the server reconciles withdrawals left pending with the provider (server/domain/reconcile.ts); 0: never. */
  reconcileIntervalSeconds: number;
  /** A withdrawal is asked about once it has been pending this long without news. */
  reconcileAfterSeconds: number;
  /**
   * How often an idle live-event stream gets a comment (so proxies keep it open), and when a stream whose
   * session has expired is ended.
   */
  liveKeepaliveSeconds: number;
  /**
   * How many live-event streams one player may hold open on this server process: one more replaces the
   * oldest (its final event `replaced`). Counted per process, not across the instances sharing a database.
   */
  liveStreamsPerPlayer: number;
  /**
   * How the house games reach the game wallet: `http` (the default), over the network to where this server
   * listens, as an outside provider does; `in-process`, the same signed call handed to the server's own
   * router without a socket, so `npm run bench:server` can show what the hop costs.
   */
  houseWalletHop: 'http' | 'in-process';
  /**
   * Stopping: how long the server, once it takes no new connection, lets the requests it took finish (a
   * house round's wallet calls included) before it closes anyway.
   */
  shutdownDrainSeconds: number;
  /** Origins (scheme://host[:port]) whose pages may call the API from the browser (CORS); none by default. */
  corsOrigins: string[];
  /**
   * What makes a referred friend count for the referral reward: on (the default), a verified email and a
   * credited deposit of at least its currency's minimum; off, a verified email alone.
   */
  referralRequiresDeposit: boolean;
}

export interface PasswordHashing {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

/**
 * The default, and the least a production server accepts: OWASP's minimum for Argon2id (19 MiB, two
 * passes, one lane), about 10 ms a hash here. Tests make their players with far cheaper parameters.
 */
export const PRODUCTION_PASSWORD_HASHING: PasswordHashing = { memoryKib: 19_456, iterations: 2, parallelism: 1 };

function passwordHashing(env: Env, production: boolean): PasswordHashing {
  const cost = {
    memoryKib: positiveInt('PASSWORD_HASH_MEMORY_KIB', env.PASSWORD_HASH_MEMORY_KIB, PRODUCTION_PASSWORD_HASHING.memoryKib),
    iterations: positiveInt('PASSWORD_HASH_ITERATIONS', env.PASSWORD_HASH_ITERATIONS, PRODUCTION_PASSWORD_HASHING.iterations),
    parallelism: positiveInt('PASSWORD_HASH_PARALLELISM', env.PASSWORD_HASH_PARALLELISM, PRODUCTION_PASSWORD_HASHING.parallelism),
  };
  // Argon2 needs 8 KiB per lane at least.
  if (cost.memoryKib < 8 * cost.parallelism) throw new Error('PASSWORD_HASH_MEMORY_KIB must be at least 8 per PASSWORD_HASH_PARALLELISM');
  if (production && (cost.memoryKib < PRODUCTION_PASSWORD_HASHING.memoryKib || cost.iterations < PRODUCTION_PASSWORD_HASHING.iterations)) {
    throw new Error(
      `In production the password hash costs at least ${PRODUCTION_PASSWORD_HASHING.memoryKib} KiB (PASSWORD_HASH_MEMORY_KIB) and ${PRODUCTION_PASSWORD_HASHING.iterations} passes (PASSWORD_HASH_ITERATIONS)`,
    );
  }
  return cost;
}

/** One CoinPayments wallet the casino pays in and out of, per casino currency. */
export interface CoinPaymentsWalletConfig {
  /** CoinPayments' id of the wallet (the walletIdStr of its API). */
  walletId: string;
  /** CoinPayments' id of the wallet's currency (its currencies list: 2 is LTC). */
  currencyId: string;
}

export interface CoinPaymentsConfig {
  clientId: string;
  clientSecret: string;
  /** Base address of the API, without the /api/v2 part. */
  apiUrl: string;
  /** By casino currency code (LTC, ...). */
  wallets: Record<string, CoinPaymentsWalletConfig>;
}

type Env = Record<string, string | undefined>;

function flag(value: string | undefined): boolean | null {
  if (value === undefined || value === '') return null;
  if (['1', 'on', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'off', 'false', 'no'].includes(value.toLowerCase())) return false;
  throw new Error(`Expected on or off, got "${value}"`);
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

/**
 * COINPAYMENTS_WALLETS: comma-separated `CODE:currencyId:walletId` entries, one per casino currency,
 * e.g. `LTC:2:0a54b29f-51cb-44a8-9bed-111c5cb1b335`.
 */
function coinPaymentsWallets(value: string | undefined): Record<string, CoinPaymentsWalletConfig> {
  const wallets: Record<string, CoinPaymentsWalletConfig> = {};
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = /^([A-Z][A-Z0-9]{1,9}):([A-Za-z0-9.-]+):([A-Za-z0-9-]+)$/.exec(entry);
    if (!match) throw new Error(`COINPAYMENTS_WALLETS entries are CODE:currencyId:walletId, got "${entry}"`);
    wallets[match[1]!] = { currencyId: match[2]!, walletId: match[3]! };
  }
  return wallets;
}

/**
 * The adapter: PAYMENT_PROVIDER when given; otherwise CoinPayments when its credentials are set, else the
 * simulator. CoinPayments without credentials or wallets refuses to start rather than hand out nothing.
 */
function paymentSettings(env: Env): { paymentProvider: 'simulator' | 'coinpayments'; coinpayments: CoinPaymentsConfig | null } {
  const clientId = env.COINPAYMENTS_CLIENT_ID || null;
  const clientSecret = env.COINPAYMENTS_CLIENT_SECRET || null;
  const requested = env.PAYMENT_PROVIDER || (clientId && clientSecret ? 'coinpayments' : 'simulator');
  if (requested === 'simulator') return { paymentProvider: 'simulator', coinpayments: null };
  if (requested !== 'coinpayments') throw new Error(`PAYMENT_PROVIDER must be simulator or coinpayments, got "${requested}"`);
  if (!clientId || !clientSecret) throw new Error('PAYMENT_PROVIDER=coinpayments needs COINPAYMENTS_CLIENT_ID and COINPAYMENTS_CLIENT_SECRET');
  const wallets = coinPaymentsWallets(env.COINPAYMENTS_WALLETS);
  if (Object.keys(wallets).length === 0) throw new Error('PAYMENT_PROVIDER=coinpayments needs COINPAYMENTS_WALLETS (CODE:currencyId:walletId, ...)');
  const apiUrl = (env.COINPAYMENTS_API_URL || 'https://a-api.coinpayments.net').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(apiUrl)) throw new Error(`COINPAYMENTS_API_URL must be an http(s) URL, got "${apiUrl}"`);
  return { paymentProvider: 'coinpayments', coinpayments: { clientId, clientSecret, apiUrl, wallets } };
}

/** TRUST_PROXY: comma-separated addresses and CIDR ranges of the load balancers in front of the server. */
function trustProxy(value: string | undefined): Config['trustProxy'] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) return false;
  for (const entry of entries) {
    if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry)) throw new Error(`TRUST_PROXY takes addresses and CIDR ranges, got "${entry}"`);
  }
  return entries;
}

function houseWalletHop(value: string | undefined): Config['houseWalletHop'] {
  if (value === undefined || value === '' || value === 'http') return 'http';
  if (value === 'in-process') return 'in-process';
  throw new Error(`HOUSE_WALLET_HOP must be http or in-process, got "${value}"`);
}

/** CORS_ORIGINS: comma-separated origins, each `scheme://host[:port]` exactly as a browser sends it in Origin. */
function corsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/?#\s]+$/.test(origin) || new URL(origin).origin !== origin) {
      throw new Error(`CORS_ORIGINS entries are origins such as https://casino.example, got "${origin}"`);
    }
  }
  return origins;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const production = env.NODE_ENV === 'production';
  const port = positiveInt('PORT', env.PORT, 8080);
  const dataDir = env.DATA_DIR ? (isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(cwd, env.DATA_DIR)) : resolve(cwd, '.data');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    uploadsDir: env.UPLOADS_DIR ? resolve(cwd, env.UPLOADS_DIR) : resolve(dataDir, 'uploads'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    databaseUrl,
    simulator: flag(env.SIMULATOR) ?? !production,
    production,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Casino <no-reply@casino.local>',
    jwtSecret: env.JWT_SECRET || null,
    accessTokenTtlSeconds: positiveInt('ACCESS_TOKEN_TTL_SECONDS', env.ACCESS_TOKEN_TTL_SECONDS, 24 * 60 * 60),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    googleJwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
    googleIssuers: (env.GOOGLE_ISSUERS || 'https://accounts.google.com,accounts.google.com').split(',').map((s) => s.trim()),
    facebookAppId: env.FACEBOOK_APP_ID || null,
    facebookAppSecret: env.FACEBOOK_APP_SECRET || null,
    facebookGraphUrl: (env.FACEBOOK_GRAPH_URL || 'https://graph.facebook.com').replace(/\/+$/, ''),
    validateResponses: flag(env.RESPONSE_VALIDATION) ?? !production,
    logLevel: env.LOG_LEVEL || (production ? 'info' : 'warn'),
    rateLimit: flag(env.RATE_LIMIT) ?? true,
    passwordHashing: passwordHashing(env, production),
    ...paymentSettings(env),
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET || null,
    simulatorBlockMs: env.SIMULATOR_BLOCK_MS ? positiveInt('SIMULATOR_BLOCK_MS', env.SIMULATOR_BLOCK_MS, 1) : null,
    reconcileIntervalSeconds: env.RECONCILE_INTERVAL_SECONDS === '0' ? 0 : positiveInt('RECONCILE_INTERVAL_SECONDS', env.RECONCILE_INTERVAL_SECONDS, 60),
    reconcileAfterSeconds: positiveInt('RECONCILE_AFTER_SECONDS', env.RECONCILE_AFTER_SECONDS, 600),
    liveKeepaliveSeconds: positiveInt('LIVE_KEEPALIVE_SECONDS', env.LIVE_KEEPALIVE_SECONDS, 15),
    liveStreamsPerPlayer: positiveInt('LIVE_STREAMS_PER_PLAYER', env.LIVE_STREAMS_PER_PLAYER, 5),
    houseWalletHop: houseWalletHop(env.HOUSE_WALLET_HOP),
    shutdownDrainSeconds: env.SHUTDOWN_DRAIN_SECONDS === '0' ? 0 : positiveInt('SHUTDOWN_DRAIN_SECONDS', env.SHUTDOWN_DRAIN_SECONDS, 10),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    referralRequiresDeposit: flag(env.REFERRAL_REQUIRES_DEPOSIT) ?? true,
  };
}
