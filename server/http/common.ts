import type { AppContext } from '../context.ts';
import * as common from '../domain/common.ts';
import { MAX_UPLOAD_BYTES } from '../../src/rules/files.ts';
import { player } from './auth-guard.ts';
import type { JsonHandlers } from './types.ts';

/** Delay before the SPA re-fetches documents after an upload (SPEC §9). */
const DOCUMENT_REFETCH_MS = 500;
/** Request timeout the SPA applies (SPEC §9). */
const REQUEST_TIMEOUT_MS = 30_000;

export function commonHandlers(ctx: AppContext): JsonHandlers {
  return {
    getHealth: async () => {
      await common.databaseReachable(ctx.db);
      return {
        status: 'ok',
        database: ctx.db.kind,
        simulator: ctx.config.simulator,
        version: process.env.npm_package_version ?? '0.1.0',
      };
    },

    commonGetSettings: async () => {
      const settings = await common.getSettings(ctx.db);
      return {
        settings: {
          siteName: settings.siteName,
          minDeposit: settings.minDeposit,
          minWithdraw: settings.minWithdraw,
          maxTransferAmount: settings.maxTransferAmount,
          withdrawFee: settings.withdrawFee,
          depositConfirmations: settings.depositConfirmations,
          referralReward: settings.referralReward,
          referralLimit: settings.referralLimit,
          maxUploadBytes: MAX_UPLOAD_BYTES,
          documentRefetchMs: DOCUMENT_REFETCH_MS,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          socialLogin: {
            googleClientId: ctx.config.googleClientId,
            facebookAppId: ctx.config.facebookAppSecret ? ctx.config.facebookAppId : null,
          },
          simulator: ctx.config.simulator,
        },
      };
    },

    commonGetLanguages: async () => ({ languages: await common.listLanguages(ctx.db) }),

    commonGetCurrencies: async () => ({ currencies: await common.listCurrencies(ctx.db) }),

    commonGetPages: async ({ query }) => ({
      pages: (await common.listPages(ctx.db, query.locale ?? 'en')).map((page) => ({
        ...page,
        updatedAt: new Date(page.updatedAt).toISOString(),
      })),
    }),

    commonGetBanners: async () => ({ banners: await common.listBanners(ctx.db) }),

    commonGetCountries: async () => ({ countries: await common.listCountries(ctx.db) }),

    paymentGetProviders: async () => ({ paymentProviders: await common.listPaymentProviders(ctx.db, ctx.payments.currencies) }),

    commonGetUserNotifications: async (input) => {
      const page = await common.listNotifications(ctx.db, player(input).userId, {
        page: input.query.page ?? 1,
        limit: input.query.limit ?? 24,
      });
      return {
        notifications: {
          rows: page.rows.map((n) => ({
            id: n.id,
            title: n.title,
            message: n.message,
            read: n.isRead,
            createdAt: n.createdAt.toISOString(),
          })),
          count: page.count,
        },
        unreadCount: page.unreadCount,
      };
    },

    commonMarkNotificationsRead: async (input) => {
      await common.markNotificationsRead(ctx.db, player(input).userId, input.body.notificationIds);
      return { success: true };
    },
  };
}
