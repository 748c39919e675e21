import type { AppContext } from '../context.ts';
import { listActivity } from '../domain/activity.ts';
import { applyDepositNotification, requestDepositAddress } from '../domain/deposits.ts';
import { applyWithdrawalNotification, requestWithdrawal } from '../domain/withdrawals.ts';
import { DomainError } from '../domain/errors.ts';
import { assertProviderAmount } from '../domain/payments.ts';
import { WebhookSignatureError } from '../providers/payment.ts';
import { player } from './auth-guard.ts';
import type { JsonHandlers } from './types.ts';

export function paymentHandlers(ctx: AppContext): JsonHandlers {
  return {
    paymentDeposit: async (input) => requestDepositAddress(ctx, player(input).userId, input.body),

    paymentGetActivity: async (input) => listActivity(ctx.db, player(input).userId, ctx.now(), input.query.currencyCode),

    paymentWithdraw: async (input) => {
      // Checked against openapi.yaml already: a single header of 1 to 200 characters when present.
      const key = input.req.headers['idempotency-key'];
      return requestWithdrawal(ctx, player(input).userId, input.body, typeof key === 'string' ? key : undefined);
    },

    paymentWebhook: async ({ params, req, body }) => {
      // Only the configured provider's webhooks exist; the signature is checked before the body is used.
      if (params.provider !== ctx.payments.key) throw new DomainError('NOT_FOUND');
      let notification;
      try {
        notification = ctx.payments.parseWebhook({ rawBody: req.rawBody ?? '', headers: req.headers, body });
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new DomainError('INVALID_SIGNATURE');
        throw error;
      }
      assertProviderAmount(notification);
      if (notification.type === 'withdrawal') return { withdrawal: await applyWithdrawalNotification(ctx, ctx.payments.key, notification) };
      return { deposit: await applyDepositNotification(ctx, ctx.payments.key, notification) };
    },
  };
}
