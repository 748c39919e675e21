import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../scripts/lib/build-server.ts';
import { buildPGliteTemplate, PGLITE_TEMPLATE_FILE, preparePostgresTemplate } from '../helpers/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated, seeded PGlite data folder, which every PGlite test database is loaded from. */
    pgliteTemplate: string;
    /** The folder of the server built for this run (main.js, ledger-check.js), for the tests of processes. */
    serverBuild: string;
  }
}

/**
 * What the server tests share, made once per run: the database every test starts from (with
 * TEST_DATABASE_URL, a template database on that PostgreSQL server; otherwise a PGlite data folder dumped
 * to a file the workers load), and the built server the tests of real processes start. Both live in
 * folders of this run's own, so two runs side by side in one checkout do not meet.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // npm test's folder (scripts/test.mjs, TEST_RUN_DIR): a pass after the first finds the server built, and
  // the browser tests the PGlite template; npm test removes it at its end.
  const shared = process.env.TEST_RUN_DIR;
  const dir = shared ?? resolve('.tmp', `run-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const built = join(dir, 'server');
  const serverBuild = shared && existsSync(join(built, 'main.js')) ? built : await buildServer(built);
  project.provide('serverBuild', serverBuild);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await preparePostgresTemplate(url);
    project.provide('pgliteTemplate', '');
  } else {
    const file = join(dir, PGLITE_TEMPLATE_FILE);
    writeFileSync(file, await buildPGliteTemplate());
    project.provide('pgliteTemplate', file);
  }
  return () => {
    if (!shared) rmSync(dir, { recursive: true, force: true });
  };
}
