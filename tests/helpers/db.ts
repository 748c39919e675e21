import { isPGlite, openDb, type Db } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedReferenceData } from '../../server/db/seed.ts';

// A fresh PGlite takes seconds to initialise; a migrated, seeded one is built once per worker and cloned.
let template: Promise<Blob> | undefined;

async function buildTemplate(): Promise<Blob> {
  const db = await openDb({ kind: 'pglite' });
  await migrate(db);
  await seedReferenceData(db);
  if (!isPGlite(db)) throw new Error('template must be PGlite');
  const blob = await db.dump();
  await db.close();
  return blob;
}

/** A migrated database with the reference data seeded, private to the caller. Close it when done. */
export async function createTestDb(): Promise<Db> {
  template ??= buildTemplate();
  return openDb({ kind: 'pglite', loadFrom: await template });
}
