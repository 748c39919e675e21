import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPGliteTemplate, preparePostgresTemplate } from '../helpers/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated, seeded PGlite data folder, which every PGlite test database is loaded from. */
    pgliteTemplate: string;
  }
}

/**
 * The database every server test starts from, built once per run: with TEST_DATABASE_URL, a template
 * database on that PostgreSQL server; otherwise a PGlite data folder dumped to a file the workers load.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await preparePostgresTemplate(url);
    project.provide('pgliteTemplate', '');
    return () => undefined;
  }
  const dir = resolve('.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `pglite-template-${process.pid}.tar`);
  writeFileSync(file, await buildPGliteTemplate());
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}
