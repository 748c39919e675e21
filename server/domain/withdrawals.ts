import { createHash } from 'node:crypto';
import { formatAmount, MAX_TRANSFER_AMOUNT, parseAmount, parseSignedAmount } from '../../src/money.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { ApiError, badRequest } from '../errors.ts';
import { PaymentProviderError, type PaymentProviderFailure, type WithdrawalNotification } from '../providers/payment.ts';
import { assertCashoutAllowed } from './bonuses.ts';
import {
  currencyStep,
  feeUnits,
  idempotency,
  InsufficientBalanceError,
  postTransaction,
  systemAccount,
  transfer,
  walletAccount,
  type IdempotencyKey,
} from './ledger.ts';
import { isProviderFailure, paymentTarget, providerFailureError, webhookUrl } from './payments.ts';

/**
 * Crypto withdrawals (SPEC §5, §9): the player asks for a payout of `amount` to `address`; the casino's
 * fee is charged on top.
 *
 * 1. In one database transaction with the wallet row locked (concurrent requests of one wallet queue
 *    here): the checks, then amount + fee moves available → pending (a visible pending `withdraw`) and
 *    the withdrawal row is written `requested`. The partial unique index on open withdrawals backs the
 *    one-at-a-time rule even if a check were wrong.
 * 2. Outside it (a provider may take its time): the provider's spend request, then its confirmation; the
 *    row turns `pending`. A refusal ({@link PaymentProviderError}) returns the funds in a new transaction
 *    (pending → available, visible `withdrawRefund`, failed) and the player gets the refusal's code.
 * 3. The provider's webhook ({@link applyWithdrawalNotification}), keyed by the spend request id:
 *    confirmed: pending → provider_clearing (amount, visible completed `withdraw`) and pending → fees
 *    (the fee, visible completed `withdrawFee`); failed: pending → available (visible failed
 *    `withdrawRefund`). A replayed or late notification finds the row final and moves nothing.
 */

export type WithdrawalStatus = 'requested' | 'pending' | 'completed' | 'failed';

/** paymentWithdraw's answer. */
export interface WithdrawalRequestView {
  spendRequestId: string;
  status: 'pending';
  amount: string;
  fee: string;
  currencyCode: string;
  address: string;
}

/** A withdrawal as the webhook answers it (openapi.yaml WebhookWithdrawal). */
export interface WithdrawalView {
  spendRequestId: string;
  address: string;
  currencyCode: string;
  amount: string;
  fee: string;
  status: 'completed' | 'failed';
  txId: string | null;
  /** False when the notification moved nothing. */
  changed: boolean;
}

export interface WithdrawalInput {
  amount: string;
  address: string;
  currencyCode: string;
  paymentProviderId?: number;
}

/** Failure recorded for a payout the provider reported failed by webhook (after it had accepted it). */
const REPORTED_FAILURE = 'provider_failed';

// ---------------------------------------------------------------------------------------------------
// Addresses: each network's own format, checksum included, so a mistyped address never leaves the casino.

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
/** BIP-173 (witness version 0) and BIP-350 (versions 1 to 16) checksum constants. */
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function bech32Polymod(values: readonly number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) checksum ^= BECH32_GENERATOR[i] ?? 0;
  }
  return checksum >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >>> 5), 0, ...codes.map((c) => c & 31)];
}

/** Regroups bits (8 → 5 to encode, 5 → 8 to decode); null when the padding is not what BIP-173 allows. */
function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & max);
    }
    acc &= (1 << bits) - 1;
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max);
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) {
    return null;
  }
  return out;
}

