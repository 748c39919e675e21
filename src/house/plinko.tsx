import { mountHouse } from '../views/house/mount.tsx';
import { PlinkoPage } from '../views/house/Plinko.tsx';

/* The Plinko page's entry (house/plinko.html): a build entry of its own, outside the SPA's first load. */
mountHouse((sessionId) => <PlinkoPage sessionId={sessionId} />);
