import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../server/db/db.ts';
import {
  feeUnits,
  getTransaction,
  idempotency,
  IdempotencyConflictError,
  InsufficientBalanceError,
  LedgerInputError,
  postTransaction,
  roundToCurrency,
  systemAccount,
  transfer,
  verifyLedger,
  walletAccount,
  type Leg,
  type Posting,
  type PostingResult,
  type VisibleRecord,
} from '../../server/domain/ledger.ts';
import { listTransactions } from '../../server/domain/transactions.ts';
import { findWallet } from '../../server/domain/wallets.ts';
import { DomainError } from '../../server/domain/errors.ts';
import { parseAmount, parseSignedAmount } from '../../src/money.ts';
import { checkResponse } from '../helpers/contract.ts';
import { createTestDb } from '../helpers/db.ts';
import { accountBalance, postingRequestHash } from '../helpers/money.ts';

// One database for the file (a PGlite clone, or a PostgreSQL copy under TEST_DATABASE_URL; the
// ledger:check command is tested on a real process in ledger-check.test.ts): every test
// makes its own players, so they never share a wallet.
let db: Db;
const currency: Record<'LTC' | 'BTC' | 'USDT', number> = { LTC: 0, BTC: 0, USDT: 0 };

beforeAll(async () => {
  db = await createTestDb();
  const rows = await db.query<{ id: number; code: keyof typeof currency }>("SELECT id, code FROM currencies WHERE code IN ('LTC', 'BTC', 'USDT')");
  for (const row of rows) currency[row.code] = row.id;
});
afterAll(async () => db?.close());

const AT = new Date('2025-02-01T18:00:00.000Z');
const coins = (s: string) => parseSignedAmount(s);

let playerSeq = 0;
interface Player {
  userId: number;
  wallet: Record<keyof typeof currency, number>;
}

/** A user with an LTC, a BTC and a USDT wallet (the wallet trigger opens their ledger accounts). */
async function newPlayer(on: Queryable = db): Promise<Player> {
  playerSeq += 1;
  const tag = `${process.pid}x${playerSeq}`;
  const user = await on.query<{ id: number }>('INSERT INTO users (email, username, referral_code) VALUES ($1, $2, $3) RETURNING id', [
    `ledger${tag}@example.com`,
    `ledger${tag}`,
    `LEDGER${tag}`,
  ]);
  const userId = user[0]!.id;
  const wallets = await on.query<{ id: number; code: keyof typeof currency }>(
    `INSERT INTO wallets (user_id, currency_id) SELECT $1, id FROM currencies WHERE code IN ('LTC', 'BTC', 'USDT')
     RETURNING id, (SELECT code FROM currencies c WHERE c.id = currency_id) AS code`,
    [userId],
  );
  const wallet = { LTC: 0, BTC: 0, USDT: 0 };
  for (const w of wallets) wallet[w.code] = w.id;
  return { userId, wallet };
}

function post(posting: Posting): Promise<PostingResult> {
  return db.transaction((tx) => postTransaction(tx, posting));
}

async function balances(walletId: number) {
  const rows = await db.query<{ available: string; pending: string; bonus: string }>('SELECT available, pending, bonus FROM wallets WHERE id = $1', [walletId]);
  const row = rows[0]!;
  return { available: parseAmount(row.available), pending: parseAmount(row.pending), bonus: parseAmount(row.bonus) };
}

async function ledgerCounts() {
  const rows = await db.query<{ transactions: number; entries: number }>(
    'SELECT (SELECT count(*) FROM ledger_transactions) AS transactions, (SELECT count(*) FROM ledger_entries) AS entries',
  );
  return rows[0]!;
}

let keySeq = 0;
const freshKey = (scope = 'test') => ({ scope, key: `k${process.pid}-${++keySeq}` });

function depositPosting(p: Player, amount: bigint, key = freshKey('deposit:simulator')): Posting {
  return {
    kind: 'deposit',
    at: AT,
    idempotency: key,
    legs: transfer(systemAccount(currency.LTC, 'provider_clearing'), walletAccount(p.wallet.LTC, 'available'), amount),
    visible: { walletId: p.wallet.LTC, type: 'deposit', actionType: 'deposit', status: 'completed', amount },
  };
}

function betPosting(p: Player, amount: bigint, roundId: string): Posting {
  return {
    kind: 'bet',
    at: AT,
    idempotency: idempotency.game(roundId, 'bet'),
    legs: transfer(walletAccount(p.wallet.LTC, 'available'), systemAccount(currency.LTC, 'house'), amount),
    visible: { walletId: p.wallet.LTC, type: 'casino', actionType: 'bet', status: 'completed', amount, gameIdentifier: 'sim-fruit-slots' },
  };
}

