import { gzipSync } from 'node:zlib';
import type { AppContext } from '../context.ts';
import { DomainError } from '../domain/errors.ts';
import * as casino from '../domain/casino.ts';
import { assertPlayLimitsLeft, betHistory } from '../domain/game-wallet.ts';
import { assertNotSelfExcluded } from '../domain/limits.ts';
import { player } from './auth-guard.ts';
import type { JsonHandlers, RawHandlers } from './types.ts';

/** Domain refusals of the catalogue, as API errors. */
function casinoFailure(error: unknown): never {
  if (error instanceof casino.GameNotFoundError || error instanceof casino.DemoNotAvailableError) {
    throw new DomainError('GAME_NOT_FOUND_ERROR');
  }
  if (error instanceof casino.CurrencyNotAvailableError) throw new DomainError('CURRENCY_NOT_AVAILABLE');
  if (error instanceof casino.LoginRequiredError) throw new DomainError('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  throw error;
}

/**
 * Covers drawn and gzipped once, kept by what they show (a renamed game or provider, or a new hue, is a
 * new cover), the most recently served THUMBNAIL_CACHE_SIZE of them: a lobby asks for dozens at a time,
 * and drawing the lettering's outlines and compressing them is most of a cover's cost.
 */
const THUMBNAIL_CACHE_SIZE = 2_000;
const thumbnails = new Map<string, { svg: string; gzip: Buffer }>();

function thumbnail(game: casino.ThumbnailInput): { svg: string; gzip: Buffer } {
  const key = JSON.stringify([game.name, game.providerName, game.thumbnailHue]);
  let cover = thumbnails.get(key);
  if (cover) {
    thumbnails.delete(key);
  } else {
    const svg = casino.renderThumbnail(game);
    cover = { svg, gzip: gzipSync(svg) };
    if (thumbnails.size >= THUMBNAIL_CACHE_SIZE) thumbnails.delete(thumbnails.keys().next().value!);
  }
  thumbnails.set(key, cover);
  return cover;
}

function apiSession(session: casino.GameSession) {
  return {
    sessionId: session.sessionId,
    gameId: session.gameId,
    demo: session.demo,
    currencyCode: session.currencyCode,
    launchUrl: session.launchUrl,
    expiresAt: session.expiresAt.toISOString(),
  };
}

export function casinoHandlers(ctx: AppContext): { json: JsonHandlers; raw: RawHandlers } {
  const json: JsonHandlers = {
    casinoGetProviders: async () => ({ providers: await casino.listProviders(ctx.db) }),

    casinoGetCategories: async () => ({ categories: await casino.listCategories(ctx.db) }),

    casinoGetSubCategories: async ({ query }) => ({
      subCategories: await casino.listSubCategories(ctx.db, query.categoryId),
    }),

    casinoGetAllGames: async ({ query, auth }) => ({
      casinoGames: await casino.listGames(ctx.db, {
        page: query.page ?? 1,
        limit: query.limit ?? 24,
        categoryId: query.categoryId,
        subCategoryId: query.subCategoryId,
        providerId: query.providerId,
        search: query.search,
        device: query.device,
        userId: auth?.userId ?? null,
      }),
    }),

    casinoGetFavoriteGames: async (input) => ({
      casinoGames: await casino.listGames(ctx.db, {
        page: input.query.page ?? 1,
        limit: input.query.limit ?? 24,
        userId: player(input).userId,
        favoritesOnly: true,
      }),
    }),

    casinoToggleFavoriteGame: async (input) =>
      casino.toggleFavorite(ctx.db, player(input).userId, input.body.gameId).catch(casinoFailure),

    casinoInitGame: async (input) => {
      const me = player(input);
      assertNotSelfExcluded(me.user, ctx.now());
      await assertPlayLimitsLeft(ctx.db, me.userId, input.body.currencyCode, ctx.now());
      const session = await casino
        .createGameSession(ctx.db, {
          userId: me.userId,
          gameId: input.body.gameId,
          demo: false,
          currencyCode: input.body.currencyCode,
          device: input.body.device,
          now: ctx.now(),
        })
        .catch(casinoFailure);
      return { gameSession: apiSession(session) };
    },

    casinoGetTransactions: async (input) => ({
      betHistory: await betHistory(ctx.db, player(input).userId, {
        page: input.query.page ?? 1,
        limit: input.query.limit ?? 24,
        startDate: input.query.startDate === undefined ? undefined : new Date(input.query.startDate),
        endDate: input.query.endDate === undefined ? undefined : new Date(input.query.endDate),
        currencyCode: input.query.currencyCode,
        gameId: input.query.gameId,
        status: input.query.status,
      }),
    }),

    casinoGetGameSession: async ({ query, auth }) => {
      const open = await casino.readGameSession(ctx.db, query.sessionId, auth?.userId ?? null, ctx.now());
      if (!open) throw new DomainError('GAME_NOT_FOUND_ERROR');
      const { session, game } = open;
      return {
        gameSession: apiSession({ ...session, launchUrl: `/play/${session.sessionId}` }),
        game,
      };
    },

    casinoInitGameDemo: async ({ body }) => {
      const session = await casino
        .createGameSession(ctx.db, { userId: null, gameId: body.gameId, demo: true, device: body.device, now: ctx.now() })
        .catch(casinoFailure);
      return { gameSession: apiSession(session) };
    },
  };

  const raw: RawHandlers = {
    casinoGetGameThumbnail: async (req, reply) => {
      const { gameId } = req.params as { gameId: number };
      const game = await casino.getGame(ctx.db, gameId);
      if (!game) throw new DomainError('GAME_NOT_FOUND_ERROR');
      reply
        .header('content-type', 'image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('vary', 'Accept-Encoding');
      const cover = thumbnail(game);
      // The lettering's outlines are most of a cover and shrink to about a third.
      if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.send(cover.svg);
      return reply.header('content-encoding', 'gzip').send(cover.gzip);
    },
  };
  return { json, raw };
}
