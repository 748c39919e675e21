import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('src/api/schema.d.ts is what npm run gen:api makes of openapi.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'casino-schema-'));
  try {
    const out = join(dir, 'schema.d.ts');
    execFileSync(join('node_modules', '.bin', 'openapi-typescript'), ['openapi.yaml', '-o', out], { stdio: 'pipe' });
    const fresh = readFileSync(out, 'utf8');
    const committed = readFileSync(join('src', 'api', 'schema.d.ts'), 'utf8');
    expect(committed === fresh, 'src/api/schema.d.ts is stale: run npm run gen:api').toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
