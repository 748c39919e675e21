import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { useLocation, useSearch } from 'wouter';
import { formatNumber } from '../../format.ts';
import type { MessageKey } from '../../i18n/index.ts';
import {
  categoryOf,
  gameListMachine,
  hasMoreGames,
  providerOf,
  searchOf,
  type GameAddress,
  type Game,
  type GameScope,
} from '../../machines/gameList.machine.ts';
import { SelectField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Icon } from '../components/Icons.tsx';
import { EmptyState, Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow, useWiring } from '../wiring.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { withParams } from '../address.ts';
import { GameTile, TileSkeleton } from './GameTile.tsx';
import { Failure } from '../components/Failure.tsx';

/*
 * A grid of games (src/machines/gameList.machine.ts): the search box and the filters, whose values live
 * in the address (a filter chosen is a new address; the grid follows the address, so Back and a reload
 * show the same games), the count, the tiles (2 columns on a phone, 6 from 1024 px), pages loaded as the
 * end comes near, and a "Load more" button for whoever does not scroll.
 */

const Controls = styled('div')`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space(3)};
  margin-bottom: ${theme.space(4)};
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(3, minmax(0, 1fr));
    align-items: end;
  }
`;

const SearchBox = styled('form')`
  position: relative;
  margin-bottom: ${theme.space(4)};
  input {
    width: 100%;
    min-height: 2.75rem;
    padding: 0 ${theme.space(3)} 0 ${theme.space(10)};
    border: 1px solid ${theme.color.border};
    border-radius: 999px;
    background: ${theme.color.surface};
    color: ${theme.color.text};
    font: inherit;
  }
  svg {
    position: absolute;
    left: ${theme.space(3)};
    top: 50%;
    transform: translateY(-50%);
    color: ${theme.color.textMuted};
  }
`;

const Count = styled('p')`
  margin: 0 0 ${theme.space(3)};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.small};
  min-height: 1.25rem;
`;

export const Grid = styled('div')`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${theme.space(3)};
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(4, minmax(0, 1fr));
  }
  ${theme.breakpoint.desktop} {
    grid-template-columns: repeat(6, minmax(0, 1fr));
  }
`;

const Footer = styled('div')`
  display: flex;
  justify-content: center;
  margin-top: ${theme.space(5)};
  min-height: 2.75rem;
`;

/** The grid's columns at a window's width, as its CSS lays them out (DESIGN.md: 2 on a phone, 6 from 1024 px). */
export function columnsAt(width: number): number {
  return width >= 1024 ? 6 : width >= 640 ? 4 : 2;
}

/** The grid's gap (theme.space(3)) and a tile's name and provider under its art (GameTile.tsx), in px. */
const ROW_GAP = 12;
const TILE_TEXT_HEIGHT = 39;

/** How long a row stays in the page before its covers are asked for. */
const ART_DELAY_MS = 150;

/**
 * A row of tiles. Its covers are asked for once it has stayed a moment: a fast scroll through thousands
 * of games mounts rows that are gone a frame later, and fetching and drawing their covers would only
 * keep the phone busy (and the scroll stuttering) with art nobody sees.
 */
const TileRow = memo(function TileRow({ games }: { games: Game[] }) {
  const [art, setArt] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArt(true), ART_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return games.map((game) => <GameTile key={game.id} game={game} art={art} />);
});

/**
 * The tiles in rows, only the rows on screen (and a few around) in the page: a grid scrolled through
 * thousands of games keeps a few dozen tiles, and the height of all of them, so the scroll bar is true.
 */
