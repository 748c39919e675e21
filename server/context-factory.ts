import { join } from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/db.ts';
import { createTokenService, loadJwtSecret } from './domain/tokens.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { createMailTransport } from './providers/mail.ts';

export function createContext(config: Config, db: Db, overrides: Partial<AppContext> = {}): AppContext {
  return {
    config,
    db,
    mail: createMailTransport(config, db),
    tokens: createTokenService(loadJwtSecret(config.jwtSecret, config.dataDir), config.accessTokenTtlSeconds),
    limiter: config.rateLimit ? createRateLimiter() : { hit: () => null, reset: () => undefined },
    now: () => new Date(),
    uploadsDir: join(config.dataDir, 'uploads'),
    ...overrides,
  };
}
