/*
 * npm run audit:web: Lighthouse (mobile settings: an emulated phone, simulated slow 4G and a slowed CPU)
 * on the built app served by the real server in production mode, for the pages a player meets first:
 * the lobby, the casino, the bonuses, the profile (signed in) and the register dialog. Each page is
 * audited three times and the median of each figure is kept. Prints a table, writes it to
 * test-results/audit-web.{json,md}, and exits 1 when a page scores under 100 in accessibility or best
 * practices, under 95 in SEO, or shifts more than 0.02 (CLS), listing the audits that failed.
 *
 * A benchmark, not a test: it prints figures, and takes a few minutes (npm test does not run it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startProductServer } from './lib/processes.ts';

const RUNS = Number(process.env.AUDIT_RUNS ?? 3);
const DEMO = { email: 'demo@casino.local', password: 'Demo@1234' };
const OUT = 'test-results';

interface Target {
  name: string;
  path: string;
  signedIn: boolean;
}

const TARGETS: Target[] = [
  { name: 'lobby', path: '/', signedIn: false },
  { name: 'casino', path: '/casino', signedIn: false },
  { name: 'bonuses', path: '/bonus', signedIn: false },
  { name: 'profile (signed in)', path: '/profile', signedIn: true },
  { name: 'register dialog', path: '/?dialog=register', signedIn: false },
];

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
}

interface Failure {
  page: string;
  category: string;
  audit: string;
  title: string;
  /** The elements it failed on (their HTML, shortened). */
  elements: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function launchChromium(): Promise<Browser> {
  const common = ['--headless=new', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  if (process.env.CHROME_PATH) return puppeteer.launch({ executablePath: process.env.CHROME_PATH, args: ['--no-sandbox', ...common] });
  const packaged = (await import('@sparticuz/chromium')).default;
  // Made for one-page serverless runs: in --single-process mode, closing a page closes the browser.
  const args = packaged.args.filter((arg) => arg !== '--single-process' && !arg.startsWith('--headless'));
  return puppeteer.launch({ executablePath: await packaged.executablePath(), args: [...args, ...common] });
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO.email, password: Buffer.from(DEMO.password).toString('base64') }),
  });
  if (!response.ok) throw new Error(`the demo player could not sign in: ${response.status}`);
  return ((await response.json()) as { data: { accessToken: string } }).data.accessToken;
}

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function figuresOf(report: Report): Figures {
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const requests = (report.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const scriptBytes = requests.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    jsKb: scriptBytes / 1024,
  };
}

/** The audits of a category that did not pass, for the report's list of what to fix. */
function failuresOf(report: Report, page: string): Failure[] {
  const failures: Failure[] = [];
  for (const [category, threshold] of [
    ['accessibility', 1],
    ['best-practices', 1],
    ['seo', 0.95],
  ] as const) {
    const entry = report.categories[category];
    if (!entry || (entry.score ?? 0) >= threshold) continue;
    for (const ref of entry.auditRefs) {
      const audit = report.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      const items = (audit.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? [];
      const elements = items.flatMap((item) => (item.node?.snippet ? [item.node.snippet.slice(0, 160)] : []));
      failures.push({ page, category, audit: audit.id, title: audit.title, elements });
    }
  }
  return failures;
}

async function main(): Promise<void> {
  console.log('Building the app…');
  const build = spawnSync(join('node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(2);
  // Production mode as players get it; the simulator on for the demo player the profile is audited with.
  const server = await startProductServer({ NODE_ENV: 'production' });
  const browser = await launchChromium();
  const results: { target: Target; figures: Figures }[] = [];
  const failures: Failure[] = [];
  try {
    const token = await signIn(server.url);
    // AUDIT_PAGES=lobby,casino audits only those pages (by the start of their names), for a quick look.
    const only = process.env.AUDIT_PAGES?.split(',').map((name) => name.trim()) ?? null;
    for (const target of TARGETS.filter((candidate) => !only || only.some((name) => candidate.name.startsWith(name)))) {
      const runs: Figures[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        const page = await browser.newPage();
        if (target.signedIn) {
          // Signed in as the app would be after a login: the token is in place before the first script
          // runs. Storage is kept for that, so the cache is emptied by hand: every run starts cold.
          await page.evaluateOnNewDocument((saved) => window.localStorage.setItem('casino.token', saved), token);
          const session = await page.createCDPSession();
          await session.send('Network.clearBrowserCache');
          await session.detach();
        }
        const result = await lighthouse(
          `${server.url}${target.path}`,
          { output: 'json', logLevel: 'error', disableStorageReset: target.signedIn, onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] },
          undefined,
          page,
        );
        await page.close();
        if (!result) throw new Error(`Lighthouse gave no result for ${target.path}`);
        runs.push(figuresOf(result.lhr));
        if (run === RUNS) failures.push(...failuresOf(result.lhr, target.name));
        process.stdout.write(`  ${target.name}: run ${run}/${RUNS}\n`);
      }
      const figures = Object.fromEntries(
        (Object.keys(runs[0]!) as (keyof Figures)[]).map((key) => [key, median(runs.map((figures) => figures[key]))]),
      ) as unknown as Figures;
      results.push({ target, figures });
    }
  } finally {
    await browser.close();
    await server.stop();
  }

  const header = '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | JS on the wire |';
  const rows = results.map(
    ({ target, figures: f }) =>
      `| ${target.name} (${target.path}) | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${f.seo} | ${(f.lcpMs / 1000).toFixed(2)} s | ${Math.round(f.tbtMs)} ms | ${f.cls.toFixed(3)} | ${f.jsKb.toFixed(1)} KB |`,
  );
  const table = [header, '| --- | --- | --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
  const verdicts = results.flatMap(({ target, figures: f }) => [
    ...(f.accessibility < 100 ? [`${target.name}: accessibility ${f.accessibility} (under 100)`] : []),
    ...(f.bestPractices < 100 ? [`${target.name}: best practices ${f.bestPractices} (under 100)`] : []),
    ...(f.seo < 95 ? [`${target.name}: SEO ${f.seo} (under 95)`] : []),
    ...(f.cls > 0.02 ? [`${target.name}: CLS ${f.cls.toFixed(3)} (over 0.02)`] : []),
  ]);
  console.log(`\nLighthouse ${RUNS}× per page, mobile settings, medians:\n\n${table}\n`);
  for (const failure of failures) {
    console.log(`  failed audit (${failure.page}, ${failure.category}): ${failure.audit} — ${failure.title}`);
    for (const element of failure.elements) console.log(`      ${element}`);
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'audit-web.json'), `${JSON.stringify({ runs: RUNS, results, failures, verdicts }, null, 2)}\n`);
  writeFileSync(join(OUT, 'audit-web.md'), `${table}\n`);
  if (verdicts.length > 0) {
    console.error(`\nBelow the bar:\n${verdicts.map((verdict) => `  ${verdict}`).join('\n')}`);
    process.exit(1);
  }
  console.log('Every page meets the bar: accessibility and best practices 100, SEO at least 95, CLS at most 0.02.');
}

await main();
