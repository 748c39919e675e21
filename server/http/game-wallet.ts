import type { AppContext } from '../context.ts';
import {
  applyGameCall,
  authenticateGameCall,
  gameBalance,
  SIGNATURE_HEADER,
  type GameWalletAction,
  type GameWalletCall,
} from '../domain/game-wallet.ts';
import type { FastifyRequest } from 'fastify';
import type { JsonHandlers } from './types.ts';

/** The signed body as received: the signature covers these exact bytes, not the parsed object. */
function signedCall(req: FastifyRequest, sessionId: string) {
  const header = req.headers[SIGNATURE_HEADER];
  return { sessionId, rawBody: req.rawBody ?? '', signature: typeof header === 'string' ? header : '' };
}

export function gameWalletHandlers(ctx: AppContext): JsonHandlers {
  const call = async (req: FastifyRequest, action: GameWalletAction, body: { sessionId: string } & Omit<GameWalletCall, 'action'>) => {
    const session = await authenticateGameCall(ctx, signedCall(req, body.sessionId));
    const { sessionId: _session, ...rest } = body;
    return { gameTransaction: await applyGameCall(ctx, session, { ...rest, action }) };
  };
  return {
    gameWalletBalance: async ({ req, body }) => ({
      balance: await gameBalance(ctx, await authenticateGameCall(ctx, signedCall(req, body.sessionId))),
    }),
    gameWalletBet: async ({ req, body }) => call(req, 'bet', body),
    gameWalletWin: async ({ req, body }) => call(req, 'win', body),
    gameWalletFreeSpin: async ({ req, body }) => call(req, 'freeSpin', body),
    gameWalletRollbackBet: async ({ req, body }) => call(req, 'rollbackBet', body),
    gameWalletRollbackWin: async ({ req, body }) => call(req, 'rollbackWin', body),
  };
}
