import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startProductServer } from '../../scripts/lib/processes.ts';
import { openDb } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedReferenceData } from '../../server/db/seed.ts';
import { PGLITE_TEMPLATE_FILE } from '../helpers/db.ts';
import { browserLaunchOptions, type KeyedGame } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of the run's product server (tests/e2e/harness.ts, sharedServer). */
    serverUrl: string;
    /** Playwright's WebSocket address of the run's Chromium (tests/e2e/harness.ts, connectBrowser). */
    browserEndpoint: string;
    /** Two real-money games of the run's server and their provider's wallet key (tests/e2e/bet-history.test.ts). */
    gameWalletKeys: KeyedGame[];
    /** A migrated, seeded data folder as the run's server started on, for the files' own servers (startOwnServer). */
    serverTemplate: string;
  }
}

/**
 * One product server and one Chromium for every browser test file, started while Vitest collects the
 * files. All test browsers come from one address, so the server runs without its per-address limits on
 * login and signup (those are tested in tests/server/accounts.test.ts), and it hashes passwords at the
 * cheapest cost; everything else is as `npm start` runs it. Its database is migrated and seeded here
 * first, so that two games' wallet key can be given to the files that play as their provider (keyedGames
 * in ./harness.ts). A file that needs its own server configuration (social sign-in) starts its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'casino-e2e-'));
  const template = mkdtempSync(join(tmpdir(), 'casino-e2e-template-'));
  const [started, launched] = await Promise.allSettled([
    // The server's database is made first, to read a game provider's wallet key as the provider would be
    // given it; the server then starts on it as on any folder it has opened before. A copy of the folder
    // is where the files' own servers start (a first start migrates and seeds: 5.3 s against 2.5).
    keyedGames(dataDir).then(async (games) => {
      project.provide('gameWalletKeys', games);
      cpSync(dataDir, template, { recursive: true });
      project.provide('serverTemplate', template);
      // The cheapest password hashes (tests/helpers/api.ts, TEST_PASSWORD_HASHING): players are made by the dozen.
      return startProductServer({ RATE_LIMIT: 'off', PASSWORD_HASH_MEMORY_KIB: '8', PASSWORD_HASH_ITERATIONS: '1' }, dataDir);
    }),
    browserLaunchOptions().then((options) => chromium.launchServer(options)),
  ]);
  // One failed to start: the other is stopped before the run fails, so no process outlives it.
  if (started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (launched.status === 'fulfilled') await launched.value.close();
    for (const folder of [dataDir, template]) rmSync(folder, { recursive: true, force: true });
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const browser = launched.value;
  project.provide('serverUrl', server.url);
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.stop();
    rmSync(template, { recursive: true, force: true });
  };
}

/**
 * Makes the server's database in `dataDir`, migrated and seeded: loaded from the server tests' template
 * when npm test's first pass left one (tests/setup/global.ts: 1 s of CPU against 6 to migrate and seed),
 * else made here. Answers two real-money desktop games with their provider's wallet key.
 */
async function keyedGames(dataDir: string): Promise<KeyedGame[]> {
  const template = process.env.TEST_RUN_DIR ? join(process.env.TEST_RUN_DIR, PGLITE_TEMPLATE_FILE) : '';
  const loaded = template !== '' && existsSync(template);
  const db = await openDb({ kind: 'pglite', dataDir: join(dataDir, 'pglite'), ...(loaded ? { loadFrom: new Blob([readFileSync(template)]) } : {}) });
  try {
    if (!loaded) {
      await migrate(db);
      await seedReferenceData(db);
    }
    const rows = await db.query<{ id: number; name: string; wallet_secret: string }>(
      `SELECT DISTINCT ON (g.name) g.id, g.name, p.wallet_secret FROM games g JOIN providers p ON p.id = g.provider_id
       WHERE g.active AND p.active AND 'desktop' = ANY (g.devices) ORDER BY g.name, g.id LIMIT 2`,
    );
    if (rows.length < 2) throw new Error('the seed has fewer than two playable games');
    return rows.map((row) => ({ id: row.id, name: row.name, secret: row.wallet_secret }));
  } finally {
    await db.close();
  }
}
