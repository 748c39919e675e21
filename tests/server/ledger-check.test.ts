import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openDb } from '../../server/db/db.ts';
import { acquireDataDirLock } from '../../server/db/lock.ts';
import { postTransaction, systemAccount, transfer, walletAccount } from '../../server/domain/ledger.ts';
import { parseSignedAmount } from '../../src/money.ts';
import { createTestDb, isPGlite } from '../helpers/db.ts';

// `npm run ledger:check` as a real process (the build of this run, tests/setup/global.ts) on a PGlite
// folder: its exit codes and what it prints, on a consistent ledger, a corrupted one and a folder in use.

const dataDir = mkdtempSync(join(tmpdir(), 'casino-ledger-check-'));
const pgliteDir = join(dataDir, 'pglite');
let walletId: number;

beforeAll(async () => {
  // A player with 2 LTC deposited, in a database written to the folder the command reads.
  const source = await createTestDb();
  try {
    const [user] = await source.query<{ id: number }>(
      "INSERT INTO users (email, username, referral_code) VALUES ('check@example.com', 'check', 'CHECK1') RETURNING id",
    );
    const [wallet] = await source.query<{ id: number; currency_id: number }>(
      "INSERT INTO wallets (user_id, currency_id) SELECT $1, id FROM currencies WHERE code = 'LTC' RETURNING id, currency_id",
      [user!.id],
    );
    walletId = wallet!.id;
    const legs = transfer(systemAccount(wallet!.currency_id, 'provider_clearing'), walletAccount(walletId, 'available'), parseSignedAmount('2'));
    await source.transaction((tx) => postTransaction(tx, { kind: 'deposit', at: new Date('2025-02-01T18:00:00.000Z'), legs }));
    if (!isPGlite(source)) throw new Error('this file is for the PGlite pass (scripts/test.mjs): the command reads a PGlite folder here');
    const dump = await source.dump();
    const folder = await openDb({ kind: 'pglite', dataDir: pgliteDir, loadFrom: dump });
    await folder.close();
  } finally {
    await source.close();
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function check(): Promise<{ status: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(inject('serverBuild'), 'ledger-check.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, out })));
}

it('exits 0 on a consistent ledger, 2 while another process holds the folder, 1 after a corruption', async () => {
  const ok = await check();
  expect(ok.out).toMatch(/OK: every cached balance equals the sum of its entries/);
  expect(ok.out).toMatch(/LTC +players: available [0-9.]+, pending [0-9.]+, bonus [0-9.]+, held [0-9.]+ \| house -?[0-9.]+, provider_clearing -[0-9.]+/);
  expect(ok.status).toBe(0);

  const lock = acquireDataDirLock(dataDir);
  try {
    const locked = await check();
    expect(locked.out).toMatch(/open in another process .*stop the server/s);
    expect(locked.status).toBe(2);
  } finally {
    lock.release();
  }

  const own = await openDb({ kind: 'pglite', dataDir: pgliteDir });
  await own.query('UPDATE wallets SET available = 3 WHERE id = $1', [walletId]);
  await own.close();
  const bad = await check();
  expect(bad.out).toMatch(new RegExp(`MISMATCH +wallet ${walletId} .* available: cached 3, entries sum to 2`));
  expect(bad.out).toMatch(/FAILED: 1 problem found/);
  expect(bad.status).toBe(1);
});

it('reads totals past what one NUMERIC(30,8) column holds, and still finds a mismatch among them', async () => {
  // Two wallets at the largest balance a column holds: the players' total and the adjustments
  // account's have 23 integer digits.
  const largest = parseSignedAmount(`${'9'.repeat(22)}.99999999`);
  const own = await openDb({ kind: 'pglite', dataDir: pgliteDir });
  const whales: number[] = [];
  try {
    await own.query('UPDATE wallets SET available = 2 WHERE id = $1', [walletId]);
    for (const name of ['whale1', 'whale2']) {
      const [user] = await own.query<{ id: number }>(
        'INSERT INTO users (email, username, referral_code) VALUES ($1, $2, $3) RETURNING id',
        [`${name}@example.com`, name, name.toUpperCase()],
      );
      const [wallet] = await own.query<{ id: number; currency_id: number }>(
        "INSERT INTO wallets (user_id, currency_id) SELECT $1, id FROM currencies WHERE code = 'LTC' RETURNING id, currency_id",
        [user!.id],
      );
      whales.push(wallet!.id);
      const legs = transfer(systemAccount(wallet!.currency_id, 'adjustments'), walletAccount(wallet!.id, 'available'), largest);
      await own.transaction((tx) => postTransaction(tx, { kind: 'adjustment', at: new Date('2025-02-01T18:00:00.000Z'), legs }));
    }
  } finally {
    await own.close();
  }
  const ok = await check();
  expect(ok.out).toMatch(/OK: every cached balance equals the sum of its entries/);
  expect(ok.out).toContain('LTC   players: available 20000000000000000000001.99999998,');
  expect(ok.out).toContain('adjustments -19999999999999999999999.99999998');
  expect(ok.status).toBe(0);

  const again = await openDb({ kind: 'pglite', dataDir: pgliteDir });
  await again.query('UPDATE wallets SET available = available - 0.00000001 WHERE id = $1', [whales[0]]);
  await again.close();
  const bad = await check();
  expect(bad.out).toMatch(new RegExp(`MISMATCH +wallet ${whales[0]} .* available: cached 9{22}\\.99999998, entries sum to 9{22}\\.99999999`));
  expect(bad.status).toBe(1);
});