/** Inserts a bare transaction row the way no caller should, to test what the database itself refuses. */
async function rawTransaction(tx: Queryable): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at) VALUES (gen_random_uuid(), 'raw', 'raw', $1) RETURNING id`,
    [AT],
  );
  return rows[0]!.id;
}

async function systemAccountId(code: keyof typeof currency, kind: string): Promise<number> {
  const rows = await db.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE wallet_id IS NULL AND currency_id = $1 AND kind = $2', [
    currency[code],
    kind,
  ]);
  return rows[0]!.id;
}

// ── What the database enforces by itself ───────────────────────────────────────────────────────────

describe('the ledger schema', () => {
  it('opens four accounts for every wallet and five for every currency', async () => {
    const p = await newPlayer();
    const accounts = await db.query<{ kind: string }>('SELECT kind FROM ledger_accounts WHERE wallet_id = $1 ORDER BY kind', [p.wallet.LTC]);
    expect(accounts.map((a) => a.kind)).toEqual(['available', 'bonus', 'held', 'pending']);
    const system = await db.query<{ kind: string }>('SELECT kind FROM ledger_accounts WHERE wallet_id IS NULL AND currency_id = $1 ORDER BY kind', [
      currency.LTC,
    ]);
    expect(system.map((a) => a.kind)).toEqual(['adjustments', 'bonus_pool', 'fees', 'house', 'provider_clearing']);
  });

  it('accepts a balanced transaction written by hand, checking it only at commit', async () => {
    const house = await systemAccountId('LTC', 'house');
    const adjustments = await systemAccountId('LTC', 'adjustments');
    const id = await db.transaction(async (tx) => {
      const id = await rawTransaction(tx);
      // Unbalanced for a moment: the check is deferred to commit.
      await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $3, 5)', [id, house, currency.LTC]);
      await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $3, -5)', [id, adjustments, currency.LTC]);
      return id;
    });
    expect((await getTransaction(db, { id }))?.entries.map((e) => e.amount)).toEqual([coins('5'), coins('-5')]);
  });

  it('refuses at commit a transaction whose entries do not sum to zero', async () => {
    const house = await systemAccountId('LTC', 'house');
    const adjustments = await systemAccountId('LTC', 'adjustments');
    const before = await ledgerCounts();
    let statementsDone = false;
    await expect(
      db.transaction(async (tx) => {
        const id = await rawTransaction(tx);
        await tx.query(
          'INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $4, 5), ($1, $3, $4, -3)',
          [id, house, adjustments, currency.LTC],
        );
        statementsDone = true;
      }),
    ).rejects.toThrow(/does not balance/);
    expect(statementsDone).toBe(true);
    expect(await ledgerCounts()).toEqual(before);
  });

  it('checks at commit every ledger transaction, whatever the session has set: no setting vouches for one', async () => {
    // A writer naming its own transaction in a setting (as casino.ledger_balanced_by once let the ledger's
    // writer do) still has it checked: only the database decides that a transaction balances.
    const house = await systemAccountId('LTC', 'house');
    const adjustments = await systemAccountId('LTC', 'adjustments');
    const before = await ledgerCounts();
    await expect(
      db.transaction(async (tx) => {
        const publicId = (await tx.query<{ id: string }>('SELECT gen_random_uuid()::text AS id'))[0]!.id;
        await tx.query("SELECT set_config('casino.ledger_balanced_by', $1, true)", [publicId]);
        const id = (
          await tx.query<{ id: number }>(
            `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at) VALUES ($1, 'raw', 'raw', $2) RETURNING id`,
            [publicId, AT],
          )
        )[0]!.id;
        await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $4, 5), ($1, $3, $4, -3)', [
          id,
          house,
          adjustments,
          currency.LTC,
        ]);
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await ledgerCounts()).toEqual(before);
  });

  it('balances per currency: 5 LTC in and 5 BTC out do not balance', async () => {
    const ltcHouse = await systemAccountId('LTC', 'house');
    const btcHouse = await systemAccountId('BTC', 'house');
    await expect(
      db.transaction(async (tx) => {
        const id = await rawTransaction(tx);
        await tx.query(
          'INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $3, 5), ($1, $4, $5, -5)',
          [id, ltcHouse, currency.LTC, btcHouse, currency.BTC],
        );
      }),
    ).rejects.toThrow(/does not balance/);
  });

  it('refuses a transaction with fewer than two entries', async () => {
    await expect(db.transaction(async (tx) => void (await rawTransaction(tx)))).rejects.toThrow(/at least two/);
  });

  it("refuses an entry in another currency than its account's", async () => {
    const ltcHouse = await systemAccountId('LTC', 'house');
    await expect(
      db.transaction(async (tx) => {
        const id = await rawTransaction(tx);
        await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $3, 5)', [id, ltcHouse, currency.BTC]);
      }),
    ).rejects.toThrow(/violates foreign key constraint "ledger_entries_account_currency"/);
  });

  it('refuses an entry on an account that does not exist', async () => {
    const house = await systemAccountId('LTC', 'house');
    await expect(
      db.transaction(async (tx) => {
        const id = await rawTransaction(tx);
        await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $4, 5), ($1, $3, $4, -5)', [
          id,
          house,
          house + 1_000_000,
          currency.LTC,
        ]);
      }),
    ).rejects.toThrow(/violates foreign key constraint "ledger_entries_account_currency"/);
  });

  it('refuses entries added to a transaction written by an earlier database transaction, even balanced ones', async () => {
    const house = await systemAccountId('LTC', 'house');
    const adjustments = await systemAccountId('LTC', 'adjustments');
    const id = await db.transaction(async (tx) => {
      const id = await rawTransaction(tx);
      await tx.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $4, 5), ($1, $3, $4, -5)', [
        id,
        house,
        adjustments,
        currency.LTC,
      ]);
      return id;
    });
    const fees = await systemAccountId('LTC', 'fees');
    const pool = await systemAccountId('LTC', 'bonus_pool');
    await expect(
      db.query('INSERT INTO ledger_entries (transaction_id, account_id, currency_id, amount) VALUES ($1, $2, $4, 7), ($1, $3, $4, -7)', [
        id,
        fees,
        pool,
        currency.LTC,
      ]),
    ).rejects.toThrow(/foreign key/);
    expect((await getTransaction(db, { id }))?.entries.map((e) => e.amount)).toEqual([coins('5'), coins('-5')]);
  });

  it('is append-only: no update, delete or truncate of transactions, entries or accounts', async () => {
    const p = await newPlayer();
    const { transaction } = await post(depositPosting(p, coins('1')));
    const refused = [
      ['UPDATE ledger_entries SET amount = amount * 2 WHERE transaction_id = $1', [transaction.id]],
      ['DELETE FROM ledger_entries WHERE transaction_id = $1', [transaction.id]],
      ["UPDATE ledger_transactions SET status = 'failed' WHERE id = $1", [transaction.id]],
      ['DELETE FROM ledger_transactions WHERE id = $1', [transaction.id]],
      ["UPDATE ledger_accounts SET kind = 'pending' WHERE wallet_id = $1 AND kind = 'available'", [p.wallet.LTC]],
      ['DELETE FROM ledger_accounts WHERE wallet_id = $1', [p.wallet.BTC]],
      ['TRUNCATE ledger_entries', []],
      ['TRUNCATE ledger_transactions CASCADE', []],
    ] as const;
    for (const [sql, params] of refused) {
      await expect(db.query(sql, params), sql).rejects.toThrow(/append-only/);
    }
    expect(await getTransaction(db, { id: transaction.id })).toEqual(transaction);
  });

  it('never lets a cached balance below zero, even written directly', async () => {
    const p = await newPlayer();
    for (const column of ['available', 'pending', 'bonus']) {
      await expect(db.query(`UPDATE wallets SET ${column} = -0.00000001 WHERE id = $1`, [p.wallet.LTC])).rejects.toThrow(/check constraint/);
    }
  });

  it('keeps a visible record whole: all of SPEC §3 or nothing, and a game only on casino entries', async () => {
    const p = await newPlayer();
    await expect(
      db.query(
        `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at, user_id, wallet_id, currency_id, type)
         VALUES (gen_random_uuid(), 'raw', 'raw', $1, $2, $3, $4, 'deposit')`,
        [AT, p.userId, p.wallet.LTC, currency.LTC],
      ),
    ).rejects.toThrow(/check constraint/);
    await expect(
      db.query(
        `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at, user_id, wallet_id, currency_id, type, action_type,
           status, amount, before_balance, after_balance, game_identifier)
         VALUES (gen_random_uuid(), 'raw', 'raw', $1, $2, $3, $4, 'deposit', 'deposit', 'completed', 1, 0, 1, 'sim-fruit-slots')`,
        [AT, p.userId, p.wallet.LTC, currency.LTC],
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it('takes only the SPEC §3 pairs of type and action', async () => {
    const p = await newPlayer();
    const visible = (type: string, action: string) =>
      db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO ledger_transactions (public_id, kind, request_hash, created_at, user_id, wallet_id, currency_id, type, action_type,
             status, amount, before_balance, after_balance, game_identifier)
           VALUES (gen_random_uuid(), 'raw', 'raw', $1, $2, $3, $4, $5, $6, 'completed', 1, 0, 1, $7)`,
          [AT, p.userId, p.wallet.LTC, currency.LTC, type, action, type === 'casino' ? 'sim-fruit-slots' : null],
        );
        // Rolled back before its commit-time check: the pair was taken, and that is all this checks.
        throw new Error('taken');
      });
    for (const [type, action] of [
      ['deposit', 'withdraw'],
      ['casino', 'deposit'],
      ['withdraw', 'bet'],
      ['bonus', 'referral'],
      ['referral', 'bonus'],
      ['deposits', 'deposit'],
      ['deposit', 'Deposit'],
    ]) {
      await expect(visible(type!, action!), `${type}/${action}`).rejects.toThrow(/check constraint/);
    }
    for (const [type, action] of [
      ['deposit', 'deposit'],
      ['withdraw', 'withdrawFee'],
      ['casino', 'rollbackWin'],
      ['bonus', 'bonusConversion'],
      ['referral', 'referral'],
    ]) {
      await expect(visible(type!, action!), `${type}/${action}`).rejects.toThrow('taken');
    }
  });
});

