/**
 * Writes the flow charts: docs/flows/<machine>.svg for every machine in src/machines/index.ts, and
 * docs/flows/README.md indexing them. Charts of machines that no longer exist are removed.
 *
 *   npm run flows
 *
 * Deterministic: the same machines give byte-identical files (tests/unit/flows.test.ts compares them).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flowDocs, FLOWS_DIR } from '../src/flows/docs.ts';
import { machines } from '../src/machines/index.ts';

async function main(): Promise<void> {
  const files = await flowDocs(machines);
  mkdirSync(FLOWS_DIR, { recursive: true });
  let written = 0;
  for (const [path, content] of files) {
    mkdirSync(dirname(path), { recursive: true });
    let current: string | null = null;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = null;
    }
    if (current === content) continue;
    writeFileSync(path, content);
    written += 1;
    console.log(`wrote ${path}`);
  }
  for (const name of readdirSync(FLOWS_DIR)) {
    const path = join(FLOWS_DIR, name);
    if (name.endsWith('.svg') && !files.has(path)) {
      rmSync(path);
      console.log(`removed ${path}`);
    }
  }
  console.log(`${files.size} flow files in ${FLOWS_DIR}, ${written} changed`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
