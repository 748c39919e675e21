import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * Every grid of games (SPEC §2: casino, live casino, sports, all games, a category, a provider,
 * favourites, search results; DESIGN.md: a lobby row too). The grid's filters (category, sub-category,
 * provider, as slugs) and its search text come from the address, so a grid can be linked and reloaded:
 * the view sends FILTER when the address changes. The slugs are read against the catalogue (categories,
 * sub-categories and providers, loaded together first unless the lobby gave them). SPEC §4: new pages
 * append to the rows; a change of filter or search resets them. The search box sends SEARCH as the player
 * types: after a pause (`searchDebounce`) the text goes into the address and the first page is asked for,
 * the request it replaces stopped (leaving its state aborts it); one typed while the catalogue loaded
 * waits its pause once the grid lists. A search under SEARCH_MIN_LENGTH characters asks nothing and says
 * how long it must be.
 */

export type Game = components['schemas']['Game'];
export type Category = components['schemas']['Category'];
export type SubCategory = components['schemas']['SubCategory'];
export type Provider = components['schemas']['Provider'];

export const SEARCH_MIN_LENGTH = 3;
export const GAMES_PAGE_SIZE = 96;

/** Which games a grid is about, before the address narrows them. */
export type GameScope =
  | { kind: 'all' }
  | { kind: 'category'; slug: string }
  | { kind: 'provider'; slug: string }
  | { kind: 'favourites' };

/** The grid's filters as the address carries them: slugs, and the search text; '' for none. */
export interface GameAddress {
  category: string;
  sub: string;
  provider: string;
  q: string;
}

export const NO_FILTER: GameAddress = { category: '', sub: '', provider: '', q: '' };

export interface Catalogue {
  categories: Category[];
  subCategories: SubCategory[];
  providers: Provider[];
}

export interface GameListInput {
  scope: GameScope;
  address: GameAddress;
  /** Games a page: a lobby row asks for one short page. */
  pageSize?: number;
  /** Given by the lobby, which loaded it already; otherwise the grid loads it first. */
  catalogue?: Catalogue;
}

export interface GamesRequest {
  page: number;
  limit: number;
  categoryId?: number;
  subCategoryId?: number;
  providerId?: number;
  search?: string;
}

export interface GamesPage {
  rows: Game[];
  count: number;
}

export interface GameListContext {
  scope: GameScope;
  /** The filters applied: the rows shown and every request follow them. */
  address: GameAddress;
  /** What the search box holds (applied to `address.q` after the pause). */
  typed: string;
  pageSize: number;
  categories: Category[] | null;
  subCategories: SubCategory[] | null;
  providers: Provider[] | null;
  page: number;
  rows: Game[];
  count: number;
  errorCode: ErrorCode | null;
}

export type GameListEvent =
  | { type: 'FILTER'; address: GameAddress }
  | { type: 'SEARCH'; text: string }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' };

type Lists = Pick<GameListContext, 'categories' | 'subCategories' | 'providers'>;

/** The category a grid shows: its scope's, else the address's; null for every category. */
export function categoryOf(context: Pick<GameListContext, 'scope' | 'address'> & Lists): Category | null {
  const slug = context.scope.kind === 'category' ? context.scope.slug : context.address.category;
  return context.categories?.find((category) => category.slug === slug) ?? null;
}

/** The sub-category of the address, within the category shown. */
export function subCategoryOf(context: Pick<GameListContext, 'scope' | 'address'> & Lists): SubCategory | null {
  const category = categoryOf(context);
  if (!category) return null;
  return context.subCategories?.find((sub) => sub.categoryId === category.id && sub.slug === context.address.sub) ?? null;
}

export function providerOf(context: Pick<GameListContext, 'scope' | 'address'> & Lists): Provider | null {
  const slug = context.scope.kind === 'provider' ? context.scope.slug : context.address.provider;
  return context.providers?.find((provider) => provider.slug === slug) ?? null;
}

/** The search as the server gets it: trimmed; '' for none. */
export function searchOf(address: GameAddress): string {
  return address.q.trim();
}

/** A search the grid will not send: something typed, but too short to mean much. */
export function searchTooShort(address: GameAddress): boolean {
  const search = searchOf(address);
  return search.length > 0 && search.length < SEARCH_MIN_LENGTH;
}

