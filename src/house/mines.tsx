import { mountHouse } from '../views/house/mount.tsx';
import { MinesPage } from '../views/house/Mines.tsx';

/* The Mines page's entry (house/mines.html): a build entry of its own, outside the SPA's first load. */
mountHouse((sessionId) => <MinesPage sessionId={sessionId} />);
