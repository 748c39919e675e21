import { mountHouse } from '../views/house/mount.tsx';
import { LimboPage } from '../views/house/Limbo.tsx';

/* The Limbo page's entry (house/limbo.html): a build entry of its own, outside the SPA's first load. */
mountHouse((sessionId) => <LimboPage sessionId={sessionId} />);
