import { MAX_PROVIDER_AMOUNT, parseSignedAmount } from '../../src/money.ts';
import type { AppContext } from '../context.ts';
import { maybeOne } from '../db/db.ts';
import { badRequest, DomainError } from './errors.ts';
import { WEBHOOK_PATHS, type PaymentProviderFailure, type ProviderNotification } from '../providers/payment.ts';
import { findWallet, type WalletBalances } from './wallets.ts';

/**
 * What deposits (deposits.ts) and withdrawals (withdrawals.ts) both check before they ask the payment
 * provider for anything: the provider the player chose may take this direction, and the player holds a
 * wallet of an enabled currency. Also the one mapping of the provider's failures to the contract's codes.
 */

export interface PaymentCurrency {
  id: number;
  code: string;
  network: string;
  decimals: number;
  minDeposit: bigint;
  minWithdraw: bigint;
  withdrawFee: bigint;
}

/**
 * The currency and the player's wallet a deposit or withdrawal is for. Refusals: 404 NOT_FOUND (no such
 * active provider), 422 PAYMENT_PROVIDER_DEPOSIT_NOT_ALLOWED / PAYMENT_PROVIDER_WITHDRAW_NOT_ALLOWED,
 * 422 CURRENCY_NOT_AVAILABLE (unknown or disabled currency, or no wallet of it), 422
 * PAYMENT_PROVIDER_LIMITS_NOT_EXISTS (the configured payment adapter is not set up for the currency).
 */
export async function paymentTarget(
  ctx: AppContext,
  userId: number,
  direction: 'deposit' | 'withdraw',
  input: { currencyCode: string; paymentProviderId?: number },
): Promise<{ currency: PaymentCurrency; wallet: WalletBalances }> {
  const provider = await maybeOne<{ deposit_allowed: boolean; withdraw_allowed: boolean }>(
    ctx.db,
    input.paymentProviderId === undefined
      ? "SELECT deposit_allowed, withdraw_allowed FROM payment_providers WHERE key = 'coinpayments' AND active"
      : 'SELECT deposit_allowed, withdraw_allowed FROM payment_providers WHERE id = $1 AND active',
    input.paymentProviderId === undefined ? [] : [input.paymentProviderId],
  );
  if (!provider) throw new DomainError('NOT_FOUND');
  if (direction === 'deposit' && !provider.deposit_allowed) throw new DomainError('PAYMENT_PROVIDER_DEPOSIT_NOT_ALLOWED');
  if (direction === 'withdraw' && !provider.withdraw_allowed) throw new DomainError('PAYMENT_PROVIDER_WITHDRAW_NOT_ALLOWED');

  const row = await maybeOne<{ id: number; code: string; network: string; decimals: number; min_deposit: string; min_withdraw: string; withdraw_fee: string; enabled: boolean }>(
    ctx.db,
    'SELECT id, code, network, decimals, min_deposit, min_withdraw, withdraw_fee, enabled FROM currencies WHERE code = $1',
    [input.currencyCode],
  );
  const wallet = row?.enabled ? await findWallet(ctx.db, userId, row.code) : undefined;
  if (!row || !wallet) throw new DomainError('CURRENCY_NOT_AVAILABLE');
  // The configured adapter has no wallet of the currency, so no limits for it (SPEC §8).
  if (ctx.payments.currencies && !ctx.payments.currencies.includes(row.code)) throw new DomainError('PAYMENT_PROVIDER_LIMITS_NOT_EXISTS');
  const currency: PaymentCurrency = {
    id: row.id,
    code: row.code,
    network: row.network,
    decimals: row.decimals,
    minDeposit: parseSignedAmount(row.min_deposit),
    minWithdraw: parseSignedAmount(row.min_withdraw),
    withdrawFee: parseSignedAmount(row.withdraw_fee),
  };
  return { currency, wallet };
}

/**
 * A provider's notification is read before anything is recorded: a deposit over MAX_PROVIDER_AMOUNT
 * (openapi.yaml ProviderAmount) is refused with 400 PLEASE_CHECK_REQUEST_DATA, field code `amount.max`,
 * whatever the provider's own form was (the CoinPayments adapter reads the amount out of its body).
 */
export function assertProviderAmount(notification: ProviderNotification): void {
  if (notification.type === 'deposit' && notification.amount > MAX_PROVIDER_AMOUNT) throw badRequest([{ field: 'amount', code: 'amount.max' }]);
}

const PROVIDER_FAILURES: Record<PaymentProviderFailure, () => DomainError> = {
  unavailable: () => new DomainError('COIN_PAYMENTS_SERVER_ERROR'),
  insufficient_funds: () => new DomainError('NOT_ENOUGH_AMOUNT'),
  invalid_address: () => new DomainError('INVALID_ADDRESS'),
  rejected: () => new DomainError('PAYMENT_ERROR'),
};

/** The contract's answer to a provider failure. */
export function providerFailureError(failure: PaymentProviderFailure): DomainError {
  return PROVIDER_FAILURES[failure]();
}

export function isProviderFailure(value: string | null): value is PaymentProviderFailure {
  return value !== null && Object.hasOwn(PROVIDER_FAILURES, value);
}

/** The URL the provider must call for this server's webhooks (deposits and withdrawals alike). */
export function webhookUrl(ctx: AppContext): string {
  // A real provider needs the public address; the simulator runs in this process and calls the server
  // wherever it listens (see SimulatorOptions.selfUrl).
  const base = ctx.payments.key === 'simulator' ? (ctx.listening.url ?? ctx.config.publicUrl) : ctx.config.publicUrl;
  return `${base}/api/v1${WEBHOOK_PATHS[ctx.payments.key]}`;
}