// ── postTransaction ──────────────────────────────────────────────────────────────────────────────────

describe('postTransaction', () => {
  it('credits a deposit and records the SPEC §3 fields, from the application clock', async () => {
    const p = await newPlayer();
    const at = new Date('2001-02-03T04:05:06.789Z');
    const { transaction, replayed } = await post({ ...depositPosting(p, coins('0.5')), at });
    expect(replayed).toBe(false);
    expect(transaction.publicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(transaction.createdAt).toEqual(at);
    expect(transaction.visible).toEqual<VisibleRecord>({
      userId: p.userId,
      walletId: p.wallet.LTC,
      currencyId: currency.LTC,
      currencyCode: 'LTC',
      type: 'deposit',
      actionType: 'deposit',
      status: 'completed',
      amount: coins('0.5'),
      beforeBalance: 0n,
      afterBalance: coins('0.5'),
      gameIdentifier: null,
    });
    expect(transaction.entries.map((e) => [e.account, e.amount])).toEqual(
      expect.arrayContaining([
        [walletAccount(p.wallet.LTC, 'available'), coins('0.5')],
        [systemAccount(currency.LTC, 'provider_clearing'), coins('-0.5')],
      ]),
    );
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.5'), pending: 0n, bonus: 0n });

    // The player's list shows it as the API's Transaction, checked against openapi.yaml.
    const { rows, count } = await listTransactions(db, p.userId);
    expect(rows).toEqual([
      expect.objectContaining({ transactionId: transaction.publicId, type: 'deposit', amount: '0.5', beforeBalance: '0', afterBalance: '0.5', createdAt: '2001-02-03T04:05:06.789Z' }),
    ]);
    const body = { data: { transactions: { rows, count } }, errors: [] };
    expect(checkResponse('userGetTransactions', 200, 'application/json', body)).toBeNull();
  });

  it('chains before and after balances through bets and wins, with the game identifier', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const bet = await post(betPosting(p, coins('0.3'), `round-${p.userId}`));
    expect(bet.transaction.visible).toMatchObject({ beforeBalance: coins('1'), afterBalance: coins('0.7'), gameIdentifier: 'sim-fruit-slots' });
    const win = await post({
      kind: 'win',
      at: AT,
      idempotency: idempotency.game(`round-${p.userId}`, 'win'),
      legs: transfer(systemAccount(currency.LTC, 'house'), walletAccount(p.wallet.LTC, 'available'), coins('0.75')),
      visible: { walletId: p.wallet.LTC, type: 'casino', actionType: 'win', status: 'completed', amount: coins('0.75'), gameIdentifier: 'sim-fruit-slots' },
      relatedTransactionId: bet.transaction.id,
    });
    expect(win.transaction.visible).toMatchObject({ beforeBalance: coins('0.7'), afterBalance: coins('1.45') });
    expect(win.transaction.relatedTransactionId).toBe(bet.transaction.id);
  });

  it('moves a withdrawal to pending with its fee, then pays it out without touching available', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const amount = coins('0.5');
    const fee = feeUnits(coins('0.000006'), 8);
    const request = await post({
      kind: 'withdraw.request',
      at: AT,
      idempotency: idempotency.withdrawal(`spend-${p.userId}`),
      legs: [
        { account: walletAccount(p.wallet.LTC, 'available'), amount: -(amount + fee) },
        { account: walletAccount(p.wallet.LTC, 'pending'), amount },
        { account: systemAccount(currency.LTC, 'fees'), amount: fee },
      ],
      visible: { walletId: p.wallet.LTC, type: 'withdraw', actionType: 'withdraw', status: 'pending', amount },
    });
    expect(request.transaction.visible).toMatchObject({ beforeBalance: coins('1'), afterBalance: coins('0.499994') });
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.499994'), pending: amount, bonus: 0n });

    const payout = await post({
      kind: 'withdraw.payout',
      at: AT,
      idempotency: idempotency.withdrawal(`spend-${p.userId}`, 'payout'),
      legs: transfer(walletAccount(p.wallet.LTC, 'pending'), systemAccount(currency.LTC, 'provider_clearing'), amount),
      visible: { walletId: p.wallet.LTC, type: 'withdraw', actionType: 'withdraw', status: 'completed', amount },
      relatedTransactionId: request.transaction.id,
    });
    expect(payout.transaction.visible).toMatchObject({ beforeBalance: coins('0.499994'), afterBalance: coins('0.499994') });
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.499994'), pending: 0n, bonus: 0n });
  });

  it('refuses to take a balance below zero, moving nothing', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('0.1')));
    const before = await ledgerCounts();
    const error = await post(betPosting(p, coins('0.10000001'), `round-${p.userId}`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error).not.toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ walletId: p.wallet.LTC, account: 'available', balance: coins('0.1') });
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.1'), pending: 0n, bonus: 0n });
    expect(await ledgerCounts()).toEqual(before);
    // The key was not used: the same round can be bet once there is money.
    await post(depositPosting(p, coins('1')));
    expect((await post(betPosting(p, coins('0.10000001'), `round-${p.userId}`))).replayed).toBe(false);
  });

  it('undoes all of a failed posting and leaves the caller transaction usable', async () => {
    const p = await newPlayer();
    const q = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const outcome = await db.transaction(async (tx) => {
      // Two wallets: the first update succeeds before the second is refused.
      const refused = await postTransaction(tx, {
        kind: 'transfer',
        at: AT,
        legs: [
          { account: walletAccount(p.wallet.LTC, 'available'), amount: coins('0.5') },
          { account: walletAccount(q.wallet.LTC, 'available'), amount: coins('-0.5') },
        ],
      }).catch((e: unknown) => e);
      // One the database refuses (no such related transaction): on PostgreSQL this fails a statement.
      const failed = await postTransaction(tx, { ...depositPosting(p, coins('2')), relatedTransactionId: 2 ** 40 }).catch((e: unknown) => e);
      const credited = await postTransaction(tx, depositPosting(q, coins('0.25')));
      return { refused, failed, credited };
    });
    expect(outcome.refused).toBeInstanceOf(InsufficientBalanceError);
    expect(String(outcome.failed)).toMatch(/foreign key/);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('1'), pending: 0n, bonus: 0n });
    expect(await balances(q.wallet.LTC)).toEqual({ available: coins('0.25'), pending: 0n, bonus: 0n });
    expect((await verifyLedger(db)).ok).toBe(true);
  });

  it('returns the first result to a replay and moves nothing', async () => {
    const p = await newPlayer();
    const key = idempotency.deposit('simulator', `tx-${p.userId}`);
    const first = await post(depositPosting(p, coins('0.2'), key));
    const counts = await ledgerCounts();
    const again = await post({ ...depositPosting(p, coins('0.2'), key), at: new Date(AT.getTime() + 60_000) });
    expect(again).toEqual({ transaction: first.transaction, replayed: true });
    expect(await ledgerCounts()).toEqual(counts);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.2'), pending: 0n, bonus: 0n });
  });

  it('stores the request hash every earlier version stored, so a replay after an upgrade is still one', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const postings: Posting[] = [
      depositPosting(p, coins('0.2')),
      betPosting(p, coins('0.3'), `hash-${p.userId}`),
      // Legs on one account are netted, in key order whatever order they came in.
      {
        kind: 'withdraw.request',
        at: AT,
        legs: [
          { account: walletAccount(p.wallet.LTC, 'pending'), amount: coins('0.1') },
          { account: walletAccount(p.wallet.LTC, 'available'), amount: coins('-0.05') },
          { account: walletAccount(p.wallet.LTC, 'available'), amount: coins('-0.05') },
        ],
        visible: { walletId: p.wallet.LTC, type: 'withdraw', actionType: 'withdraw', status: 'pending', amount: coins('0.1') },
      },
    ];
    for (const posting of postings) {
      const posted = await post(posting);
      const [stored] = await db.query<{ request_hash: string }>('SELECT request_hash FROM ledger_transactions WHERE id = $1', [posted.transaction.id]);
      expect(stored?.request_hash, posting.kind).toBe(postingRequestHash(posting));
    }
  });

  it('refuses a replay whose posting differs, moving nothing', async () => {
    const p = await newPlayer();
    const key = idempotency.playerRequest(p.userId, 'userWithdraw', 'header-1');
    const first = await post(depositPosting(p, coins('0.2'), key));
    const counts = await ledgerCounts();
    const error = await post(depositPosting(p, coins('0.3'), key)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', existing: first.transaction });
    expect(await ledgerCounts()).toEqual(counts);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.2'), pending: 0n, bonus: 0n });
  });

  it('moves money once when the same key arrives many times at once', async () => {
    const p = await newPlayer();
    const key = idempotency.deposit('simulator', `concurrent-${p.userId}`);
    const results = await Promise.all(Array.from({ length: 6 }, () => post(depositPosting(p, coins('0.4'), key))));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.4'), pending: 0n, bonus: 0n });
  });

  it('lets concurrent bets spend a balance once, never below zero', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => post(betPosting(p, coins('0.3'), `race-${p.userId}-${i}`))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.1'), pending: 0n, bonus: 0n });
    expect(await accountBalance(db, systemAccount(currency.LTC, 'house'))).toBeGreaterThanOrEqual(coins('0.9'));
  });

  it('refuses postings that cannot be right', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const available = walletAccount(p.wallet.LTC, 'available');
    const house = systemAccount(currency.LTC, 'house');
    const cases: [Partial<Posting>, string][] = [
      [{ legs: [{ account: available, amount: -5n }, { account: house, amount: 4n }] }, 'UNBALANCED'],
      [{ legs: [{ account: available, amount: -5n }, { account: systemAccount(currency.BTC, 'house'), amount: 5n }] }, 'UNBALANCED'],
      [{ legs: [{ account: available, amount: -5n }, { account: available, amount: 5n }] }, 'TOO_FEW_LEGS'],
      [{ legs: [{ account: available, amount: 0n }, { account: house, amount: 0n }] }, 'BAD_AMOUNT'],
      [{ legs: transfer(walletAccount(2 ** 40, 'available'), house, 5n) }, 'UNKNOWN_ACCOUNT'],
      // USDT has 6 decimals: 0.0000001 is finer than it can hold.
      [{ legs: transfer(systemAccount(currency.USDT, 'house'), walletAccount(p.wallet.USDT, 'available'), 10n) }, 'PRECISION'],
      [{ kind: 'Not A Kind' }, 'BAD_KIND'],
      [{ at: new Date('nope') }, 'BAD_DATE'],
      [{ visible: { walletId: p.wallet.LTC, type: 'casino', actionType: 'bet', status: 'completed', amount: 5n } }, 'GAME_IDENTIFIER'],
      [{ visible: { walletId: p.wallet.BTC, type: 'deposit', actionType: 'deposit', status: 'completed', amount: 5n } }, 'VISIBLE_WALLET_UNTOUCHED'],
    ];
    const counts = await ledgerCounts();
    for (const [change, problem] of cases) {
      const posting: Posting = { kind: 'test', at: AT, legs: transfer(available, house, 5n), ...change };
      const error = await post(posting).catch((e: unknown) => e);
      expect(error, problem).toBeInstanceOf(LedgerInputError);
      expect(error, problem).toMatchObject({ problem });
    }
    await expect(postTransaction(db, { kind: 'test', at: AT, legs: transfer(available, house, 5n) })).rejects.toThrow(/transaction handle/);
    expect(await ledgerCounts()).toEqual(counts);
    expect(await balances(p.wallet.LTC)).toEqual({ available: coins('1'), pending: 0n, bonus: 0n });
  });
});

