import type { AppContext } from '../context.ts';
import { casinoHandlers } from './casino.ts';
import { commonHandlers } from './common.ts';
import { documentHandlers } from './document.ts';
import { paymentHandlers } from './payment.ts';
import { responsibleGamblingHandlers } from './responsible-gambling.ts';
import { simulatorHandlers } from './simulator.ts';
import type { JsonHandlers, RawHandlers } from './types.ts';
import { userHandlers } from './user.ts';

/**
 * Every implemented operation, keyed by its operationId in openapi.yaml. Operations of the contract
 * without a handler here answer 501 NOT_IMPLEMENTED (the money operations, until they are built).
 */
export function createHandlers(ctx: AppContext): { json: JsonHandlers; raw: RawHandlers } {
  const user = userHandlers(ctx);
  const casino = casinoHandlers(ctx);
  return {
    json: {
      ...user.json,
      ...casino.json,
      ...documentHandlers(ctx),
      ...responsibleGamblingHandlers(ctx),
      ...commonHandlers(ctx),
      ...paymentHandlers(ctx),
      ...simulatorHandlers(ctx),
    },
    raw: { ...user.raw, ...casino.raw },
  };
}
