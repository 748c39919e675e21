import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Queryable } from '../../server/db/db.ts';
import { verifyLedger, type AccountRef, type Posting } from '../../server/domain/ledger.ts';
import { parseSignedAmount } from '../../src/money.ts';
import { signWebhook } from '../../server/providers/payment.ts';
import { registeredPlayer, type CallResult, type TestServer } from './api.ts';

/** Shared steps of the money tests: funding a player through the simulator's chain, reading wallets, proving the ledger. */

export type Player = Awaited<ReturnType<typeof registeredPlayer>>;

const accountKey = (ref: AccountRef) => ('walletId' in ref ? `wallet:${ref.walletId}:${ref.kind}` : `system:${ref.currencyId}:${ref.kind}`);

/**
 * The request hash a posting is stored with, computed here independently of the database's ledger_post:
 * SHA-256 of its canonical JSON (kind, legs netted per account in key order, visible record, related
 * transaction). Rows written by every earlier version carry this hash, so a replay after an upgrade must
 * find the same one.
 */
export function postingRequestHash(posting: Posting): string {
  const nets = new Map<string, bigint>();
  for (const leg of posting.legs) nets.set(accountKey(leg.account), (nets.get(accountKey(leg.account)) ?? 0n) + leg.amount);
  const legs = [...nets].filter(([, amount]) => amount !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const v = posting.visible;
  return createHash('sha256')
    .update(
      JSON.stringify({
        kind: posting.kind,
        legs: legs.map(([key, amount]) => [key, amount.toString()]),
        visible: v ? [v.walletId, v.type, v.actionType, v.status, v.amount.toString(), v.gameIdentifier ?? null] : null,
        related: posting.relatedTransactionId ?? null,
      }),
    )
    .digest('hex');
}

/** The balance of any account summed from its entries (a casino account has no cached balance). */
export async function accountBalance(db: Queryable, ref: AccountRef): Promise<bigint> {
  const [row] = await db.query<{ total: string }>(
    `SELECT coalesce(sum(e.amount), 0) AS total FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
     WHERE a.kind = $1 AND ${'walletId' in ref ? 'a.wallet_id = $2' : 'a.wallet_id IS NULL AND a.currency_id = $2'}`,
    [ref.kind, 'walletId' in ref ? ref.walletId : ref.currencyId],
  );
  return parseSignedAmount(row?.total ?? '0');
}

/** [status, first error code] of a response, for compact expectations. */
export function code(res: CallResult): [number, string | undefined] {
  return [res.status, (res.body as { errors?: { description: string }[] }).errors?.[0]?.description];
}

export interface WalletView {
  id: number;
  currencyId: number;
  currencyCode: string;
  available: string;
  pending: string;
  bonus: string;
  held: string;
}

/** The player's wallet of `currencyCode`, as userGetWallets shows it. */
export async function walletOf(server: TestServer, player: Player, currencyCode = 'LTC'): Promise<WalletView> {
  const res = await server.call('userGetWallets', { token: player.token });
  expect(res.status).toBe(200);
  const wallet = (res.body.data.wallets as WalletView[]).find((w) => w.currencyCode === currencyCode);
  if (!wallet) throw new Error(`no ${currencyCode} wallet`);
  return wallet;
}

/** The player's LTC deposit address (paymentDeposit). */
export async function depositAddress(server: TestServer, player: Player, amount = '0.5'): Promise<string> {
  const res = await server.call('paymentDeposit', { token: player.token, body: { amount, currencyCode: 'LTC' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.address as string;
}

/** An incoming transfer on the simulator's chain (0 confirmations); its webhook was delivered. */
export async function chainTransfer(server: TestServer, address: string, amount: string): Promise<string> {
  const res = await server.call('devChainTransfer', { body: { address, amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.txId as string;
}

/** A registered player with `amount` LTC available, deposited through the simulator's chain. */
export async function fundedPlayer(server: TestServer, amount: string): Promise<Player & { depositAddress: string }> {
  const player = await registeredPlayer(server);
  const address = await depositAddress(server, player, amount);
  const txId = await chainTransfer(server, address, amount);
  const confirmed = await server.call('devChainConfirm', { body: { txId, confirmations: 6 } });
  expect(confirmed.body.data.transfer.settled).toBe(true);
  return { ...player, depositAddress: address };
}

/** A payment webhook signed with `secret`, sent to the generic provider route. */
export function signedWebhook(server: TestServer, secret: string, body: Record<string, unknown>, provider = 'simulator') {
  const payload = JSON.stringify(body);
  return server.call('paymentWebhook', {
    params: { provider },
    raw: { payload, contentType: 'application/json' },
    headers: { 'x-webhook-signature': signWebhook(secret, payload) },
  });
}

export async function ledgerTransactionCount(server: TestServer): Promise<number> {
  const rows = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transactions');
  return rows[0]!.n;
}

/** Fails with the checker's report unless every transaction balances and every cached balance equals its entries. */
export async function expectLedgerBalanced(server: TestServer): Promise<void> {
  const report = await verifyLedger(server.db);
  expect(report.ok, JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))).toBe(true);
}
