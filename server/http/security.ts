import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/*
 * The browser-facing protections every answer carries: a Content-Security-Policy, framing rules,
 * X-Content-Type-Options, Referrer-Policy, HSTS when the site is served over https, and CORS for the
 * origins an operator allows (none by default: the SPA and the API share one origin).
 *
 * Written as one onSend hook rather than with @fastify/helmet and @fastify/cors: the policy differs by
 * what is answered (the SPA's documents, the house games' pages, which the SPA frames, and the API),
 * depends on the configuration (the sign-in SDKs' origins only when those logins are configured), and
 * must reach every answer: static files, the SPA's fallback, 404s and errors. A refused CORS preflight
 * also has to answer in the API's envelope, which @fastify/cors's own answers are not.
 *
 * The access token lives in localStorage (SPEC), so script-src is what stands between an injected
 * string and the token: scripts come from this origin alone (the built SPA has no inline script; Vite
 * writes every module to /assets), plus Google's and Facebook's SDKs when those logins are on.
 *
 * Styles are allowed inline ('unsafe-inline' in style-src, and in style-src only). goober, the SPA's
 * CSS-in-JS, writes its rules into a <style> element it creates at run time, and index.html and the
 * house pages carry the loading screen's <style>; a nonce would need every HTML answer rewritten per
 * request and goober to stamp it on its element, which it does not, and hashes cannot cover rules made
 * at run time. An injected style cannot run script or read the token; what it could do (restyle the
 * page) is bounded by the rest of this policy: no inline script, no foreign frames or connections.
 */

/** Google Identity Services' documented CSP sources. */
const GOOGLE = {
  script: ['https://accounts.google.com/gsi/client'],
  style: ['https://accounts.google.com/gsi/style'],
  frame: ['https://accounts.google.com/gsi/'],
  connect: ['https://accounts.google.com/gsi/'],
};
/** Facebook's JavaScript SDK: its script, and the frames and calls of its login. */
const FACEBOOK = {
  script: ['https://connect.facebook.net'],
  style: [] as string[],
  frame: ['https://*.facebook.com'],
  connect: ['https://*.facebook.com'],
};

export type Answered = 'spa' | 'house' | 'api';

/** What an address answers: the API, a house game's page (framed by the SPA) or the SPA and its files. */
export function answered(url: string): Answered {
  const path = url.split('?')[0] ?? '';
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (path.startsWith('/house/')) return 'house';
  return 'spa';
}

export interface SecuritySettings {
  https: boolean;
  google: boolean;
  facebook: boolean;
  corsOrigins: readonly string[];
}

export function securitySettings(config: Config): SecuritySettings {
  return {
    https: config.publicUrl.startsWith('https:'),
    google: config.googleClientId !== null,
    // As commonGetSettings: a Facebook app id without its secret shows no Facebook button.
    facebook: config.facebookAppId !== null && config.facebookAppSecret !== null,
    corsOrigins: config.corsOrigins,
  };
}

/** The Content-Security-Policy of one kind of answer. */
export function contentSecurityPolicy(settings: SecuritySettings, kind: Answered): string {
  if (kind === 'api') {
    // JSON and images: nothing in them may load or run anything, whoever opens them.
    return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  }
  const sdks = kind === 'spa' ? [...(settings.google ? [GOOGLE] : []), ...(settings.facebook ? [FACEBOOK] : [])] : [];
  const sources = (pick: (sdk: typeof GOOGLE) => string[]) => sdks.flatMap(pick);
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...sources((sdk) => sdk.script)],
    ['style-src', "'self'", "'unsafe-inline'", ...sources((sdk) => sdk.style)],
    // Banners are data: URLs; a profile picture is previewed from a blob: URL before it is uploaded.
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...sources((sdk) => sdk.connect)],
    // The SPA frames the house games' pages, which are this origin's; they frame nothing.
    kind === 'spa' ? ['frame-src', "'self'", ...sources((sdk) => sdk.frame)] : ['frame-src', "'none'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    kind === 'house' ? ['frame-ancestors', "'self'"] : ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** Every header of the protections for one kind of answer, CORS aside. */
export function securityHeaders(settings: SecuritySettings, kind: Answered): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(settings, kind),
    // For browsers without frame-ancestors.
    'x-frame-options': kind === 'house' ? 'SAMEORIGIN' : 'DENY',
    'x-content-type-options': 'nosniff',
    // Links out of the site name the origin only, never a path or query (reset and verification tokens).
    // Google's sign-in needs the origin, so not no-referrer.
    'referrer-policy': 'strict-origin-when-cross-origin',
    // Browsers obey it only over https; without includeSubDomains, so other hosts of the domain are the operator's choice.
    ...(settings.https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/** Request headers a browser may send cross-origin to the API. */
const CORS_ALLOWED_HEADERS = 'authorization, content-type, idempotency-key, accept-language';
const CORS_METHODS = 'GET, POST, OPTIONS';
const CORS_MAX_AGE_SECONDS = '600';

/**
 * CORS on the API for the configured origins: an allowed origin may call it with a bearer token (no
 * cookies are used, so no credentials); any other origin gets no CORS header and the browser keeps the
 * answer from it. A preflight (OPTIONS) from an allowed origin answers 204; every other OPTIONS falls
 * through to the 404 envelope as before. Retry-After and Date are readable there: the SPA waits by the one
 * and reads the server's clock from the other.
 */
function corsHeaders(settings: SecuritySettings, req: FastifyRequest): Record<string, string> {
  const origin = req.headers.origin;
  if (settings.corsOrigins.length === 0 || typeof origin !== 'string' || !settings.corsOrigins.includes(origin)) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'retry-after, date' };
}

export function registerSecurity(app: FastifyInstance, config: Config): void {
  const settings = securitySettings(config);
  const byKind: Record<Answered, Record<string, string>> = {
    spa: securityHeaders(settings, 'spa'),
    house: securityHeaders(settings, 'house'),
    api: securityHeaders(settings, 'api'),
  };
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const kind = answered(req.url);
    reply.headers(byKind[kind]);
    if (settings.corsOrigins.length > 0 && kind === 'api') {
      reply.headers(corsHeaders(settings, req));
      // The answer differs by Origin: caches must keep one per origin.
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Origin` : 'Origin');
    }
    return payload;
  });
  if (settings.corsOrigins.length > 0) {
    app.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'OPTIONS' || answered(req.url) !== 'api') return;
      const cors = corsHeaders(settings, req);
      if (!cors['access-control-allow-origin'] || typeof req.headers['access-control-request-method'] !== 'string') return;
      // Answered here, before routing (the API has no OPTIONS routes): returning the reply ends the request.
      return reply
        .code(204)
        .headers({
          ...cors,
          'access-control-allow-methods': CORS_METHODS,
          'access-control-allow-headers': CORS_ALLOWED_HEADERS,
          'access-control-max-age': CORS_MAX_AGE_SECONDS,
        })
        .send();
    });
  }
}

/** The headers of an API answer its handler writes itself (the live-updates stream), CORS included. */
export function streamHeaders(config: Config, req: FastifyRequest): Record<string, string> {
  const settings = securitySettings(config);
  if (settings.corsOrigins.length === 0) return securityHeaders(settings, 'api');
  return { ...securityHeaders(settings, 'api'), ...corsHeaders(settings, req), vary: 'Origin' };
}

/** The headers of an answer written straight to the socket (requests the HTTP parser refused). */
export function rawAnswerHeaders(config: Config): Record<string, string> {
  return securityHeaders(securitySettings(config), 'api');
}
