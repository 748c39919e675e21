import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { TokenService } from './domain/tokens.ts';
import type { RateLimiter } from './domain/rate-limit.ts';
import type { MailTransport } from './providers/mail.ts';
import type { PaymentProvider } from './providers/payment.ts';
import type { HouseWalletOptions } from './games/wallet-client.ts';

/** Everything a handler or domain function may use, built once at start and injected. */
export interface AppContext {
  config: Config;
  db: Db;
  mail: MailTransport;
  tokens: TokenService;
  limiter: RateLimiter;
  /** The server's clock; tests move it. */
  now: () => Date;
  /** Where uploaded files are kept (documents, profile images). */
  uploadsDir: string;
  /** Deposit addresses and signed webhooks (the simulator adapter, or a real provider). */
  payments: PaymentProvider;
  /** The server's own address once it listens (set by buildApp), for the simulator's webhooks. */
  listening: { url: string | null };
  /**
   * How the built-in game provider (server/games) reaches the seamless game wallet: signed HTTP calls to
   * this server's own address. Tests replace the transport to drop or delay answers.
   */
  houseWallet: HouseWalletOptions;
}
