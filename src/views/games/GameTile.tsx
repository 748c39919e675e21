import { memo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { Link, useLocation, useSearch } from 'wouter';
import type { Game } from '../../machines/gameList.machine.ts';
import { Icon } from '../components/Icons.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useWiring } from '../wiring.ts';

/*
 * A game tile (DESIGN.md): portrait 3:4 art (the server's generated cover), name and provider below, the
 * heart (src/machines/favourite.machine.ts), Play and Demo over the art on hover or focus, and always on
 * a touch screen. Play and Demo are links to the game page, carrying the address to come back to.
 */

export const TileBox = styled('article')`
  position: relative;
  min-width: 0;
  h3 {
    margin: ${theme.space(2)} 0 0;
    font-size: ${theme.font.size.small};
    font-weight: 600;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  p {
    margin: 0;
    font-size: 0.8125rem;
    color: ${theme.color.textMuted};
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
`;

/** The art's box: its 3:4 space is reserved before the image arrives. */
export const Art = styled('div')`
  position: relative;
  aspect-ratio: 3 / 4;
  border-radius: ${theme.radius.medium};
  overflow: hidden;
  background: ${theme.color.surfaceRaised};
  img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

const Overlay = styled('div')`
  position: absolute;
  inset: auto 0 0 0;
  display: flex;
  gap: ${theme.space(1)};
  padding: ${theme.space(2)};
  background: linear-gradient(transparent, rgba(10, 5, 25, 0.9));
  a {
    flex: 1;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.75rem;
    border-radius: ${theme.radius.small};
    font-weight: 600;
    font-size: ${theme.font.size.small};
    text-decoration: none;
    color: ${theme.color.accentText};
    background: ${theme.color.accentStrong};
  }
  a + a {
    background: rgba(255, 255, 255, 0.16);
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: -2px;
  }
  @media (hover: hover) {
    opacity: 0;
    transition: opacity 0.15s;
    article:hover &,
    article:focus-within & {
      opacity: 1;
    }
  }
`;

export const HeartButton = styled('button')`
  position: absolute;
  top: ${theme.space(1)};
  right: ${theme.space(1)};
  width: 2.75rem;
  height: 2.75rem;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border: 0;
  border-radius: 999px;
  background: rgba(10, 5, 25, 0.55);
  color: ${theme.color.text};
  cursor: pointer;
  &[aria-pressed='true'] {
    color: ${theme.color.danger};
  }
  &[aria-pressed='true'] svg {
    fill: currentColor;
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;

/** The game page's link for a game: real money or demo, with where to come back to. */
export function playHref(gameId: number, mode: 'real' | 'demo', from: string): string {
  return `/play?game=${gameId}&mode=${mode}&from=${encodeURIComponent(from)}`;
}

/**
 * The heart before its first press: the flow (./FavouriteButton.tsx, with its machine) is a chunk loaded
 * by that press, which it then handles; a lobby that is only looked at does not download it.
 */
function Heart({ game, signedIn }: { game: Game; signedIn: boolean }) {
  const { t } = useT();
  const [flow, setFlow] = useState<typeof import('./FavouriteButton.tsx') | null>(null);
  const [loading, setLoading] = useState(false);
  if (flow) return <flow.default game={game} signedIn={signedIn} pressOnStart />;
  const on = game.isFavorite;
  return (
    <HeartButton
      type="button"
      aria-pressed={on}
      aria-busy={loading}
      aria-label={`${t(on ? 'games.removeFavourite' : 'games.addFavourite')}: ${game.name}`}
      title={t(on ? 'games.removeFavourite' : 'games.addFavourite')}
      onClick={() => {
        if (loading) return;
        setLoading(true);
        import('./FavouriteButton.tsx').then(setFlow, () => setLoading(false));
      }}
    >
      <Icon name="heart" size={20} />
    </HeartButton>
  );
}

/**
 * A tile; the same game renders once (a grid's new page leaves the tiles on screen as they are).
 * `art` false keeps the cover's place empty: a grid passes it for a row that is only flying past.
 */
export const GameTile = memo(function GameTile({ game, art = true }: { game: Game; art?: boolean }) {
  const { t } = useT();
  const { app } = useWiring();
  const signedIn = useSelector(app, (s) => s.context.accessToken !== null);
  const [path] = useLocation();
  const search = useSearch();
  const from = search ? `${path}?${search}` : path;
  return (
    <TileBox aria-label={game.name}>
      <Art>
        {art ? <img src={game.thumbnailUrl} alt="" width={300} height={400} loading="lazy" decoding="async" /> : null}
        <Overlay>
          <Link href={playHref(game.id, 'real', from)} aria-label={`${t('games.play')}: ${game.name}`}>
            {t('games.play')}
          </Link>
          {game.hasDemo ? (
            <Link href={playHref(game.id, 'demo', from)} aria-label={`${t('games.demo')}: ${game.name}`}>
              {t('games.demo')}
            </Link>
          ) : null}
        </Overlay>
        {/* A new session (logged in or out) starts the heart afresh. */}
        <Heart key={String(signedIn)} game={game} signedIn={signedIn} />
      </Art>
      <h3 title={game.name}>{game.name}</h3>
      <p>{game.providerName}</p>
    </TileBox>
  );
});

/** A tile's place while its page loads: the same size, so nothing moves when the games arrive. */
export function TileSkeleton() {
  return (
    <TileBox aria-hidden="true">
      <Art />
      <h3>&nbsp;</h3>
      <p>&nbsp;</p>
    </TileBox>
  );
}
