import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startProductServer } from '../../scripts/lib/processes.ts';
import { browserLaunchOptions } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of the run's product server (tests/e2e/harness.ts, sharedServer). */
    serverUrl: string;
    /** Playwright's WebSocket address of the run's Chromium (tests/e2e/harness.ts, connectBrowser). */
    browserEndpoint: string;
  }
}

/**
 * One product server and one Chromium for every browser test file, started while Vitest collects the
 * files. All test browsers come from one address, so the server runs without its per-address limits on
 * login and signup (those are tested in tests/server/accounts.test.ts), and it hashes passwords at the
 * cheapest cost; everything else is as `npm start` runs it. A file that needs its own server configuration (social sign-in) starts its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [started, launched] = await Promise.allSettled([
    // The cheapest password hashes (tests/helpers/api.ts, TEST_PASSWORD_HASHING): players are made by the dozen.
    startProductServer({ RATE_LIMIT: 'off', PASSWORD_HASH_MEMORY_KIB: '8', PASSWORD_HASH_ITERATIONS: '1' }),
    browserLaunchOptions().then((options) => chromium.launchServer(options)),
  ]);
  // One failed to start: the other is stopped before the run fails, so no process outlives it.
  if (started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (launched.status === 'fulfilled') await launched.value.close();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const browser = launched.value;
  project.provide('serverUrl', server.url);
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.stop();
  };
}
