import type { AppContext } from '../context.ts';
import * as limits from '../domain/limits.ts';
import { LIMITS_CURRENCY, releaseHeldDeposits } from '../domain/held-deposits.ts';
import { player } from './auth-guard.ts';
import type { JsonHandlers } from './types.ts';
import type { UserRow } from '../domain/users.ts';

async function view(ctx: AppContext, user: UserRow, current?: limits.Limits) {
  const now = ctx.now();
  // Held deposit money is released as far as the deposit limits now allow (held-deposits.ts), before the usage is read.
  await releaseHeldDeposits(ctx.db, user.id, now);
  const set = current ?? (await limits.getLimits(ctx.db, user.id, now));
  return {
    currencyCode: LIMITS_CURRENCY,
    ...set,
    usage: await limits.limitUsage(ctx.db, user.id, LIMITS_CURRENCY, now),
    selfExclusion: limits.selfExclusionOf(user, now),
    sessionLimitMinutes: user.session_limit_minutes,
  };
}

export function responsibleGamblingHandlers(ctx: AppContext): JsonHandlers {
  return {
    rgGetLimits: async (input) => ({ limits: await view(ctx, player(input).user) }),

    rgUpdateLimit: async (input) => {
      const me = player(input);
      const updated = await limits.updateLimits(ctx, me.userId, input.body);
      return { success: true, limits: await view(ctx, me.user, updated) };
    },

    rgUpdateSelfExclusion: async (input) => {
      const selfExclusion = await limits.selfExclude(ctx, player(input).userId, input.body);
      return { success: true, selfExclusion };
    },
  };
}
