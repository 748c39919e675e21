import type { AppContext } from '../context.ts';
import { applyDepositNotification } from '../domain/deposits.ts';
import { applyWithdrawalNotification } from '../domain/withdrawals.ts';
import { DomainError, badRequest } from '../domain/errors.ts';
import { assertProviderAmount } from '../domain/payments.ts';
import { CoinPaymentsWebhookError } from '../providers/coinpayments.ts';
import { WebhookSignatureError, type ProviderNotification } from '../providers/payment.ts';
import type { JsonHandlers } from './types.ts';

/**
 * paymentCoinPaymentsWebhook: CoinPayments' wallet notifications. The adapter checks the signature and
 * reads the body (server/providers/coinpayments.ts); deposits and withdrawals book what it says.
 */
export function coinPaymentsHandlers(ctx: AppContext): JsonHandlers {
  return {
    paymentCoinPaymentsWebhook: async ({ req, body }) => {
      // Only the configured provider's webhooks exist.
      if (ctx.payments.key !== 'coinpayments') throw new DomainError('NOT_FOUND');
      let notification: ProviderNotification;
      try {
        notification = ctx.payments.parseWebhook({ rawBody: req.rawBody ?? '', headers: req.headers, body });
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new DomainError('INVALID_SIGNATURE');
        if (error instanceof CoinPaymentsWebhookError) {
          // Answered 200 so that CoinPayments does not retry what the casino will never use.
          if (error.reason === 'ignored') return { type: 'ignored' as const };
          throw badRequest([{ field: error.field ?? 'body', code: 'required' }]);
        }
        throw error;
      }
      assertProviderAmount(notification);
      if (notification.type === 'deposit') {
        return { type: 'deposit' as const, deposit: await applyDepositNotification(ctx, 'coinpayments', notification) };
      }
      return { type: 'withdrawal' as const, withdrawal: await applyWithdrawalNotification(ctx, 'coinpayments', notification) };
    },
  };
}
