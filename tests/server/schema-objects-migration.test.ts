import { createHash, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import { verifyLedger } from '../../server/domain/ledger.ts';
import { createTestDb } from '../helpers/db.ts';
import { emptyDb, migrateBefore } from '../helpers/migrations.ts';

/**
 * A database of migration 0030 with money in it, the rows the money functions of that time wrote (a deposit
 * seen then credited, a round's bet and its win), upgraded by migrate():
 * the numbered migrations since, then the functions and triggers of server/db/schema/. The ledger check
 * passes, no balance moved, the functions, triggers and foreign keys (those migration 0037 adds validated
 * over the rows of before) are those of a database built today, and a bet and a win go through them; each
 * function, view and trigger has its one file there. A migrate() with nothing new applies nothing; a file
 * whose text changed is applied again, alone. On PGlite, or on the PostgreSQL server of TEST_DATABASE_URL in
 * a database of its own.
 */

const AT = new Date('2026-01-02T03:04:05.000Z');
const SECRET = 'schema-upgrade-provider-wallet-secret-0123456789';
const schemaFiles = readdirSync(new URL('../../server/db/schema/', import.meta.url)).filter((file) => file.endsWith('.sql')).sort();

let opened: { db: Db; drop: () => Promise<void> } | undefined;
let db: Db;
let applied: string[];
const ids = { user: 0, currency: 0, wallet: 0, provider: 0, game: 0 };
const SESSION = 'schema-upgrade-session-0123456789abcdef';

const one = async <T extends object>(on: Queryable, sql: string, params: unknown[] = []): Promise<T> => {
  const [row] = await on.query<T>(sql, params);
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
};

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A bet or a win through today's game_wallet_play, as game-wallet.ts sends it. */
function play(action: 'bet' | 'win', round: string, amount: string): Promise<{ out_available: string }> {
  const transaction = `${round}:${action}`;
  return one(db, 'SELECT * FROM game_wallet_play($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)', [
    [action], [ids.wallet], [ids.user], [ids.currency], [false], [ids.provider], [SESSION], [ids.game], ['upgrade-slot'], [round], [transaction],
    [amount], [hex(`request:${transaction}`)], [randomUUID()], [`game:${ids.provider}`], [transaction], [SECRET], [null], AT]);
}

/**
 * A ledger transaction as the money functions of migration 0030 wrote one, in the caller's database
 * transaction: the visible record, two entries of one amount (`amount` into `to`, out of `from`), and the
 * wallet's cached balances; its id.
 */
async function oldPosting(
  tx: Queryable,
  posting: { kind: string; key: string; from: string; to: string; amount: string; type: string; action: string; status: string; game?: string },
): Promise<number> {
  const account = (kind: string) =>
    ['available', 'pending', 'bonus', 'held'].includes(kind)
      ? one<{ id: number }>(tx, 'SELECT id::int AS id FROM ledger_accounts WHERE wallet_id = $1 AND kind = $2', [ids.wallet, kind])
      : one<{ id: number }>(tx, 'SELECT id::int AS id FROM ledger_accounts WHERE wallet_id IS NULL AND currency_id = $1 AND kind = $2', [ids.currency, kind]);
  const change = (kind: string) => (kind === posting.to ? posting.amount : kind === posting.from ? `-${posting.amount}` : '0');
  const wallet = await one<{ available: string }>(
    tx,
    `UPDATE wallets SET available = available + $2::numeric, pending = pending + $3::numeric WHERE id = $1 RETURNING available::text`,
    [ids.wallet, change('available'), change('pending')],
  );
  const row = await one<{ id: number }>(
    tx,
    `INSERT INTO ledger_transactions (public_id, kind, idempotency_scope, idempotency_key, request_hash, user_id, wallet_id, currency_id, type,
       action_type, status, amount, before_balance, after_balance, game_identifier, created_at)
     VALUES ($1, $2, 'old', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric - $13::numeric, $12, $14, $15) RETURNING id::int AS id`,
    [randomUUID(), posting.kind, posting.key, hex(posting.key), ids.user, ids.wallet, ids.currency, posting.type, posting.action, posting.status,
      posting.amount, wallet.available, change('available'), posting.game ?? null, AT],
  );
  for (const [kind, amount] of [[posting.to, posting.amount], [posting.from, `-${posting.amount}`]] as const) {
    await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $3, $4)', [
      row.id, (await account(kind)).id, ids.currency, amount]);
  }
  return row.id;
}