/** Postings as ledger_post_many takes a set of them: deposits of `amount` into each player's LTC wallet, keys given. */
function depositSet(tx: Queryable, players: readonly Player[], amount: string, keys: readonly string[]) {
  const n = players.length;
  return tx.query<{ out_n: number; out_id: number; out_replayed: boolean; out_available: string }>(
    `SELECT out_n, out_id::int AS out_id, out_replayed, out_available::text FROM ledger_post_many($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
       $13, $14, $15, $16, $17)`,
    [AT, Array(n).fill('deposit'), Array(n).fill('deposit:set'), keys, players.map((p) => p.wallet.LTC), Array(n).fill('deposit'),
      Array(n).fill('deposit'), Array(n).fill('completed'), Array(n).fill(amount), Array(n).fill(null), Array(n).fill(null), Array(n).fill(null),
      players.flatMap((_, i) => [i + 1, i + 1]), players.flatMap((p) => [null, p.wallet.LTC]), players.flatMap(() => [currency.LTC, null]),
      players.flatMap(() => ['provider_clearing', 'available']), players.flatMap(() => [`-${amount}`, amount])],
  );
}

describe('ledger_post_many', () => {
  it('posts a set of postings at once, answering each in order, a replay among them moving nothing', async () => {
    const players = await Promise.all([newPlayer(), newPlayer(), newPlayer()]);
    const keys = players.map((p) => `set-${p.userId}`);
    const first = await db.transaction((tx) => depositSet(tx, players.slice(0, 1), '0.5', keys.slice(0, 1)));
    const counts = await ledgerCounts();
    const rows = await db.transaction((tx) => depositSet(tx, players, '0.5', keys));
    expect(rows.map((row) => [row.out_n, row.out_replayed, row.out_available])).toEqual([
      [1, true, '0.50000000'],
      [2, false, '0.50000000'],
      [3, false, '0.50000000'],
    ]);
    expect(rows[0]!.out_id).toBe(first[0]!.out_id);
    expect(await ledgerCounts()).toEqual({ transactions: counts.transactions + 2, entries: counts.entries + 4 });
    for (const p of players) expect(await balances(p.wallet.LTC)).toEqual({ available: coins('0.5'), pending: 0n, bonus: 0n });
    // Each is the transaction postTransaction would have written: its visible record chained from zero.
    const written = await db.query<{ before_balance: string; after_balance: string; user_id: number }>(
      'SELECT before_balance::text, after_balance::text, user_id::int FROM ledger_transactions WHERE id = ANY ($1) ORDER BY id',
      [rows.map((row) => row.out_id)],
    );
    expect(written.map((row) => [row.user_id, row.before_balance, row.after_balance])).toEqual(
      players.map((p) => [p.userId, '0.00000000', '0.50000000']),
    );
  });

  it('refuses a set that holds one wallet in two postings, or one key twice, writing nothing', async () => {
    const p = await newPlayer();
    const counts = await ledgerCounts();
    const refusal = (run: Promise<unknown>) => run.then(() => 'posted', (error: Error & { code?: string }) => `${error.code} ${error.message}`);
    expect(await refusal(db.transaction((tx) => depositSet(tx, [p, p], '0.1', [`a-${p.userId}`, `b-${p.userId}`])))).toBe(
      'LG003 BAD_ACCOUNT: a wallet is in two postings of one set',
    );
    const q = await newPlayer();
    expect(await refusal(db.transaction((tx) => depositSet(tx, [p, q], '0.1', [`c-${p.userId}`, `c-${p.userId}`])))).toBe(
      `LG003 BAD_IDEMPOTENCY_KEY: deposit:set / c-${p.userId} is the key of two postings of one set`,
    );
    expect(await ledgerCounts()).toEqual(counts);
    expect(await balances(p.wallet.LTC)).toEqual({ available: 0n, pending: 0n, bonus: 0n });
  });
});

