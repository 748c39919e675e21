import type { AppContext } from '../context.ts';
import { badRequest, DomainError } from '../domain/errors.ts';
import { reviewDocument } from '../domain/documents.ts';
import { setUserActive } from '../domain/users.ts';
import { listMailbox } from '../providers/mail.ts';
import {
  UnknownChainAddressError,
  UnknownChainTransferError,
  UnknownPayoutError,
  type ChainTransfer,
  type SimulatorPaymentProvider,
  type SimulatorPayout,
} from '../providers/payment-simulator.ts';
import type { PaymentProvider } from '../providers/payment.ts';
import { amountIssue } from '../../src/rules/amount.ts';
import { formatAmount, parseAmount } from '../../src/money.ts';
import { apiDocument } from './mappers.ts';
import type { JsonHandlers } from './types.ts';

function isSimulator(provider: PaymentProvider): provider is SimulatorPaymentProvider {
  return provider.key === 'simulator';
}

function apiTransfer(transfer: ChainTransfer) {
  return {
    txId: transfer.txId,
    address: transfer.address,
    currencyCode: transfer.currencyCode,
    amount: formatAmount(transfer.amount),
    confirmations: transfer.confirmations,
    settled: transfer.settled,
    callbackStatus: transfer.lastCallbackStatus,
  };
}

function apiPayout(payout: SimulatorPayout) {
  return {
    spendRequestId: payout.spendRequestId,
    address: payout.address,
    currencyCode: payout.currencyCode,
    amount: formatAmount(payout.amount),
    status: payout.status,
    txId: payout.txId,
    callbackStatus: payout.lastCallbackStatus,
  };
}

/** The simulator's side doors: outside simulator mode they do not exist. */
export function simulatorHandlers(ctx: AppContext): JsonHandlers {
  const enabled = () => {
    if (!ctx.config.simulator) throw new DomainError('NOT_FOUND');
  };
  /** The payment simulator's chain; with a real payment provider there is none. */
  const chain = (): SimulatorPaymentProvider => {
    enabled();
    if (!isSimulator(ctx.payments)) throw new DomainError('NOT_FOUND');
    return ctx.payments;
  };
  return {
    devChainTransfer: async ({ body }) => {
      const simulator = chain();
      const issue = amountIssue(body.amount);
      if (issue) throw badRequest([{ field: 'amount', code: issue }]);
      try {
        const transfer = await simulator.transfer(body.address, parseAmount(body.amount));
        return { txId: transfer.txId, transfer: apiTransfer(transfer) };
      } catch (error) {
        if (error instanceof UnknownChainAddressError) throw new DomainError('NOT_FOUND');
        throw error;
      }
    },

    devChainConfirm: async ({ body }) => {
      const simulator = chain();
      try {
        return { transfer: apiTransfer(await simulator.confirm(body.txId, body.confirmations)) };
      } catch (error) {
        if (error instanceof UnknownChainTransferError) throw new DomainError('NOT_FOUND');
        throw error;
      }
    },

    devWithdrawalsSettle: async ({ body }) => {
      const simulator = chain();
      try {
        return { payout: apiPayout(await simulator.settlePayout(body.spendRequestId, body.outcome)) };
      } catch (error) {
        if (error instanceof UnknownPayoutError) throw new DomainError('NOT_FOUND');
        throw error;
      }
    },

    devGetMailbox: async ({ query }) => {
      enabled();
      return { messages: await listMailbox(ctx.db, query.to) };
    },

    devReviewDocument: async ({ body }) => {
      enabled();
      return { document: apiDocument(await reviewDocument(ctx, body.documentId, body.status)) };
    },

    devSetUserActive: async ({ body }) => {
      enabled();
      await setUserActive(ctx.db, body.email, body.active, ctx.now());
      return { success: true };
    },
  };
}