/** A transfer seen, then credited, as deposit_notification_apply wrote them at migration 0030. */
async function deposit(txId: string, amount: string): Promise<void> {
  await db.transaction(async (tx) => {
    const pending = await oldPosting(tx, { kind: 'deposit.pending', key: `${txId}:pending`, from: 'provider_clearing', to: 'pending', amount,
      type: 'deposit', action: 'deposit', status: 'pending' });
    await tx.query(
      `INSERT INTO deposits (provider, provider_tx_id, deposit_address_id, wallet_id, user_id, currency_id, amount, confirmations, status,
         pending_transaction_id, created_at, updated_at)
       SELECT 'simulator', $1, a.id, $2, $3, $4, $5, 0, 'pending', $6, $7, $7 FROM deposit_addresses a WHERE a.address = 'upgrade-address'`,
      [txId, ids.wallet, ids.user, ids.currency, amount, pending, AT],
    );
  });
  await db.transaction(async (tx) => {
    const credit = await oldPosting(tx, { kind: 'deposit.credit', key: `${txId}:credit`, from: 'pending', to: 'available', amount,
      type: 'deposit', action: 'deposit', status: 'completed' });
    await tx.query("UPDATE deposits SET status = 'credited', confirmations = 2, settled_transaction_id = $2, credited_at = $3 WHERE provider_tx_id = $1", [
      txId, credit, AT]);
    await tx.query("INSERT INTO user_notifications (user_id, title, message, created_at) VALUES ($1, 'Deposit', 'Credited', $2)", [ids.user, AT]);
  });
}

/** A round's bet and its win, as game_wallet_play wrote them at migration 0030. */
async function oldRound(round: string, bet: string, win: string): Promise<void> {
  const roundPk = await db.transaction(async (tx) => {
    const posted = await oldPosting(tx, { kind: 'game.bet', key: `${round}:bet`, from: 'available', to: 'house', amount: bet, type: 'casino',
      action: 'bet', status: 'completed', game: 'upgrade-slot' });
    const created = await one<{ id: number }>(
      tx,
      `INSERT INTO game_rounds (provider_id, round_id, session_id, user_id, wallet_id, currency_id, game_id, staked_available, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id::int AS id`,
      [ids.provider, round, SESSION, ids.user, ids.wallet, ids.currency, ids.game, bet, AT],
    );
    await tx.query(
      `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, ledger_transaction_id,
         available_after, bonus_after, created_at)
       SELECT $1, 'bet', $2, $3, $4, 0, $5, $6, w.available, w.bonus, $7 FROM wallets w WHERE w.id = $8`,
      [created.id, `${round}:bet`, ids.user, bet, hex(`request:${round}:bet`), posted, AT, ids.wallet],
    );
    return created.id;
  });
  await db.transaction(async (tx) => {
    const posted = await oldPosting(tx, { kind: 'game.win', key: `${round}:win`, from: 'house', to: 'available', amount: win, type: 'casino',
      action: 'win', status: 'completed', game: 'upgrade-slot' });
    await tx.query('UPDATE game_rounds SET won = won + $2, settled = true WHERE id = $1', [roundPk, win]);
    await tx.query(
      `INSERT INTO game_wallet_actions (round_pk, action, transaction_id, user_id, amount, bonus_amount, request_hash, ledger_transaction_id,
         available_after, bonus_after, created_at)
       SELECT $1, 'win', $2, $3, $4, 0, $5, $6, w.available, w.bonus, $7 FROM wallets w WHERE w.id = $8`,
      [roundPk, `${round}:win`, ids.user, win, hex(`request:${round}:win`), posted, AT, ids.wallet],
    );
  });
}

const balances = () =>
  db.query<{ id: number; available: string; pending: string; bonus: string; held: string }>(
    'SELECT id::int AS id, available::text, pending::text, bonus::text, held::text FROM wallets ORDER BY id',
  );