describe('rounding', () => {
  it('rounds fees up, to the currency precision', () => {
    expect(feeUnits(coins('0.000006'), 8)).toBe(coins('0.000006'));
    expect(feeUnits(1n, 6)).toBe(coins('0.000001')); // a unit of fee, charged as a whole step of the currency
    expect(feeUnits(coins('0.00000101'), 6)).toBe(coins('0.000002'));
    expect(roundToCurrency(-150n, 6, 'up')).toBe(-100n);
    expect(roundToCurrency(-150n, 6, 'down')).toBe(-200n);
  });
});

// ── ledger:check ─────────────────────────────────────────────────────────────────────────────────────

describe('verifyLedger', () => {
  it('passes on a consistent ledger and names a corrupted cached balance', async () => {
    const p = await newPlayer();
    await post(depositPosting(p, coins('1')));
    const good = await verifyLedger(db);
    expect(good.ok).toBe(true);
    expect(good.totals.find((t) => t.currencyCode === 'LTC')?.players.available).toBeGreaterThanOrEqual(coins('1'));

    await db.query('UPDATE wallets SET available = available + 0.00000001 WHERE id = $1', [p.wallet.LTC]);
    try {
      const bad = await verifyLedger(db);
      expect(bad.ok).toBe(false);
      expect(bad.walletMismatches).toEqual([
        { walletId: p.wallet.LTC, userId: p.userId, currencyCode: 'LTC', kind: 'available', cached: coins('1.00000001'), fromEntries: coins('1'), accountMissing: false },
      ]);
    } finally {
      await db.query('UPDATE wallets SET available = available - 0.00000001 WHERE id = $1', [p.wallet.LTC]);
    }
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});

// ── Property: random postings keep every invariant ─────────────────────────────────────────────────

type Op =
  | { t: 'deposit' | 'bet' | 'win' | 'payout' | 'refund' | 'bonus' | 'convert'; w: 0 | 1; amount: bigint }
  | { t: 'withdraw'; w: 0 | 1; amount: bigint; fee: bigint }
  | { t: 'replay'; pick: number }
  | { t: 'reuse'; pick: number };

const amountArb = fc.bigInt({ min: 1n, max: 1_000_000n });
const walletArb = fc.constantFrom<0 | 1>(0, 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('deposit' as const), w: walletArb, amount: amountArb }) },
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constantFrom('bet' as const, 'win' as const, 'payout' as const, 'refund' as const, 'bonus' as const, 'convert' as const), w: walletArb, amount: amountArb }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('withdraw' as const), w: walletArb, amount: amountArb, fee: fc.bigInt({ min: 0n, max: 1_000n }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('replay' as const, 'reuse' as const), pick: fc.nat() }) },
);

