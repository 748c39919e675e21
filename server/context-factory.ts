import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/db.ts';
import { createTokenService, databaseKeys, loadJwtSecret, type SigningKeys } from './domain/tokens.ts';
import { createRateLimiter, NO_RATE_LIMITS } from './domain/rate-limit.ts';
import { createCoinPaymentsProvider } from './providers/coinpayments.ts';
import { createMailTransport } from './providers/mail.ts';
import { WEBHOOK_PATHS, type PaymentProvider } from './providers/payment.ts';
import { createSimulatorPaymentProvider } from './providers/payment-simulator.ts';
import { httpWalletTransport } from './games/wallet-client.ts';

/** Where CoinPayments was told to send this server's webhooks (their signatures cover the URL). */
export function coinPaymentsWebhookUrls(config: Config): string[] {
  return [`${config.publicUrl}/api/v1${WEBHOOK_PATHS.coinpayments}`];
}

export function createContext(config: Config, db: Db, overrides: Partial<AppContext> = {}): AppContext {
  const now = overrides.now ?? (() => new Date());
  const listening: AppContext['listening'] = overrides.listening ?? { url: null };
  return {
    config,
    db,
    mail: createMailTransport(config, db),
    tokens: createTokenService(signingKeys(config, db), config.accessTokenTtlSeconds),
    // In the database, so that every instance on it counts together.
    limiter: config.rateLimit ? createRateLimiter(db) : NO_RATE_LIMITS,
    now,
    uploadsDir: config.uploadsDir,
    payments: paymentProvider(config, db, now, listening),
    listening,
    // The house games call the wallet where this server listens; 5 s an attempt, 3 attempts.
    houseWallet: { transport: httpWalletTransport({ selfUrl: () => listening.url, timeoutMs: 5_000 }), attempts: 3, retryDelayMs: 50 },
    ...overrides,
  };
}

/**
 * JWT_SECRET when set; else, on PostgreSQL, the keys kept in the database, which every instance on it
 * shares; else (PGlite, one server) a secret generated into the data folder.
 */
function signingKeys(config: Config, db: Db): Uint8Array | SigningKeys {
  if (!config.jwtSecret && db.kind === 'postgres') return databaseKeys(db);
  return loadJwtSecret(config.jwtSecret, config.dataDir);
}

function paymentProvider(config: Config, db: Db, now: () => Date, listening: AppContext['listening']): PaymentProvider {
  if (config.paymentProvider === 'coinpayments' && config.coinpayments) {
    return createCoinPaymentsProvider({ ...config.coinpayments, webhookUrls: () => coinPaymentsWebhookUrls(config) });
  }
  return createSimulatorPaymentProvider({
    db,
    // The simulator signs and the server verifies in the same process: a per-start key will do.
    secret: config.paymentWebhookSecret ?? randomBytes(32).toString('hex'),
    now,
    blockMs: config.simulatorBlockMs,
    selfUrl: () => listening.url,
    log: (message, error) => console.warn(message, error instanceof Error ? error.message : (error ?? '')),
  });
}
