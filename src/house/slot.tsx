import { mountHouse } from '../views/house/mount.tsx';
import { SlotPage } from '../views/house/Slot.tsx';

/* The Slot page's entry (house/slot.html): a build entry of its own, outside the SPA's first load. */
mountHouse((sessionId) => <SlotPage sessionId={sessionId} />);
