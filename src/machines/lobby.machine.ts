import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';
import type { Catalogue, Category, Provider, SubCategory } from './gameList.machine.ts';

/*
 * The lobby (DESIGN.md): the banner carousel (GET /common/get-banners), then one row of games per category
 * with "View all", then the providers. The lobby loads the catalogue (categories, sub-categories and
 * providers, asked for together) once and hands it to each row, which is a gameList of its own. Banners
 * that cannot be had leave a plain welcome in their place: the lobby goes on without them.
 */

export type Banner = components['schemas']['Banner'];

export interface LobbyContext {
  banners: Banner[];
  categories: Category[] | null;
  subCategories: SubCategory[] | null;
  providers: Provider[] | null;
  errorCode: ErrorCode | null;
}

export type LobbyEvent = { type: 'RETRY' };

/** The catalogue once its three lists are in. */
export function catalogueOf(context: LobbyContext): Catalogue | null {
  const { categories, subCategories, providers } = context;
  return categories && subCategories && providers ? { categories, subCategories, providers } : null;
}

export const lobbyMachine = setup({
  types: {
    context: {} as LobbyContext,
    events: {} as LobbyEvent,
  },
  actors: {
    /** GET /common/get-banners */
    loadBanners: notProvided<Banner[]>('loadBanners'),
    /** GET /casino/get-categories */
    loadCategories: notProvided<Category[]>('loadCategories'),
    /** GET /casino/get-sub-categories */
    loadSubCategories: notProvided<SubCategory[]>('loadSubCategories'),
    /** GET /casino/get-providers */
    loadProviders: notProvided<Provider[]>('loadProviders'),
  },
  actions: {
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
  },
  guards: {
    catalogueLoaded: ({ context }) => catalogueOf(context) !== null,
    hasBanners: (_, params: { banners: Banner[] }) => params.banners.length > 0,
  },
}).createMachine({
  id: 'lobby',
  context: { banners: [], categories: null, subCategories: null, providers: null, errorCode: null },
  type: 'parallel',
  states: {
    banners: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadBanners',
            onDone: [
              {
                guard: { type: 'hasBanners', params: ({ event }) => ({ banners: event.output }) },
                target: 'shown',
                actions: assign({ banners: ({ event }) => event.output }),
              },
              { target: 'none' },
            ],
            onError: 'none',
          },
        },
        shown: {},
        /** None to show, or none to be had: the welcome takes their place. */
        none: {},
      },
    },
    catalogue: {
      initial: 'loading',
      states: {
        loading: {
          always: { guard: 'catalogueLoaded', target: 'ready' },
          invoke: [
            {
              src: 'loadCategories',
              onDone: { actions: assign({ categories: ({ event }) => event.output }) },
              onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
            },
            {
              src: 'loadSubCategories',
              onDone: { actions: assign({ subCategories: ({ event }) => event.output }) },
              onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
            },
            {
              src: 'loadProviders',
              onDone: { actions: assign({ providers: ({ event }) => event.output }) },
              onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
            },
          ],
        },
        failed: {
          on: { RETRY: { target: 'loading', actions: assign({ categories: null, subCategories: null, providers: null, errorCode: null }) } },
        },
        ready: {},
      },
    },
  },
});
