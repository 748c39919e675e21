import { mountHouse } from '../views/house/mount.tsx';
import { DicePage } from '../views/house/Dice.tsx';

/* The Dice page's entry (house/dice.html): a build entry of its own, outside the SPA's first load. */
mountHouse((sessionId) => <DicePage sessionId={sessionId} />);
