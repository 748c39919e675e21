import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { favouriteMachine } from '../../machines/favourite.machine.ts';
import type { Game } from '../../machines/gameList.machine.ts';
import { Icon } from '../components/Icons.tsx';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { HeartButton } from './GameTile.tsx';

/*
 * The heart of a tile once pressed (src/machines/favourite.machine.ts): loaded by its first press, which
 * it carries out as it starts; every press after that is its own.
 */

export default function FavouriteButton({ game, signedIn, pressOnStart = false }: { game: Game; signedIn: boolean; pressOnStart?: boolean }) {
  const { t } = useT();
  const actor = useFlow(favouriteMachine, { gameId: game.id, isFavorite: game.isFavorite, signedIn });
  const on = useSelector(actor, (s) => s.context.isFavorite);
  const saving = useSelector(actor, (s) => s.matches('saving'));
  // The press that loaded this flow.
  useEffect(() => {
    if (!pressOnStart) return;
    actor.send({ type: 'TOGGLE' });
  }, [actor, pressOnStart]);
  return (
    <HeartButton
      type="button"
      aria-pressed={on}
      aria-busy={saving}
      aria-label={`${t(on ? 'games.removeFavourite' : 'games.addFavourite')}: ${game.name}`}
      title={t(on ? 'games.removeFavourite' : 'games.addFavourite')}
      onClick={() => actor.send({ type: 'TOGGLE' })}
    >
      <Icon name="heart" size={20} />
    </HeartButton>
  );
}