interface Model {
  available: bigint;
  pending: bigint;
  bonus: bigint;
}

/** The legs of an operation, and what it does to the model wallet (null when the model says it must fail). */
function plan(op: Exclude<Op, { t: 'replay' | 'reuse' }>, walletId: number, m: Model): { legs: Leg[]; next: Model | null } {
  const available = walletAccount(walletId, 'available');
  const pending = walletAccount(walletId, 'pending');
  const bonus = walletAccount(walletId, 'bonus');
  const sys = (kind: 'house' | 'provider_clearing' | 'fees' | 'bonus_pool') => systemAccount(currency.LTC, kind);
  const a = op.amount;
  const guard = (next: Model) => (next.available < 0n || next.pending < 0n || next.bonus < 0n ? null : next);
  switch (op.t) {
    case 'deposit':
      return { legs: transfer(sys('provider_clearing'), available, a), next: { ...m, available: m.available + a } };
    case 'bet':
      return { legs: transfer(available, sys('house'), a), next: guard({ ...m, available: m.available - a }) };
    case 'win':
      return { legs: transfer(sys('house'), available, a), next: { ...m, available: m.available + a } };
    case 'payout':
      return { legs: transfer(pending, sys('provider_clearing'), a), next: guard({ ...m, pending: m.pending - a }) };
    case 'refund':
      return { legs: transfer(pending, available, a), next: guard({ ...m, pending: m.pending - a, available: m.available + a }) };
    case 'bonus':
      return { legs: transfer(sys('bonus_pool'), bonus, a), next: { ...m, bonus: m.bonus + a } };
    case 'convert':
      return { legs: transfer(bonus, available, a), next: guard({ ...m, bonus: m.bonus - a, available: m.available + a }) };
    case 'withdraw': {
      const legs: Leg[] = [
        { account: available, amount: -(a + op.fee) },
        { account: pending, amount: a },
        ...(op.fee > 0n ? [{ account: sys('fees'), amount: op.fee }] : []),
      ];
      return { legs, next: guard({ ...m, available: m.available - a - op.fee, pending: m.pending + a }) };
    }
  }
}

