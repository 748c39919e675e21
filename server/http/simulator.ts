import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { reviewDocument } from '../domain/documents.ts';
import { listMailbox } from '../providers/mail.ts';
import { apiDocument } from './mappers.ts';
import type { JsonHandlers } from './types.ts';

/** The simulator's side doors: outside simulator mode they do not exist. */
export function simulatorHandlers(ctx: AppContext): JsonHandlers {
  const enabled = () => {
    if (!ctx.config.simulator) throw new ApiError(404, 'NOT_FOUND');
  };
  return {
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
      const rows = await ctx.db.query('UPDATE users SET active = $2, updated_at = $3 WHERE lower(email) = lower($1) RETURNING id', [
        body.email,
        body.active,
        ctx.now(),
      ]);
      if (rows.length === 0) throw new ApiError(404, 'USER_DOES_NOT_EXISTS');
      return { success: true };
    },
  };
}
