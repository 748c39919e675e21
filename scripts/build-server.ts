// npm run build:server: see scripts/lib/build-server.ts.
import { buildServer } from './lib/build-server.ts';

console.log(`Server built into ${await buildServer()}`);