describe('ledger property', () => {
  it('keeps balances non-negative, transactions balanced, caches equal to entries, and replays still', { timeout: 300_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        run += 1;
        const players = [await newPlayer(), await newPlayer()];
        const wallets = players.map((p) => p.wallet.LTC);
        const models: Model[] = [
          { available: 0n, pending: 0n, bonus: 0n },
          { available: 0n, pending: 0n, bonus: 0n },
        ];
        const posted: { posting: Posting; result: PostingResult }[] = [];
        for (const [i, op] of ops.entries()) {
          if (op.t === 'replay' || op.t === 'reuse') {
            if (posted.length === 0) continue;
            const first = posted[op.pick % posted.length]!;
            const walletsBefore = await Promise.all(wallets.map(balances));
            const counts = await ledgerCounts();
            if (op.t === 'replay') {
              const again = await post({ ...first.posting, at: new Date(AT.getTime() + i) });
              expect(again).toEqual({ transaction: first.result.transaction, replayed: true });
            } else {
              const changed: Posting = { ...first.posting, legs: first.posting.legs.map((leg) => ({ ...leg, amount: leg.amount * 2n })) };
              await expect(post(changed)).rejects.toBeInstanceOf(IdempotencyConflictError);
            }
            expect(await Promise.all(wallets.map(balances))).toEqual(walletsBefore);
            expect(await ledgerCounts()).toEqual(counts);
            continue;
          }
          const walletId = wallets[op.w]!;
          const model = models[op.w]!;
          const { legs, next } = plan(op, walletId, model);
          const posting: Posting = { kind: `prop.${op.t}`, at: AT, legs, idempotency: { scope: 'prop', key: `${process.pid}-${run}-${i}` } };
          const outcome = await post(posting).catch((e: unknown) => e);
          if (next === null) {
            expect(outcome).toBeInstanceOf(InsufficientBalanceError);
          } else {
            if (!(outcome && typeof outcome === 'object' && 'transaction' in outcome)) throw outcome;
            const result = outcome as PostingResult;
            expect(result.replayed).toBe(false);
            const perCurrency = new Map<number, bigint>();
            for (const e of result.transaction.entries) perCurrency.set(e.currencyId, (perCurrency.get(e.currencyId) ?? 0n) + e.amount);
            for (const total of perCurrency.values()) expect(total).toBe(0n);
            models[op.w] = next;
            posted.push({ posting, result });
          }
        }
        for (const [w, walletId] of wallets.entries()) {
          const cached = await balances(walletId);
          expect(cached).toEqual(models[w]);
          for (const kind of ['available', 'pending', 'bonus'] as const) {
            expect(cached[kind]).toBeGreaterThanOrEqual(0n);
            expect(await accountBalance(db, walletAccount(walletId, kind))).toBe(cached[kind]);
          }
        }
        const report = await verifyLedger(db);
        expect(report.walletMismatches).toEqual([]);
        expect(report.unbalancedTransactions).toEqual([]);
        expect(report.ok).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(await findWallet(db, (await newPlayer()).userId, 'LTC')).toMatchObject({ available: 0n, pending: 0n, bonus: 0n });
  });
});