/** A segwit address (bech32 for version 0, bech32m above), e.g. `ltc1q...`. */
export function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const words = convertBits([...program], 8, 5, true) ?? [];
  const data = [version, ...words];
  const polymod = bech32Polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ (version === 0 ? BECH32_CONST : BECH32M_CONST);
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32_CHARSET[d]).join('')}`;
}

function isSegwitAddress(hrp: string, address: string): boolean {
  if (address.length > 90 || (address !== address.toLowerCase() && address !== address.toUpperCase())) return false;
  const lower = address.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (lower.slice(0, separator) !== hrp) return false;
  const data = [...lower.slice(separator + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (data.length < 7 || data.includes(-1)) return false;
  const version = data[0] ?? -1;
  if (version > 16) return false;
  const constant = bech32Polymod([...hrpExpand(hrp), ...data]);
  if (constant !== (version === 0 ? BECH32_CONST : BECH32M_CONST)) return false;
  const program = convertBits(data.slice(1, -6), 5, 8, false);
  if (!program || program.length < 2 || program.length > 40) return false;
  return version !== 0 || program.length === 20 || program.length === 32;
}

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/** A base58check address: a version byte, the payload and 4 bytes of double SHA-256. */
export function base58CheckAddress(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Buffer.from([version]), Buffer.from(payload)]);
  const bytes = Buffer.concat([body, doubleSha256(body).subarray(0, 4)]);
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE58_ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** The version byte of a valid base58check address with a 20-byte payload; null when it is not one. */
function base58CheckVersion(address: string): number | null {
  if (address.length < 26 || address.length > 36) return null;
  let value = 0n;
  for (const c of address) {
    const digit = BASE58_ALPHABET.indexOf(c);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = address.length - address.replace(/^1+/, '').length;
  const bytes = Buffer.concat([Buffer.alloc(zeros), body]);
  if (bytes.length !== 25) return null;
  const checksum = doubleSha256(bytes.subarray(0, 21)).subarray(0, 4);
  return checksum.equals(bytes.subarray(21)) ? (bytes[0] ?? null) : null;
}

interface NetworkFormat {
  /** Segwit human-readable part, if the network has segwit addresses. */
  hrp?: string;
  /** Version bytes of its base58check addresses. */
  base58Versions?: readonly number[];
  /** Any other shape (Ethereum's hex addresses). */
  pattern?: RegExp;
}

/** By the currencies table's `network`. A network missing here has no payouts: its addresses all fail. */
const NETWORK_FORMATS: Record<string, NetworkFormat> = {
  // P2PKH L (0x30), P2SH M (0x32) and the older 3 (0x05) still in use, and ltc1 segwit.
  Litecoin: { hrp: 'ltc', base58Versions: [0x30, 0x32, 0x05] },
  Bitcoin: { hrp: 'bc', base58Versions: [0x00, 0x05] },
  // Mixed-case EIP-55 checksums need Keccak-256, which Node's crypto lacks: the shape alone is checked.
  Ethereum: { pattern: /^0x[0-9a-fA-F]{40}$/ },
  'Tron TRC20': { base58Versions: [0x41] },
};

/** The address is well formed for the network, checksum included. */
export function isValidAddress(network: string, address: string): boolean {
  const format = NETWORK_FORMATS[network];
  if (!format) return false;
  if (format.pattern?.test(address)) return true;
  if (format.hrp && isSegwitAddress(format.hrp, address)) return true;
  const version = format.base58Versions ? base58CheckVersion(address) : null;
  return version !== null && (format.base58Versions?.includes(version) ?? false);
}

// ---------------------------------------------------------------------------------------------------
// Requests

interface WithdrawalRow {
  id: number;
  wallet_id: number;
  user_id: number;
  currency_id: number;
  code: string;
  address: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
  spend_request_id: string | null;
  provider_tx_id: string | null;
  failure: string | null;
  request_hash: string | null;
  hold_transaction_id: number;
}

const WITHDRAWAL_COLUMNS = `w.id, w.wallet_id, w.user_id, w.currency_id, c.code, w.address, w.amount, w.fee, w.status, w.spend_request_id,
  w.provider_tx_id, w.failure, w.request_hash, w.hold_transaction_id`;


function requestView(row: WithdrawalRow): WithdrawalRequestView {
  if (row.spend_request_id === null) throw new Error(`withdrawal ${row.id} has no spend request yet`);
  return {
    spendRequestId: row.spend_request_id,
    status: 'pending',
    amount: formatAmount(parseSignedAmount(row.amount)),
    fee: formatAmount(parseSignedAmount(row.fee)),
    currencyCode: row.code,
    address: row.address,
  };
}

/**
 * What a replay of an accepted request answers: its first response. A request the provider refused
 * answered that refusal; one the provider accepted answered pending, whatever became of it since; one
 * still with the provider has no answer yet, so it is the pending request that blocks a second one.
 */
function replay(row: WithdrawalRow, hash: string): WithdrawalRequestView {
  if (row.request_hash !== hash) throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED');
  if (row.status === 'failed' && isProviderFailure(row.failure)) throw providerFailureError(row.failure);
  if (row.status === 'requested' || row.spend_request_id === null) throw new ApiError(409, 'WITHDRAWAL_REQUEST_IN_PENDING');
  return requestView(row);
}

function findByIdempotencyKey(db: Queryable, userId: number, key: string): Promise<WithdrawalRow | undefined> {
  return maybeOne<WithdrawalRow>(
    db,
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE w.user_id = $1 AND w.idempotency_key = $2`,
    [userId, key],
  );
}