const accountTotals = () =>
  db.query<{ id: number; total: string }>(
    'SELECT a.id::int AS id, coalesce(sum(e.amount), 0)::text AS total FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.id ORDER BY a.id',
  );

/** The functions and triggers of a database, by name, as PostgreSQL prints their definitions. */
async function definitions(on: Queryable): Promise<Record<string, string>> {
  const rows = await on.query<{ name: string; def: string }>(
    `SELECT 'function ' || p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def
     FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
     UNION ALL
     SELECT 'view ' || c.relname, pg_get_viewdef(c.oid) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('v', 'm')
     UNION ALL
     SELECT 'trigger ' || t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t WHERE NOT t.tgisinternal`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.def]));
}

let before: { wallets: Awaited<ReturnType<typeof balances>>; accounts: Awaited<ReturnType<typeof accountTotals>> };

beforeAll(async () => {
  opened = await emptyDb();
  db = opened.db;
  await migrateBefore(db, '0031');
  await db.query(
    `INSERT INTO settings (id, site_name, min_deposit, min_withdraw, max_transfer_amount, withdraw_fee, deposit_confirmations, referral_reward, referral_limit)
     VALUES (1, 'Casino', 0.001, 0.001, 100, 0, 2, 0, 0)`,
  );
  ids.currency = (
    await one<{ id: number }>(
      db,
      `INSERT INTO currencies (code, name, decimals, network, min_deposit, min_withdraw, withdraw_fee)
       VALUES ('LTC', 'Litecoin', 8, 'Litecoin', 0.001, 0.03, 0.000006) RETURNING id`,
    )
  ).id;
  ids.user = (await one<{ id: number }>(db, "INSERT INTO users (email, username, referral_code) VALUES ('old@example.com', 'old', 'OLDCODE1') RETURNING id::int AS id")).id;
  ids.wallet = (await one<{ id: number }>(db, 'INSERT INTO wallets (user_id, currency_id) VALUES ($1, $2) RETURNING id::int AS id', [ids.user, ids.currency])).id;
  await db.query(
    `INSERT INTO deposit_addresses (wallet_id, provider, address, network, webhook_url, created_at)
     VALUES ($1, 'simulator', 'upgrade-address', 'Litecoin', 'http://127.0.0.1/webhook', $2)`,
    [ids.wallet, AT],
  );
  ids.provider = (await one<{ id: number }>(db, "INSERT INTO providers (name, slug, wallet_secret) VALUES ('Old', 'old', $1) RETURNING id", [SECRET])).id;
  const category = await one<{ id: number }>(db, "INSERT INTO categories (name, slug) VALUES ('Slots', 'slots') RETURNING id");
  ids.game = (
    await one<{ id: number }>(
      db,
      "INSERT INTO games (identifier, name, slug, provider_id, category_id) VALUES ('upgrade-slot', 'Upgrade', 'upgrade', $1, $2) RETURNING id::int AS id",
      [ids.provider, category.id],
    )
  ).id;
  await db.query("INSERT INTO game_sessions (id, user_id, game_id, demo, currency_code, expires_at) VALUES ($1, $2, $3, false, 'LTC', 'infinity')", [
    SESSION,
    ids.user,
    ids.game,
  ]);

  await deposit('upgrade-deposit', '1.5');
  await oldRound('old-round', '0.4', '0.25');
  before = { wallets: await balances(), accounts: await accountTotals() };

  applied = await migrate(db);
}, 120_000);

afterAll(async () => {
  await db?.close();
  await opened?.drop();
});

