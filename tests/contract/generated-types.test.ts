import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('src/api/schema.d.ts is what npm run gen:api makes of openapi.yaml', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'casino-schema-')), 'schema.d.ts');
  execFileSync(join('node_modules', '.bin', 'openapi-typescript'), ['openapi.yaml', '-o', out], { stdio: 'pipe' });
  const fresh = readFileSync(out, 'utf8');
  const committed = readFileSync(join('src', 'api', 'schema.d.ts'), 'utf8');
  expect(committed === fresh, 'src/api/schema.d.ts is stale: run npm run gen:api').toBe(true);
});
