import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { Link } from 'wouter';
import type { Category } from '../../machines/gameList.machine.ts';
import { gameRowMachine } from '../../machines/gameRow.machine.ts';
import { catalogueOf, lobbyMachine } from '../../machines/lobby.machine.ts';
import { Button } from '../components/Button.tsx';
import { Icon } from '../components/Icons.tsx';
import { EmptyState, Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow } from '../wiring.ts';
import { GameTile, TileSkeleton } from './GameTile.tsx';

/*
 * The lobby (DESIGN.md; src/machines/lobby.machine.ts): banners, a row per category (its own gameList,
 * with the catalogue the lobby loaded), the providers.
 */

/** Games a lobby row shows before "View all". */
export const ROW_SIZE = 12;

// The words stay readable where they cross the banner's art.
const Banners = styled('div')`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: 100%;
  gap: ${theme.space(3)};
  overflow-x: auto;
  scroll-snap-type: x mandatory;
  margin-bottom: ${theme.space(6)};
  aspect-ratio: 16 / 6;
  ${theme.breakpoint.tablet} {
    grid-auto-columns: calc(50% - ${theme.space(1.5)});
    aspect-ratio: 32 / 6;
  }
  a,
  > div {
    position: relative;
    display: block;
    scroll-snap-align: start;
    border-radius: ${theme.radius.large};
    overflow: hidden;
    color: ${theme.color.text};
    text-decoration: none;
    background: ${theme.color.surface};
  }
  img {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  span {
    position: absolute;
    left: ${theme.space(4)};
    bottom: ${theme.space(4)};
    right: ${theme.space(4)};
    text-shadow: 0 1px 4px rgba(0, 0, 0, 0.7);
  }
  strong {
    display: block;
    font-size: ${theme.font.size.large};
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: -2px;
  }
`;

const RowBox = styled('section')`
  margin-bottom: ${theme.space(6)};
  header {
    display: flex;
    align-items: center;
    gap: ${theme.space(2)};
    min-height: 2.75rem;
    margin-bottom: ${theme.space(2)};
  }
  h2 {
    flex: 1;
    margin: 0;
    font-size: ${theme.font.size.large};
  }
  header a {
    color: ${theme.color.link};
    font-weight: 600;
    min-height: 2.75rem;
    display: inline-flex;
    align-items: center;
    padding: 0 ${theme.space(2)};
  }
  header button {
    width: 2.75rem;
    height: 2.75rem;
    display: none;
    align-items: center;
    justify-content: center;
    border: 1px solid ${theme.color.border};
    border-radius: 999px;
    background: transparent;
    color: ${theme.color.text};
    cursor: pointer;
    ${theme.breakpoint.desktop} {
      display: inline-flex;
    }
  }
`;

/** 2 tiles and a bit on a phone, 6 from 1024 px (DESIGN.md), in one row that scrolls sideways. */
const Strip = styled('div')`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: calc((100% - ${theme.space(3)} * 2) / 2.4);
  gap: ${theme.space(3)};
  overflow-x: auto;
  scroll-snap-type: x proximity;
  scrollbar-width: none;
  > * {
    scroll-snap-align: start;
  }
  ${theme.breakpoint.tablet} {
    grid-auto-columns: calc((100% - ${theme.space(3)} * 3) / 4);
  }
  ${theme.breakpoint.desktop} {
    grid-auto-columns: calc((100% - ${theme.space(3)} * 5) / 6);
  }
`;

const Providers = styled('ul')`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr));
  gap: ${theme.space(2)};
  padding: 0;
  margin: 0;
  list-style: none;
  a {
    display: flex;
    flex-direction: column;
    justify-content: center;
    min-height: 4rem;
    padding: ${theme.space(2)} ${theme.space(3)};
    border: 1px solid ${theme.color.border};
    border-radius: ${theme.radius.medium};
    background: ${theme.color.surface};
    color: ${theme.color.text};
    text-decoration: none;
    font-weight: 600;
  }
  small {
    color: ${theme.color.textMuted};
    font-weight: 400;
  }
`;