describe('a database of migration 0030 with money in it, upgraded', () => {
  it('applies the numbered migrations since, then every schema file', () => {
    const numbered = applied.filter((name) => !name.startsWith('schema/'));
    expect(numbered[0]).toBe('0031_one_open_mines_round.sql');
    expect(numbered).toContain('0036_schema_objects.sql');
    expect(numbered).toContain('0037_money_foreign_keys.sql');
    expect(applied.slice(numbered.length)).toEqual(schemaFiles.map((file) => `schema/${file}`));
  });

  it('passes the ledger check, every balance unchanged', async () => {
    const report = await verifyLedger(db);
    expect(report.ok, JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).toBe(true);
    expect(await balances()).toEqual(before.wallets);
    expect((await accountTotals()).filter((account) => before.accounts.some((old) => old.id === account.id))).toEqual(before.accounts);
    expect(before.wallets).toEqual([{ id: ids.wallet, available: '1.35000000', pending: '0.00000000', bonus: '0.00000000', held: '0.00000000' }]);
  });

  it('has the functions and triggers of a database built today', async () => {
    const today = await createTestDb();
    try {
      expect(await definitions(db)).toEqual(await definitions(today));
    } finally {
      await today.close();
    }
  });

  it('has the foreign keys of a database built today, the money tables\' ones (migration 0037) validated over the rows of before', async () => {
    const keys = (on: Queryable) =>
      on.query<{ name: string; def: string; validated: boolean }>(
        `SELECT conrelid::regclass::text || '.' || conname AS name, pg_get_constraintdef(oid) AS def, convalidated AS validated
         FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace ORDER BY 1`,
      );
    const today = await createTestDb();
    try {
      expect(await keys(db)).toEqual(await keys(today));
    } finally {
      await today.close();
    }
    const upgraded = new Map((await keys(db)).map((key) => [key.name, key]));
    for (const name of [
      'game_rounds.game_rounds_session_id_fkey',
      'game_rounds.game_rounds_wallet_id_user_id_currency_id_fkey',
      'ledger_transactions.ledger_transactions_wallet_id_user_id_currency_id_fkey',
      'ledger_entries.ledger_entries_transaction_xact',
      'game_wallet_actions.game_wallet_actions_round_pk_fkey',
      'game_wallet_actions.game_wallet_actions_ledger_transaction_id_fkey',
      'deposits.deposits_deposit_address_id_fkey',
      'deposits.deposits_wallet_user_currency',
      'user_notifications.user_notifications_user_id_fkey',
    ]) {
      expect(upgraded.get(name)?.validated, name).toBe(true);
      expect(upgraded.get(name)?.def, name).not.toMatch(/DEFERRABLE/);
    }
    expect(upgraded.get('deposits.deposits_pending_transaction_id_fkey')?.def).toMatch(/DEFERRABLE INITIALLY DEFERRED/);
    expect(upgraded.get('deposits.deposits_settled_transaction_id_fkey')?.def).toMatch(/DEFERRABLE INITIALLY DEFERRED/);
  });

  it('has one file of server/db/schema for each function, view and trigger, and each file its object', async () => {
    const objects = (await db.query<{ file: string }>(
      `SELECT '1_function_' || p.proname || '.sql' AS file FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
       UNION ALL
       SELECT '2_view_' || c.relname || '.sql' FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('v', 'm')
       UNION ALL
       SELECT '3_trigger_' || t.tgname || '.sql' FROM pg_trigger t WHERE NOT t.tgisinternal`,
    )).map((row) => row.file);
    expect(objects.sort()).toEqual(schemaFiles);
  });

  it('takes a bet and a win through today\'s functions, the ledger still balanced', async () => {
    expect((await play('bet', 'new-round', '0.3')).out_available).toBe('1.05000000');
    expect((await play('win', 'new-round', '0.6')).out_available).toBe('1.65000000');
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});

describe('migrate() again', () => {
  it('applies nothing when nothing changed', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  it('applies again a schema file whose text is not the one recorded, and only it', async () => {
    const file = '1_function_game_wallet_play.sql';
    expect(schemaFiles).toContain(file);
    await db.query("CREATE OR REPLACE FUNCTION email_mailbox(email text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'changed' $$");
    await db.query("UPDATE schema_objects SET sha256 = repeat('0', 64) WHERE name IN ($1, '1_function_email_mailbox.sql')", [file]);
    expect(await migrate(db)).toEqual(['schema/1_function_email_mailbox.sql', `schema/${file}`]);
    expect((await one<{ mailbox: string }>(db, "SELECT email_mailbox('M.E+1@googlemail.com') AS mailbox")).mailbox).toBe('me@gmail.com');
    expect(await migrate(db)).toEqual([]);
  });
});
