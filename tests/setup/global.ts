import { preparePostgresTemplate } from '../helpers/db.ts';

/** With TEST_DATABASE_URL, the PostgreSQL template every test database is copied from is built once here. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await preparePostgresTemplate(url);
}
