import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowFixtures } from '../../src/flows/fixtures/index.ts';
import { machines } from '../../src/machines/index.ts';
import { REPORT_DIR } from './coverage.ts';

/*
 * The gate over all machines. Each machine's own model test (tests/mbt/<name>.mbt.test.tsx, calling
 * describeModel('<name>', ...)) ends with its coverage gate: every state and every transition taken by a
 * path whose view assertions passed. This file makes sure no machine escapes that: a machine listed in
 * src/machines/index.ts without a model test fails here, unless it is listed as pending below.
 */

/**
 * Machines whose model test is not written yet, each with the reason. The gate lets them through; it
 * fails as soon as one of them gets its model test, so the entry is removed then.
 */
const PENDING: Record<string, string> = {
};

const DIR = join(process.cwd(), 'tests', 'mbt');
const testFile = (name: string) => join(DIR, `${name}.mbt.test.tsx`);
const names = Object.keys(machines);

describe('model-based tests: every machine has one', () => {
  it('every machine in src/machines/index.ts has a model test, or is pending', () => {
    const missing = names.filter((name) => !existsSync(testFile(name)) && !(name in PENDING));
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(join(REPORT_DIR, '_gate.json'), `${JSON.stringify({ machines: names, pending: PENDING, missing }, null, 2)}\n`);
    expect(missing, 'machines without a model test (tests/mbt/<name>.mbt.test.tsx)').toEqual([]);
  });

  it('each model test runs its own machine through describeModel', () => {
    const wrong = names.filter((name) => existsSync(testFile(name)) && !readFileSync(testFile(name), 'utf8').includes(`describeModel('${name}'`));
    expect(wrong).toEqual([]);
  });

  it('every model test is for a machine of src/machines/index.ts', () => {
    const strays = readdirSync(DIR)
      .filter((file) => file.endsWith('.mbt.test.tsx'))
      .map((file) => file.replace('.mbt.test.tsx', ''))
      .filter((name) => !names.includes(name));
    expect(strays).toEqual([]);
  });

  it('no pending machine has a model test already, and every pending entry is a machine', () => {
    expect(Object.keys(PENDING).filter((name) => existsSync(testFile(name))), 'take these off PENDING').toEqual([]);
    expect(Object.keys(PENDING).filter((name) => !names.includes(name)), 'not machines').toEqual([]);
  });

  it('every machine with a model test has its fixtures in src/flows/fixtures/index.ts (the /flows screen uses them too)', () => {
    const tested = names.filter((name) => existsSync(testFile(name)));
    expect(tested.filter((name) => !(name in flowFixtures))).toEqual([]);
  });
});