function loadWithdrawal(db: Queryable, id: number): Promise<WithdrawalRow> {
  return one<WithdrawalRow>(db, `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE w.id = $1`, [id]);
}

/** The hold back from pending to available, once, with the provider's refusal recorded. */
async function refundRefused(ctx: AppContext, withdrawalId: number, failure: PaymentProviderFailure): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await one<WithdrawalRow>(
      tx,
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id WHERE w.id = $1 FOR UPDATE OF w`,
      [withdrawalId],
    );
    // A webhook may have settled it meanwhile (a provider that failed it before answering us).
    if (row.status !== 'requested') return;
    const total = parseSignedAmount(row.amount) + parseSignedAmount(row.fee);
    const now = ctx.now();
    const refund = await postTransaction(tx, {
      kind: 'withdraw.refund',
      at: now,
      legs: transfer(walletAccount(row.wallet_id, 'pending'), walletAccount(row.wallet_id, 'available'), total),
      visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdrawRefund', status: 'failed', amount: total },
      relatedTransactionId: row.hold_transaction_id,
    });
    await tx.query(`UPDATE withdrawals SET status = 'failed', failure = $2, refund_transaction_id = $3, updated_at = $4 WHERE id = $1`, [
      row.id,
      failure,
      refund.transaction.id,
      now,
    ]);
  });
}

/**
 * paymentWithdraw. `idempotencyKey` is the optional Idempotency-Key header: a key is remembered once a
 * request with it was accepted (funds held); a refused request moved nothing, so trying it again is
 * harmless and is checked afresh.
 */
export async function requestWithdrawal(
  ctx: AppContext,
  userId: number,
  input: WithdrawalInput,
  idempotencyKey?: string,
): Promise<WithdrawalRequestView> {
  const hash = createHash('sha256')
    .update(JSON.stringify([input.amount, input.address, input.currencyCode, input.paymentProviderId ?? null]))
    .digest('hex');
  if (idempotencyKey !== undefined) {
    const earlier = await findByIdempotencyKey(ctx.db, userId, idempotencyKey);
    if (earlier) return replay(earlier, hash);
  }

  const issue = amountIssue(input.amount, { maxUnits: MAX_TRANSFER_AMOUNT });
  if (issue) throw badRequest([{ field: 'amount', code: issue }]);
  const amount = parseAmount(input.amount);

  const { currency, wallet } = await paymentTarget(ctx, userId, 'withdraw', input);
  if (amount % currencyStep(currency.decimals) !== 0n) throw badRequest([{ field: 'amount', code: 'amount.decimals' }]);
  if (amount < currency.minWithdraw) throw new ApiError(422, 'MINIMUM_WITHDRAW_AMOUNT_LIMIT');
  if (!isValidAddress(currency.network, input.address)) throw new ApiError(422, 'INVALID_ADDRESS');
  const fee = feeUnits(amount, { flat: currency.withdrawFee, decimals: currency.decimals });
  const total = amount + fee;

  const held = await ctx.db.transaction(async (tx): Promise<{ replayed: WithdrawalRequestView } | { withdrawalId: number }> => {
    const now = ctx.now();
    let ledgerKey: IdempotencyKey | null = null;
    if (idempotencyKey !== undefined) {
      // Two requests with one key queue here; the second finds the first's row.
      ledgerKey = idempotency.playerRequest(userId, 'paymentWithdraw', idempotencyKey);
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`withdraw:${userId}:${idempotencyKey}`]);
      const earlier = await findByIdempotencyKey(tx, userId, idempotencyKey);
      if (earlier) return { replayed: replay(earlier, hash) };
    }
    // The wallet row lock serialises this wallet's withdrawals: the checks below see every earlier one.
    const locked = await one<{ available: string }>(tx, 'SELECT available FROM wallets WHERE id = $1 FOR UPDATE', [wallet.walletId]);
    await assertCashoutAllowed(tx, wallet.walletId, now);
    const open = await maybeOne<{ id: number }>(tx, "SELECT id FROM withdrawals WHERE wallet_id = $1 AND status IN ('requested', 'pending')", [
      wallet.walletId,
    ]);
    if (open) throw new ApiError(409, 'WITHDRAWAL_REQUEST_IN_PENDING');
    if (parseSignedAmount(locked.available) < total) throw new ApiError(422, 'INSUFFICIENT_BALANCE');
    const hold = await postTransaction(tx, {
      kind: 'withdraw.request',
      at: now,
      legs: transfer(walletAccount(wallet.walletId, 'available'), walletAccount(wallet.walletId, 'pending'), total),
      idempotency: ledgerKey,
      visible: { walletId: wallet.walletId, type: 'withdraw', actionType: 'withdraw', status: 'pending', amount: total },
    }).catch((error: unknown) => {
      // The ledger's own guard, should a balance have moved without this lock: the same answer.
      throw error instanceof InsufficientBalanceError ? new ApiError(422, 'INSUFFICIENT_BALANCE') : error;
    });
    const inserted = await one<{ id: number }>(
      tx,
      `INSERT INTO withdrawals (provider, wallet_id, user_id, currency_id, address, amount, fee, status, idempotency_key, request_hash,
         hold_transaction_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'requested', $8, $9, $10, $11, $11) RETURNING id`,
      [
        ctx.payments.key,
        wallet.walletId,
        userId,
        currency.id,
        input.address,
        formatAmount(amount),
        formatAmount(fee),
        idempotencyKey ?? null,
        idempotencyKey === undefined ? null : hash,
        hold.transaction.id,
        now,
      ],
    );
    return { withdrawalId: inserted.id };
  });
  if ('replayed' in held) return held.replayed;

  // The provider, outside the database transaction: it may be slow, and the simulator writes through
  // the same database.
  const withdrawalId = held.withdrawalId;
  let spendRequested = false;
  try {
    const spend = await ctx.payments.createSpendRequest({
      withdrawalId,
      walletId: wallet.walletId,
      currencyCode: currency.code,
      network: currency.network,
      address: input.address,
      amount,
      webhookUrl: webhookUrl(ctx),
    });
    // Recorded before the confirmation, so a webhook that outruns the confirmation's answer finds it.
    await ctx.db.query('UPDATE withdrawals SET spend_request_id = $2, updated_at = $3 WHERE id = $1', [withdrawalId, spend.spendRequestId, ctx.now()]);
    spendRequested = true;
    await ctx.payments.confirmSpendRequest(spend.spendRequestId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // A confirmation that went unanswered may still have reached the provider: refunding now could pay
    // the player twice. The funds stay held and the withdrawal pending until the provider's webhook
    // settles it (or support reconciles a confirmation that never arrived). A clear refusal refunds.
    if (!(spendRequested && error.failure === 'unavailable')) {
      await refundRefused(ctx, withdrawalId, error.failure);
      throw providerFailureError(error.failure);
    }
  }
  await ctx.db.query("UPDATE withdrawals SET status = 'pending', updated_at = $2 WHERE id = $1 AND status = 'requested'", [withdrawalId, ctx.now()]);
  return requestView(await loadWithdrawal(ctx.db, withdrawalId));
}

// ---------------------------------------------------------------------------------------------------
// Notifications

/**
 * Applies one verified withdrawal notification of the provider `provider`, in one database transaction
 * with the withdrawal row locked. Only an open withdrawal moves; a final one answers its state with
 * `changed: false` (a replay, or a late notification contradicting what was settled).
 */
export async function applyWithdrawalNotification(ctx: AppContext, provider: string, notification: WithdrawalNotification): Promise<WithdrawalView> {
  return ctx.db.transaction(async (tx) => {
    const row = await maybeOne<WithdrawalRow>(
      tx,
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals w JOIN currencies c ON c.id = w.currency_id
       WHERE w.provider = $1 AND w.spend_request_id = $2 FOR UPDATE OF w`,
      [provider, notification.spendRequestId],
    );
    if (!row) throw new ApiError(404, 'NOT_FOUND');
    const spendRequestId = notification.spendRequestId;
    const amount = parseSignedAmount(row.amount);
    const fee = parseSignedAmount(row.fee);
    let status = row.status;
    let txId = row.provider_tx_id;
    let changed = false;

    if (status === 'requested' || status === 'pending') {
      const now = ctx.now();
      const pending = walletAccount(row.wallet_id, 'pending');
      if (notification.outcome === 'confirmed') {
        const payout = await postTransaction(tx, {
          kind: 'withdraw.payout',
          at: now,
          legs: transfer(pending, systemAccount(row.currency_id, 'provider_clearing'), amount),
          idempotency: idempotency.withdrawal(spendRequestId, 'payout'),
          visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdraw', status: 'completed', amount },
          relatedTransactionId: row.hold_transaction_id,
        });
        let feeId: number | null = null;
        if (fee > 0n) {
          const charged = await postTransaction(tx, {
            kind: 'withdraw.fee',
            at: now,
            legs: transfer(pending, systemAccount(row.currency_id, 'fees'), fee),
            idempotency: idempotency.withdrawal(spendRequestId, 'fee'),
            visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdrawFee', status: 'completed', amount: fee },
            relatedTransactionId: row.hold_transaction_id,
          });
          feeId = charged.transaction.id;
        }
        status = 'completed';
        txId = notification.txId ?? null;
        await tx.query(
          `UPDATE withdrawals SET status = 'completed', provider_tx_id = $2, payout_transaction_id = $3, fee_transaction_id = $4, updated_at = $5
           WHERE id = $1`,
          [row.id, txId, payout.transaction.id, feeId, now],
        );
      } else {
        const refund = await postTransaction(tx, {
          kind: 'withdraw.refund',
          at: now,
          legs: transfer(pending, walletAccount(row.wallet_id, 'available'), amount + fee),
          idempotency: idempotency.withdrawal(spendRequestId, 'refund'),
          visible: { walletId: row.wallet_id, type: 'withdraw', actionType: 'withdrawRefund', status: 'failed', amount: amount + fee },
          relatedTransactionId: row.hold_transaction_id,
        });
        status = 'failed';
        await tx.query(`UPDATE withdrawals SET status = 'failed', failure = $2, refund_transaction_id = $3, updated_at = $4 WHERE id = $1`, [
          row.id,
          REPORTED_FAILURE,
          refund.transaction.id,
          now,
        ]);
      }
      changed = true;
    }
    return {
      spendRequestId,
      address: row.address,
      currencyCode: row.code,
      amount: formatAmount(amount),
      fee: formatAmount(fee),
      // Whatever the notification, the withdrawal it leaves is final.
      status,
      txId,
      changed,
    };
  });
}