/** The request of one page, with the filters the address names (a slug the catalogue lacks is no filter). */
export function gamesRequest(context: GameListContext, page: number): GamesRequest {
  const category = categoryOf(context);
  const subCategory = subCategoryOf(context);
  const provider = providerOf(context);
  const search = searchOf(context.address);
  return {
    page,
    limit: context.pageSize,
    ...(category ? { categoryId: category.id } : {}),
    ...(subCategory ? { subCategoryId: subCategory.id } : {}),
    ...(provider ? { providerId: provider.id } : {}),
    ...(search ? { search } : {}),
  };
}

export function hasMoreGames(context: Pick<GameListContext, 'rows' | 'count'>): boolean {
  return context.rows.length < context.count;
}

function sameAddress(a: GameAddress, b: GameAddress): boolean {
  return a.category === b.category && a.sub === b.sub && a.provider === b.provider && a.q.trim() === b.q.trim();
}

const isFavourites = ({ context }: { context: GameListContext }) => context.scope.kind === 'favourites';

export const gameListMachine = setup({
  types: {
    context: {} as GameListContext,
    events: {} as GameListEvent,
    input: {} as GameListInput,
  },
  actors: {
    /** GET /casino/get-categories */
    loadCategories: notProvided<Category[]>('loadCategories'),
    /** GET /casino/get-sub-categories */
    loadSubCategories: notProvided<SubCategory[]>('loadSubCategories'),
    /** GET /casino/get-providers */
    loadProviders: notProvided<Provider[]>('loadProviders'),
    /** GET /casino/get-all-games */
    loadGames: notProvided<GamesPage, GamesRequest>('loadGames'),
    /** GET /casino/get-favorite-games */
    loadFavouriteGames: notProvided<GamesPage, GamesRequest>('loadFavouriteGames'),
  },
  actions: {
    storeFailure: assign((_, params: { error: unknown }) => ({ errorCode: toFailure(params.error).code })),
    /** SPEC §4: a reset empties the rows. */
    reset: assign({ page: 0, rows: [], count: 0, errorCode: null }),
    applyAddress: assign((_, params: { address: GameAddress }) => ({ address: params.address, typed: params.address.q })),
    type: assign((_, params: { text: string }) => ({ typed: params.text })),
    applySearch: assign(({ context }) => ({ address: { ...context.address, q: context.typed.trim() } })),
    /** Puts the search into the address (replacing the entry), so the grid can be linked and reloaded. */
    showSearch: (_, _params: { q: string }) => {},
    storeFirstPage: assign((_, params: { page: GamesPage }) => ({ page: 1, rows: params.page.rows, count: params.page.count, errorCode: null })),
    appendPage: assign(({ context }, params: { page: GamesPage }) => {
      // A game that moved onto this page (the order changed meanwhile) is listed once.
      const known = new Set(context.rows.map((game) => game.id));
      const rows = [...context.rows, ...params.page.rows.filter((game) => !known.has(game.id))];
      return { page: context.page + 1, rows, count: params.page.count, errorCode: null };
    }),
    /** An empty next page: the list ended sooner than its count said. */
    endList: assign(({ context }) => ({ count: context.rows.length, errorCode: null })),
  },
  guards: {
    catalogueLoaded: ({ context }) => isFavourites({ context }) || (context.categories !== null && context.subCategories !== null && context.providers !== null),
    favourites: isFavourites,
    sameFilters: ({ context }, params: { address: GameAddress }) => sameAddress(context.address, params.address),
    sameSearch: ({ context }, params: { text: string }) => params.text.trim() === context.address.q.trim(),
    searchTooShort: ({ context }) => searchTooShort(context.address),
    /** Typed but not applied: while the catalogue loaded, the search box was not waited for. */
    searchPending: ({ context }) => context.typed.trim() !== context.address.q.trim(),
    pageHasRows: (_, params: { page: GamesPage }) => params.page.rows.length > 0,
    moreOf: ({ context }, params: { favourites: boolean }) => hasMoreGames(context) && isFavourites({ context }) === params.favourites,
  },
  delays: {
    /** The pause in typing after which a search is sent. */
    searchDebounce: 300,
  },
}).createMachine({
  id: 'gameList',
  context: ({ input }) => ({
    scope: input.scope,
    address: input.address,
    typed: input.address.q,
    pageSize: input.pageSize ?? GAMES_PAGE_SIZE,
    categories: input.catalogue?.categories ?? null,
    subCategories: input.catalogue?.subCategories ?? null,
    providers: input.catalogue?.providers ?? null,
    page: 0,
    rows: [],
    count: 0,
    errorCode: null,
  }),
  initial: 'preparing',
  states: {
    /** The catalogue the address's slugs are read against, its three lists asked for together. */
    preparing: {
      always: { guard: 'catalogueLoaded', target: 'listing' },
      invoke: [
        {
          src: 'loadCategories',
          onDone: { actions: assign({ categories: ({ event }) => event.output }) },
          onError: { target: 'unavailable', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
        },
        {
          src: 'loadSubCategories',
          onDone: { actions: assign({ subCategories: ({ event }) => event.output }) },
          onError: { target: 'unavailable', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
        },
        {
          src: 'loadProviders',
          onDone: { actions: assign({ providers: ({ event }) => event.output }) },
          onError: { target: 'unavailable', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
        },
      ],
      on: {
        FILTER: { actions: { type: 'applyAddress', params: ({ event }) => ({ address: event.address }) } },
        SEARCH: { actions: { type: 'type', params: ({ event }) => ({ text: event.text }) } },
      },
    },
    unavailable: {
      on: { RETRY: { target: 'preparing', actions: assign({ categories: null, subCategories: null, providers: null }) } },
    },
    listing: {
      initial: 'deciding',
      on: {
        FILTER: [
          {
            guard: { type: 'sameFilters', params: ({ event }) => ({ address: event.address }) },
            actions: { type: 'applyAddress', params: ({ event }) => ({ address: event.address }) },
          },
          { target: '.deciding', reenter: true, actions: [{ type: 'applyAddress', params: ({ event }) => ({ address: event.address }) }, 'reset'] },
        ],
        SEARCH: [
          { guard: { type: 'sameSearch', params: ({ event }) => ({ text: event.text }) }, actions: { type: 'type', params: ({ event }) => ({ text: event.text }) } },
          { target: '.typing', actions: { type: 'type', params: ({ event }) => ({ text: event.text }) } },
        ],
      },
      states: {
        deciding: {
          always: [
            { guard: 'searchPending', target: 'typing' },
            { guard: 'searchTooShort', target: 'tooShort' },
            { guard: 'favourites', target: 'loadingFavourites' },
            { target: 'loading' },
          ],
        },
        /** The player is typing: nothing is asked until the pause (the rows are emptied when the search applies). */
        typing: {
          after: {
            searchDebounce: {
              target: 'deciding',
              reenter: true,
              actions: ['applySearch', 'reset', { type: 'showSearch', params: ({ context }) => ({ q: context.typed.trim() }) }],
            },
          },
        },
        tooShort: {},
        loading: {
          invoke: {
            src: 'loadGames',
            input: ({ context }) => gamesRequest(context, 1),
            onDone: [
              { guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) }, target: 'shown', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
              { target: 'empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        loadingFavourites: {
          invoke: {
            src: 'loadFavouriteGames',
            input: ({ context }) => gamesRequest(context, 1),
            onDone: [
              { guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) }, target: 'shown', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
              { target: 'empty', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: { on: { RETRY: 'deciding' } },
        empty: {},
        shown: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                LOAD_MORE: [
                  { guard: { type: 'moreOf', params: { favourites: true } }, target: 'loadingMoreFavourites' },
                  { guard: { type: 'moreOf', params: { favourites: false } }, target: 'loadingMore' },
                ],
              },
            },
            loadingMore: {
              invoke: {
                src: 'loadGames',
                input: ({ context }) => gamesRequest(context, context.page + 1),
                onDone: [
                  { guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) }, target: 'idle', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
                  { target: 'idle', actions: 'endList' },
                ],
                onError: { target: 'moreFailed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            loadingMoreFavourites: {
              invoke: {
                src: 'loadFavouriteGames',
                input: ({ context }) => gamesRequest(context, context.page + 1),
                onDone: [
                  { guard: { type: 'pageHasRows', params: ({ event }) => ({ page: event.output }) }, target: 'idle', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
                  { target: 'idle', actions: 'endList' },
                ],
                onError: { target: 'moreFailed', actions: { type: 'storeFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            moreFailed: {
              on: {
                RETRY: [{ guard: 'favourites', target: 'loadingMoreFavourites' }, { target: 'loadingMore' }],
              },
            },
          },
        },
      },
    },
  },
});