/** One category's row (src/machines/gameRow.machine.ts); nothing at all for a category without games. */
export function CategoryRow({ category }: { category: Category }) {
  const { t } = useT();
  const actor = useFlow(gameRowMachine, { categoryId: category.id, limit: ROW_SIZE });
  const state = useSelector(actor, (s) => s.value);
  const rows = useSelector(actor, (s) => s.context.rows);
  const more = useSelector(actor, (s) => s.context.count > s.context.rows.length);
  const strip = useRef<HTMLDivElement>(null);
  const scroll = (direction: 1 | -1) => strip.current?.scrollBy({ left: direction * strip.current.clientWidth, behavior: 'smooth' });
  const id = `row-${category.slug}`;
  if (state === 'empty') return null;
  return (
    <RowBox aria-labelledby={id}>
      <header>
        <h2 id={id}>{category.name}</h2>
        {more ? <Link href={`/category/${category.slug}`}>{t('games.viewAll')}</Link> : null}
        <button type="button" aria-label={t('games.scrollBack')} onClick={() => scroll(-1)}>
          <Icon name="chevronLeft" />
        </button>
        <button type="button" aria-label={t('games.scrollOn')} onClick={() => scroll(1)}>
          <Icon name="chevronRight" />
        </button>
      </header>
      {state === 'failed' ? (
        <EmptyState>
          <p role="alert">{t('games.loadFailed')}</p>
          <Button type="button" variant="secondary" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('common.retry')}
          </Button>
        </EmptyState>
      ) : (
        <Strip ref={strip} aria-busy={state === 'loading'}>
          {state === 'loading' ? Array.from({ length: 6 }, (_, i) => <TileSkeleton key={i} />) : rows.map((game) => <GameTile key={game.id} game={game} />)}
        </Strip>
      )}
    </RowBox>
  );
}

export default function Lobby() {
  const { t } = useT();
  const actor = useFlow(lobbyMachine);
  const banners = useSelector(actor, (s) => (s.matches({ banners: 'shown' }) ? s.context.banners : null));
  const catalogue = useSelector(actor, (s) => catalogueOf(s.context));
  const failed = useSelector(actor, (s) => s.matches({ catalogue: 'failed' }));
  return (
    <Screen title={t('games.lobbyTitle')}>
      <Banners aria-label={t('games.banners')} role="region">
        {banners ? (
          banners.map((banner) => (
            <Link key={banner.id} href={banner.linkUrl ?? '/'}>
              <img src={banner.imageUrl} alt="" />
              <span>
                <strong>{banner.title}</strong>
                {banner.subtitle}
              </span>
            </Link>
          ))
        ) : (
          <div>
            <span>
              <strong>{t('games.lobbyWelcome', { site: t('app.name') })}</strong>
            </span>
          </div>
        )}
      </Banners>
      {failed ? (
        <EmptyState>
          <p role="alert">{t('games.loadFailed')}</p>
          <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('common.retry')}
          </Button>
        </EmptyState>
      ) : catalogue ? (
        <>
          {catalogue.categories.map((category) => (
            <CategoryRow key={category.id} category={category} />
          ))}
          <RowBox aria-labelledby="row-providers">
            <header>
              <h2 id="row-providers">{t('games.providers')}</h2>
            </header>
            <Providers>
              {catalogue.providers.map((provider) => (
                <li key={provider.id}>
                  <Link href={`/provider/${provider.slug}`}>
                    {provider.name}
                    <small>{t('games.gameCount', { count: provider.gameCount })}</small>
                  </Link>
                </li>
              ))}
            </Providers>
          </RowBox>
        </>
      ) : (
        <RowBox aria-busy="true">
          {/* The rows' header keeps its place, like the skeleton tiles hidden from screen readers: not an empty heading. */}
          <header aria-hidden="true">
            <h2>&nbsp;</h2>
          </header>
          <Strip>
            {Array.from({ length: 6 }, (_, i) => (
              <TileSkeleton key={i} />
            ))}
          </Strip>
        </RowBox>
      )}
    </Screen>
  );
}
