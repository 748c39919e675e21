import { sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/*
 * The built SPA (dist/): files as Vite wrote them, with the brotli and gzip copies the build made beside
 * them (vite.config.ts) sent to browsers that accept them. Hashed assets change name when they change, so
 * they are cached for good; everything else (index.html above all, robots.txt) is revalidated on every
 * use, so a new build is seen at once. Client routes (/casino, /bonus?tab=active) get index.html.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const ASSETS = `${sep}assets${sep}`;

export async function serveSpa(app: FastifyInstance, spaDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: spaDir,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    // The compressed copies are answers to their originals' URLs, not files of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.includes(ASSETS) ? IMMUTABLE : REVALIDATE);
    },
  });
}

/** Whether a request that matched no route is a client route of the SPA (index.html answers it). */
export function isClientRoute(method: string, url: string): boolean {
  return method === 'GET' && !url.startsWith('/api/');
}
