import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The modules of a visitor's first load of the lobby (the entry, src/main.tsx, loads them with the app),
 * bundled as one chunk: brotli compresses one file better than a dozen small ones that repeat their
 * import lists, and the first load is held to its budget on the wire (tests/e2e/visitor.test.ts). A module
 * that is only needed later must not be listed here, or it would be downloaded with the lobby.
 */
const FIRST_LOAD = [
  /node_modules\/(react|react-dom|scheduler|goober|wouter|regexparam|use-sync-external-store|openapi-fetch|rosetta|templite|dlv)\//,
  /node_modules\/@xstate\/react\//,
  /node_modules\/xstate\/dist\//,
  /src\/views\/(App|Layout|wiring|address|theme|i18n-context)\.tsx?$/,
  /src\/views\/components\/(Button|Screen|Icons)\.tsx$/,
  /src\/views\/flows\/inspector\.ts$/,
  /src\/views\/games\/(Lobby|GameTile)\.tsx$/,
  /src\/api\/(client|envelope)\.ts$/,
  /src\/i18n\/index\.ts$/,
  /src\/machines\/(app\.machine|settings\.machine|lobby\.machine|gameRow\.machine|actors|effects|failure)\.ts$/,
];

/** Files worth compressing (text). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes a brotli (best quality) and a gzip (level 9) copy beside every compressible file of the build,
 * once, so the server sends them as they are (server/http/static.ts) instead of compressing per request.
 * A copy that would not be smaller is not written: the file goes as it is.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'casino:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((fileName) => COMPRESSIBLE.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const path = join(outDir, fileName);
          const content = await readFile(path);
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          };
          const [br, gz] = await Promise.all([brotli(content, { params }), gzipped(content, { level: 9 })]);
          await Promise.all([
            br.length < content.length ? writeFile(`${path}.br`, br) : null,
            gz.length < content.length ? writeFile(`${path}.gz`, gz) : null,
          ]);
        }),
      );
    },
  };
}

/** The house games' pages (src/views/house), each a document of its own that the game page opens in a frame. */
export const HOUSE_PAGES = ['dice', 'limbo', 'mines', 'plinko', 'slot'] as const;

/**
 * Builds the house games' pages (house/ENGINE.html) once the SPA is written, as a build of their own into
 * the same dist/: in one build with the SPA, the modules they share with it (React, XState, goober) would
 * sit in the SPA's FIRST_LOAD chunk, and every game page would download the lobby with them; or FIRST_LOAD
 * would split in two and the lobby would pay for a second file on its 90 KB budget. Apart, the SPA's
 * chunks stay exactly as they are, and the five pages share their own chunks.
 */
function housePages(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let logLevel: 'info' | 'warn' | 'error' | 'silent' = 'info';
  return {
    name: 'casino:house-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
      logLevel = config.logLevel ?? 'info';
    },
    async closeBundle(error?: Error) {
      if (error) return;
      const { build } = await import('vite');
      await build({
        configFile: false,
        root,
        logLevel,
        plugins: [react(), precompress()],
        build: {
          target: 'es2022',
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          modulePreload: { polyfill: false },
          rolldownOptions: {
            checks: { bundlerTimings: false },
            input: Object.fromEntries(HOUSE_PAGES.map((page) => [page, resolve(root, 'house', `${page}.html`)])),
          },
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), housePages()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false },
    // ELK (the layout engine of the reviewers' /flows charts) is one 1.5 MB chunk, loaded only by /flows;
    // the player's lobby is held to its own budget by the browser tests.
    chunkSizeWarningLimit: 1600,
    // Compressing at the best brotli quality takes a few seconds (ELK above all), by design.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [{ name: 'app', test: (id: string) => FIRST_LOAD.some((module) => module.test(id.replaceAll('\\', '/'))) }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
});
