import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode, type Language } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * A content page (FAQ, terms, privacy, about, support): the server's pages in the player's language are
 * loaded, and the one asked for is shown. RETRY after a failure loads again.
 */

export type Page = components['schemas']['Page'];
export type PageSlug = components['schemas']['PageSlug'];

export interface PageInput {
  slug: PageSlug;
  language: Language;
}

export interface PageContext extends PageInput {
  page: Page | null;
  errorCode: ErrorCode | null;
}

export const pageMachine = setup({
  types: {
    context: {} as PageContext,
    input: {} as PageInput,
    events: {} as { type: 'RETRY' },
  },
  actors: {
    /** GET /common/get-pages?locale=... */
    loadPages: notProvided<Page[], { language: Language }>('loadPages'),
  },
  actions: {
    storePage: assign(({ context }, params: { pages: Page[] }) => ({
      page: params.pages.find((page) => page.slug === context.slug) ?? null,
      errorCode: null,
    })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
  guards: {
    pageFound: ({ context }) => context.page !== null,
  },
}).createMachine({
  id: 'page',
  context: ({ input }) => ({ ...input, page: null, errorCode: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadPages',
        input: ({ context }) => ({ language: context.language }),
        onDone: { target: 'checking', actions: { type: 'storePage', params: ({ event }) => ({ pages: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    checking: {
      always: [{ guard: 'pageFound', target: 'shown' }, { target: 'missing' }],
    },
    shown: {},
    missing: {},
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});
