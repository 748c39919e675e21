// The server and the ledger check as plain JavaScript for Node (npm run build:server): one module each,
// with the packages they use left to node_modules, and beside them the files they read at run time
// (the migrations, the schema files and the contract). A built server starts without compiling TypeScript first.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';

export const SERVER_BUILD_DIR = 'build/server';

/** Builds into outdir: main.js (the server), ledger-check.js, migrations/, schema/, openapi.json. */
export async function buildServer(outdir: string = SERVER_BUILD_DIR): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { main: 'server/main.ts', 'ledger-check': 'scripts/ledger-check.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  cpSync('server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  cpSync('server/db/schema', join(outdir, 'schema'), { recursive: true });
  // openapi.yaml parsed here once: reading it as YAML took a start 414 ms of CPU, as JSON 2.5 ms.
  writeFileSync(join(outdir, 'openapi.json'), JSON.stringify(parse(readFileSync('openapi.yaml', 'utf8'))));
  return outdir;
}
