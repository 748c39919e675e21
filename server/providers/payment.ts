import { hmacSha256Hex, hmacSha256HexMatches } from '../signatures.ts';

/**
 * The payment-provider boundary. The casino never talks to a blockchain: a provider gives each wallet a
 * deposit address (with a per-address webhook URL) and calls that URL, signed, whenever a transfer to it
 * appears or gains confirmations. Two adapters fit this shape:
 * - `simulator` (server/providers/payment-simulator.ts): keeps its own chain in the database and calls
 *   the server's webhook over real HTTP, exactly as a remote provider would;
 * - `coinpayments` (server/providers/coinpayments.ts): CoinPayments API v2, whose deposit addresses take a
 *   webhook URL each and whose webhooks are signed with HMAC-SHA256.
 *
 * Withdrawals are two-step, as CoinPayments does them: a spend request (the provider prices it; nothing
 * moves yet), then its confirmation; the outcome (sent on chain, or failed) arrives later by webhook.
 *
 * The server side (server/domain/deposits.ts, server/domain/withdrawals.ts) only sees
 * {@link ProviderNotification}s. Notifications are state, not events: a replay or a late duplicate
 * carries the same state and moves nothing.
 */

export type PaymentProviderKey = 'simulator' | 'coinpayments';

/**
 * Where each adapter's webhooks arrive, under /api/v1. The simulator's payloads are the contract's own
 * (PaymentWebhook); CoinPayments sends its own shapes, to a route of its own.
 */
export const WEBHOOK_PATHS: Readonly<Record<PaymentProviderKey, string>> = {
  simulator: '/payment/webhook/simulator',
  coinpayments: '/payment/coinpayments/webhook',
};

export interface DepositAddressRequest {
  /** The casino's wallet the address pays into (for the provider's label; the server keeps the mapping). */
  walletId: number;
  currencyCode: string;
  network: string;
  /** Where the provider must send this address's webhooks. */
  webhookUrl: string;
}

export interface DepositAddress {
  address: string;
  network: string;
}

/** One incoming transfer as the provider sees it now. */
export interface DepositNotification {
  /** The provider's id of the transfer (a chain transaction id): the deposit's idempotency key. */
  txId: string;
  address: string;
  currencyCode: string;
  /** Units of 1e-8 (src/money.ts). */
  amount: bigint;
  confirmations: number;
}

/** Where a withdrawal ended at the provider. */
export type WithdrawalOutcome = 'confirmed' | 'failed';

/** The outcome of one payout, as the provider reports it. */
export interface WithdrawalNotification {
  /** The provider's id of the spend request (returned by {@link PaymentProvider.createSpendRequest}). */
  spendRequestId: string;
  outcome: WithdrawalOutcome;
  /** The chain transaction id of a confirmed payout, when the provider tells it. */
  txId?: string;
}

export type ProviderNotification = ({ type: 'deposit' } & DepositNotification) | ({ type: 'withdrawal' } & WithdrawalNotification);

export interface SpendRequestInput {
  /** The casino's withdrawal id: the provider's client reference, so a retried request is recognised. */
  withdrawalId: number;
  walletId: number;
  currencyCode: string;
  network: string;
  /** The destination address (already checked against the network's format). */
  address: string;
  /** Units of 1e-8: what the player receives; the casino's fee is not sent. */
  amount: bigint;
  /** Where the provider must send this payout's webhooks. */
  webhookUrl: string;
}

export interface SpendRequest {
  spendRequestId: string;
}

/**
 * Where a spend request stands at the provider, when asked (the reconciliation, server/domain/reconcile.ts):
 * `pending`: confirmed, not yet sent or failed; `sent`: on chain (with its transaction id when told);
 * `failed`: the payout failed and nothing left; `unknown`: the provider has no confirmed payout of it (the
 * confirmation never reached it, or it expired unconfirmed).
 */
export type SpendRequestState = { state: 'pending' } | { state: 'sent'; txId?: string } | { state: 'failed' } | { state: 'unknown' };

/** Why the provider refused or could not take a request; mapped to the contract's codes by the caller. */
export type PaymentProviderFailure =
  /** Unreachable, timed out or answered 5xx: nothing is known to have happened (502 COIN_PAYMENTS_SERVER_ERROR). */
  | 'unavailable'
  /** The provider's own wallet cannot cover the payout on this network now (422 NOT_ENOUGH_AMOUNT). */
  | 'insufficient_funds'
  /** The provider refuses the destination address (422 INVALID_ADDRESS). */
  | 'invalid_address'
  /** Any other refusal (502 PAYMENT_ERROR). */
  | 'rejected';

export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  constructor(
    readonly failure: PaymentProviderFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface WebhookRequest {
  /** The body exactly as received: signatures are over these bytes, not over re-serialised JSON. */
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body (already checked against openapi.yaml). */
  body: unknown;
}

/** The webhook's signature is missing or wrong: refused before anything is read from it. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface PaymentProvider {
  readonly key: PaymentProviderKey;
  /**
   * The currency codes the provider is set up for (CoinPayments: its configured wallets); a payment in
   * another has no limits at the provider (422 PAYMENT_PROVIDER_LIMITS_NOT_EXISTS). Absent: every currency.
   */
  readonly currencies?: readonly string[];
  /** A new address for the wallet; the server asks once per wallet and keeps it. */
  createDepositAddress(request: DepositAddressRequest): Promise<DepositAddress>;
  /** Withdrawal step one: asks the provider to price a payout. Throws {@link PaymentProviderError}. */
  createSpendRequest(request: SpendRequestInput): Promise<SpendRequest>;
  /** Withdrawal step two: confirms the spend request; the outcome arrives by webhook. Throws {@link PaymentProviderError}. */
  confirmSpendRequest(spendRequestId: string): Promise<void>;
  /** Asks where a spend request stands (its webhook may never have come). Throws {@link PaymentProviderError}. */
  spendRequestState(spendRequestId: string): Promise<SpendRequestState>;
  /**
   * Verifies a webhook's signature and reads its notification. Throws {@link WebhookSignatureError} when
   * the signature does not match; nothing may be trusted (or changed) before this returns.
   */
  parseWebhook(request: WebhookRequest): ProviderNotification;
  /** Background work (the simulator's block timer); called once the server listens. */
  start?(): void;
  /** Stops background work; called when the server closes. */
  stop?(): Promise<void>;
}

/** The header that carries a webhook's signature: hex HMAC-SHA256 of the raw body. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';

export const signWebhook = hmacSha256Hex;

/** Constant-time comparison of a received signature with the expected one. */
export const verifyWebhookSignature = hmacSha256HexMatches;
