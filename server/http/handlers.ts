import type { AppContext } from '../context.ts';
import { LiveHub } from '../live.ts';
import { eventsHandler } from './events.ts';
import { bonusHandlers } from './bonus.ts';
import { casinoHandlers } from './casino.ts';
import { coinPaymentsHandlers } from './coinpayments.ts';
import { commonHandlers } from './common.ts';
import { documentHandlers } from './document.ts';
import { gameWalletHandlers } from './game-wallet.ts';
import { houseHandlers } from './house.ts';
import { paymentHandlers } from './payment.ts';
import { responsibleGamblingHandlers } from './responsible-gambling.ts';
import { simulatorHandlers } from './simulator.ts';
import type { JsonHandlers, RawHandlers } from './types.ts';
import { userHandlers } from './user.ts';

/**
 * Every operation, keyed by its operationId in openapi.yaml; the app refuses to start if one is missing.
 */
export function createHandlers(ctx: AppContext): { json: JsonHandlers; raw: RawHandlers; live: LiveHub } {
  const user = userHandlers(ctx);
  const casino = casinoHandlers(ctx);
  const live = new LiveHub(ctx.db);
  return {
    live,
    json: {
      ...user.json,
      ...casino.json,
      ...documentHandlers(ctx),
      ...responsibleGamblingHandlers(ctx),
      ...commonHandlers(ctx),
      ...paymentHandlers(ctx),
      ...bonusHandlers(ctx),
      ...coinPaymentsHandlers(ctx),
      ...simulatorHandlers(ctx),
      ...gameWalletHandlers(ctx),
      ...houseHandlers(ctx),
    },
    raw: { ...user.raw, ...casino.raw, userEvents: eventsHandler(ctx, live) },
  };
}
