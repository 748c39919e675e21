import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // ELK (the layout engine of the reviewers' /flows charts) is one 1.5 MB chunk, loaded only by /flows;
    // the player's lobby is held to its own budget by the browser tests.
    chunkSizeWarningLimit: 1600,
    // Compressing at the best brotli quality takes a few seconds (ELK above all), by design.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false } },
  },
});