function VirtualGrid({ games }: { games: Game[] }) {
  const box = useRef<HTMLDivElement>(null);
  // Where the grid is and how it is laid out, measured at its start and at every resize.
  const [columns, setColumns] = useState(() => columnsAt(window.innerWidth));
  const [top, setTop] = useState(0);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const place = () => {
      setColumns(columnsAt(window.innerWidth));
      if (!box.current) return;
      const rect = box.current.getBoundingClientRect();
      setTop(rect.top + window.scrollY);
      setWidth(rect.width);
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, []);
  // A row's height as the CSS lays it out (a tile's 3:4 art and its two lines of text), so rows are
  // placed right before they are measured: a late measurement on a busy phone would move them.
  const rowHeight = width > 0 ? Math.round((((width - ROW_GAP * (columns - 1)) / columns) * 4) / 3 + TILE_TEXT_HEIGHT) : 320;
  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(games.length / columns),
    estimateSize: () => rowHeight,
    overscan: 2,
    // Scrolling renders with the next frame instead of at once in the scroll event, so a fast scroll is one render, not many.
    useFlushSync: false,
    gap: ROW_GAP,
    scrollMargin: top,
  });
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);
  return (
    <div ref={box} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => (
        <Grid
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - top}px)` }}
        >
          <TileRow games={games.slice(row.index * columns, (row.index + 1) * columns)} />
        </Grid>
      ))}
    </div>
  );
}

/** The filters and the search of the address. */
export function addressOf(search: string): GameAddress {
  const params = new URLSearchParams(search);
  return { category: params.get('category') ?? '', sub: params.get('sub') ?? '', provider: params.get('provider') ?? '', q: params.get('q') ?? '' };
}

export interface GamesScreenProps {
  title: MessageKey;
  scope: GameScope;
  /** What an empty grid says (a search says what it looked for instead). */
  empty: MessageKey;
  /** The search results' screen puts the search box first, ready to type in. */
  searchFirst?: boolean;
  /** Games a page (default GAMES_PAGE_SIZE): the model test's small catalogue pages by two. */
  pageSize?: number;
}

export default function GamesScreen({ title, scope, empty, searchFirst = false, pageSize }: GamesScreenProps) {
  const { t, language } = useT();
  const { navigate } = useWiring();
  const [path] = useLocation();
  const search = useSearch();
  const address = addressOf(search);
  const actor = useFlow(gameListMachine, { scope, address, ...(pageSize === undefined ? {} : { pageSize }) });

  // The address is the grid's filters: a change of it (a filter chosen, Back) is a FILTER. Not the
  // address the flow holds already: the one it started with, and the search it put there itself after
  // the pause (a FILTER then would set the box back to the trimmed search, eating a space just typed).
  const category = address.category;
  const sub = address.sub;
  const provider = address.provider;
  const q = address.q;
  useEffect(() => {
    const held = actor.getSnapshot().context.address;
    if (held.category === category && held.sub === sub && held.provider === provider && held.q === q) return;
    actor.send({ type: 'FILTER', address: { category, sub, provider, q } });
  }, [actor, category, sub, provider, q]);

  const state = useSelector(actor, (s) => {
    if (s.matches('preparing')) return 'loading';
    if (s.matches('unavailable')) return 'failed';
    if (s.matches({ listing: 'typing' })) return 'loading';
    if (s.matches({ listing: 'tooShort' })) return 'tooShort';
    if (s.matches({ listing: 'loading' }) || s.matches({ listing: 'loadingFavourites' }) || s.matches({ listing: 'deciding' })) return 'loading';
    if (s.matches({ listing: 'failed' })) return 'failed';
    if (s.matches({ listing: 'empty' })) return 'empty';
    return 'shown';
  });
  const more = useSelector(actor, (s) =>
    s.matches({ listing: { shown: 'loadingMore' } }) || s.matches({ listing: { shown: 'loadingMoreFavourites' } })
      ? 'loading'
      : s.matches({ listing: { shown: 'moreFailed' } })
        ? 'failed'
        : 'idle',
  );
  const context = useSelector(actor, (s) => s.context);
  const { rows, count, typed, errorCode, categories, subCategories, providers } = context;
  const shownCategory = categoryOf(context);
  const shownProvider = providerOf(context);
  const applied = searchOf(context.address);

  // Infinite scroll: the next page once the end of the grid comes within a screen.
  const end = useRef<HTMLDivElement>(null);
  const canLoadMore = state === 'shown' && more === 'idle' && hasMoreGames({ rows, count });
  useEffect(() => {
    const target = end.current;
    if (!canLoadMore || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) actor.send({ type: 'LOAD_MORE' });
    }, { rootMargin: '100% 0px' });
    observer.observe(target);
    return () => observer.disconnect();
  }, [actor, canLoadMore, rows.length]);

  const choose = (changes: Partial<GameAddress>) => navigate(withParams({ path, search }, changes));

  const heading =
    scope.kind === 'category' && shownCategory ? shownCategory.name : scope.kind === 'provider' && shownProvider ? shownProvider.name : t(title);
  const subOptions = shownCategory ? (subCategories ?? []).filter((subCategory) => subCategory.categoryId === shownCategory.id) : [];

  let body;
  if (state === 'failed') {
    body = (
      <EmptyState>
        <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
      </EmptyState>
    );
  } else if (state === 'tooShort') {
    body = <EmptyState>{t('games.searchHint')}</EmptyState>;
  } else if (state === 'empty') {
    body = <EmptyState>{applied ? t('games.emptySearch', { query: applied }) : t(empty)}</EmptyState>;
  } else {
    body = (
      <>
        <Count role="status">{state === 'shown' ? t('games.showing', { shown: formatNumber(rows.length, language), total: formatNumber(count, language) }) : t('states.loading')}</Count>
        {state === 'loading' ? (
          <Grid aria-busy="true">
            {Array.from({ length: 12 }, (_, i) => (
              <TileSkeleton key={i} />
            ))}
          </Grid>
        ) : (
          <VirtualGrid games={rows} />
        )}
        <Footer ref={end}>
          {more === 'failed' ? (
            <div>
              <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
            </div>
          ) : state === 'shown' && hasMoreGames({ rows, count }) ? (
            <Button type="button" variant="secondary" aria-busy={more === 'loading'} onClick={() => more === 'idle' && actor.send({ type: 'LOAD_MORE' })}>
              {more === 'loading' ? t('states.loading') : t('common.loadMore')}
            </Button>
          ) : null}
        </Footer>
      </>
    );
  }

  return (
    <Screen title={heading}>
      {scope.kind === 'favourites' ? null : (
        <>
          <SearchBox role="search" onSubmit={(event) => event.preventDefault()}>
            <Icon name="search" size={18} />
            <input
              type="search"
              aria-label={t('nav.search')}
              placeholder={t('games.searchPlaceholder')}
              value={typed}
              autoFocus={searchFirst}
              maxLength={100}
              onChange={(event) => actor.send({ type: 'SEARCH', text: event.target.value })}
            />
          </SearchBox>
          <Controls>
            {scope.kind === 'all' ? (
              <SelectField label={t('games.categories')} value={shownCategory?.slug ?? ''} onChange={(event) => choose({ category: event.target.value, sub: '' })}>
                <option value="">{t('games.allCategories')}</option>
                {(categories ?? []).map((option) => (
                  <option key={option.id} value={option.slug}>
                    {option.name}
                  </option>
                ))}
              </SelectField>
            ) : null}
            {/* A category's own grid keeps the sub-category's place while the catalogue loads. */}
            {subOptions.length > 0 || (scope.kind === 'category' && subCategories === null) ? (
              <SelectField label={t('games.subCategories')} value={context.address.sub} onChange={(event) => choose({ sub: event.target.value })}>
                <option value="">{t('games.allSubCategories')}</option>
                {subOptions.map((option) => (
                  <option key={option.id} value={option.slug}>
                    {option.name}
                  </option>
                ))}
              </SelectField>
            ) : null}
            {scope.kind === 'provider' ? null : (
              <SelectField label={t('games.providers')} value={shownProvider?.slug ?? ''} onChange={(event) => choose({ provider: event.target.value })}>
                <option value="">{t('games.allProviders')}</option>
                {(providers ?? []).map((option) => (
                  <option key={option.id} value={option.slug}>
                    {option.name}
                  </option>
                ))}
              </SelectField>
            )}
          </Controls>
        </>
      )}
      {body}
    </Screen>
  );
}


export function FavouritesScreen() {
  const { t } = useT();
  const { app } = useWiring();
  const token = useSelector(app, (s) => s.context.accessToken);
  return (
    <PlayerOnly title={t('games.favouritesTitle')}>
      <GamesScreen key={token ?? ''} title="games.favouritesTitle" scope={{ kind: 'favourites' }} empty="games.emptyFavourites" />
    </PlayerOnly>
  );
}


/** The grid a path shows (src/views/App.tsx routes them all here): its title, scope and empty state. */
export function GridRoute() {
  const [path] = useLocation();
  const [, section = '', slug = ''] = path.split('/');
  const grid: GamesScreenProps =
    section === 'category' || section === 'live-casino' || section === 'sports'
      ? {
          title: section === 'sports' ? 'games.sportsTitle' : section === 'live-casino' ? 'games.liveCasinoTitle' : 'games.allGamesTitle',
          scope: { kind: 'category', slug: section === 'category' ? slug : section },
          empty: section === 'sports' ? 'games.emptySports' : 'games.empty',
        }
      : section === 'provider'
        ? { title: 'games.allGamesTitle', scope: { kind: 'provider', slug }, empty: 'games.empty' }
        : {
            title: section === 'casino' ? 'games.casinoTitle' : section === 'search' ? 'games.searchTitle' : 'games.allGamesTitle',
            scope: { kind: 'all' },
            empty: 'games.empty',
            searchFirst: section === 'search',
          };
  // Another grid is another flow: a category after another starts with its own rows.
  return <GamesScreen key={path} {...grid} />;
}
