import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateSecret, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SocialLoginError,
  verifyFacebookToken,
  verifyGoogleCredential,
  type FacebookVerifyOptions,
  type GoogleVerifyOptions,
  type SocialLoginReason,
} from '../../server/providers/identity.ts';
import { startFacebookGraph, startGoogleIssuer, type FacebookGraph, type GoogleIssuer } from '../fixtures/identity-servers.ts';

async function failure(promise: Promise<unknown>): Promise<SocialLoginError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof SocialLoginError)) throw new Error(`Expected a SocialLoginError, got ${String(outcome)}`);
  return outcome;
}

async function expectReason(promise: Promise<unknown>, reason: SocialLoginReason): Promise<SocialLoginError> {
  const error = await failure(promise);
  expect(error.reason).toBe(reason);
  return error;
}

/** A server that accepts connections and never answers. */
async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('verifyGoogleCredential', () => {
  let google: GoogleIssuer;
  let options: GoogleVerifyOptions;

  beforeAll(async () => {
    google = await startGoogleIssuer();
    options = { clientId: google.clientId, jwksUrl: google.jwksUrl, issuers: ['https://accounts.google.com', 'accounts.google.com'] };
  });

  afterAll(async () => {
    await google?.close();
  });

  it('returns the profile of a valid ID token', async () => {
    const credential = await google.signIdToken({ sub: '1234567890', email: 'ada@example.com', given_name: 'Ada', family_name: 'Lovelace' });
    await expect(verifyGoogleCredential(credential, options)).resolves.toEqual({
      provider: 'google',
      subject: '1234567890',
      email: 'ada@example.com',
      emailVerified: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
      pictureUrl: 'https://lh3.googleusercontent.com/a/test-picture',
    });
  });

  it('accepts the bare issuer spelling Google also uses', async () => {
    const credential = await google.signIdToken({ iss: 'accounts.google.com' });
    await expect(verifyGoogleCredential(credential, options)).resolves.toMatchObject({ provider: 'google' });
  });

  it('withholds an email Google has not verified', async () => {
    const credential = await google.signIdToken({ email: 'unverified@example.com', email_verified: false });
    await expect(verifyGoogleCredential(credential, options)).resolves.toMatchObject({ email: null, emailVerified: false });
  });

  it('caches the key set between verifications', async () => {
    const cached = await startGoogleIssuer();
    try {
      const cachedOptions = { ...options, clientId: cached.clientId, jwksUrl: cached.jwksUrl };
      await verifyGoogleCredential(await cached.signIdToken(), cachedOptions);
      await verifyGoogleCredential(await cached.signIdToken({ sub: 'another' }), cachedOptions);
      expect(cached.jwksRequestCount()).toBe(1);
    } finally {
      await cached.close();
    }
  });

  it('rejects a token issued to another client id', async () => {
    const credential = await google.signIdToken({ aud: 'someone-else.apps.googleusercontent.com', azp: 'someone-else.apps.googleusercontent.com' });
    await expectReason(verifyGoogleCredential(credential, options), 'wrong_audience');
  });

  it('rejects a token for several audiences not obtained by this client', async () => {
    const credential = await google.signIdToken({ aud: [google.clientId, 'other-client'], azp: 'other-client' });
    await expectReason(verifyGoogleCredential(credential, options), 'wrong_audience');
  });

  it('rejects a token from another issuer', async () => {
    const credential = await google.signIdToken({ iss: 'https://evil.example.com' });
    await expectReason(verifyGoogleCredential(credential, options), 'wrong_issuer');
  });

  it('rejects an expired token', async () => {
    const credential = await google.signIdToken({}, { expiresIn: '-10m' });
    await expectReason(verifyGoogleCredential(credential, options), 'expired');
  });

  it('rejects a token signed by a key the JWKS does not hold', async () => {
    const credential = await google.signIdToken({}, { key: 'other' });
    await expectReason(verifyGoogleCredential(credential, options), 'bad_signature');
  });

  it('rejects a token naming an unknown key id', async () => {
    const credential = await google.signIdToken({}, { key: 'other', kid: 'not-published' });
    await expectReason(verifyGoogleCredential(credential, options), 'unknown_key');
  });

  it('rejects a token signed with another algorithm', async () => {
    const secret = await generateSecret('HS256');
    const credential = await new SignJWT({ sub: '1', iss: 'https://accounts.google.com', aud: google.clientId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    await expectReason(verifyGoogleCredential(credential, options), 'unsupported_algorithm');
  });

  it('rejects a token without a subject', async () => {
    const credential = await google.signIdToken({ sub: '' });
    await expectReason(verifyGoogleCredential(credential, options), 'invalid_claims');
  });

  it('rejects malformed strings', async () => {
    await expectReason(verifyGoogleCredential('not-a-jwt', options), 'malformed');
    await expectReason(verifyGoogleCredential('', options), 'malformed');
    await expectReason(verifyGoogleCredential('aaa.bbb.ccc', options), 'malformed');
  });

  it('rejects a token whose payload was altered after signing', async () => {
    const [header, payload, signature] = (await google.signIdToken()).split('.');
    const claims: unknown = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const altered = Buffer.from(JSON.stringify({ ...(claims as object), sub: 'someone-else' })).toString('base64url');
    await expectReason(verifyGoogleCredential(`${header}.${altered}.${signature}`, options), 'bad_signature');
  });

  it('reports unavailable when the JWKS cannot be reached', async () => {
    const down = await startGoogleIssuer();
    const credential = await down.signIdToken();
    await down.close();
    const error = await expectReason(
      verifyGoogleCredential(credential, { ...options, clientId: down.clientId, jwksUrl: down.jwksUrl }),
      'unavailable',
    );
    expect(error.provider).toBe('google');
  });

  it('reports unavailable when the JWKS does not answer in time', async () => {
    const silent = await startSilentServer();
    try {
      const credential = await google.signIdToken();
      await expectReason(verifyGoogleCredential(credential, { ...options, jwksUrl: `${silent.url}/certs`, timeoutMs: 200 }), 'unavailable');
    } finally {
      await silent.close();
    }
  });

  it('uses the given fetch implementation', async () => {
    const seen: string[] = [];
    const fetchImpl: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const credential = await google.signIdToken();
    await verifyGoogleCredential(credential, { ...options, fetchImpl });
    expect(seen).toEqual([google.jwksUrl]);
  });

  it('refuses to work unconfigured', async () => {
    await expectReason(verifyGoogleCredential(await google.signIdToken(), { ...options, clientId: '' }), 'not_configured');
  });
});

describe('verifyFacebookToken', () => {
  const app = { appId: '246810121416', appSecret: 'f4c3b00k-app-secret' };
  let graph: FacebookGraph;
  let options: FacebookVerifyOptions;

  beforeAll(async () => {
    graph = await startFacebookGraph(app);
    options = { ...app, graphUrl: graph.graphUrl };
  });

  afterAll(async () => {
    await graph?.close();
  });

  it('returns the profile of a valid token', async () => {
    const token = graph.issueToken({ userId: '10220000000000001', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' });
    await expect(verifyFacebookToken(token, '10220000000000001', options)).resolves.toEqual({
      provider: 'facebook',
      subject: '10220000000000001',
      email: 'grace@example.com',
      emailVerified: true,
      firstName: 'Grace',
      lastName: 'Hopper',
      pictureUrl: `${graph.graphUrl}/10220000000000001/picture`,
    });
  });

  it('returns no email when the player did not share one', async () => {
    const token = graph.issueToken({ userId: '10220000000000002', email: null, firstName: 'Alan', lastName: 'Turing' });
    await expect(verifyFacebookToken(token, '10220000000000002', options)).resolves.toMatchObject({ email: null, emailVerified: false });
  });

  it('rejects a token Graph does not know', async () => {
    await expectReason(verifyFacebookToken('EAAnot-a-real-token', '10220000000000001', options), 'invalid_token');
    await expectReason(verifyFacebookToken('', '10220000000000001', options), 'invalid_token');
  });

  it('rejects a token issued to another app', async () => {
    const token = graph.issueToken({ userId: '10220000000000003', firstName: 'Eve', lastName: 'X', appId: '999999999' });
    await expectReason(verifyFacebookToken(token, '10220000000000003', options), 'wrong_app');
  });

  it('rejects a token of another user than the one claimed', async () => {
    const token = graph.issueToken({ userId: '10220000000000004', firstName: 'Mallory', lastName: 'Y' });
    await expectReason(verifyFacebookToken(token, '10220000000000001', options), 'user_mismatch');
    await expectReason(verifyFacebookToken(token, '', options), 'user_mismatch');
  });

  it('rejects an expired token', async () => {
    const token = graph.issueToken({ userId: '10220000000000005', firstName: 'Old', lastName: 'Token', expired: true });
    await expectReason(verifyFacebookToken(token, '10220000000000005', options), 'expired');
  });

  it('reports misconfigured when Graph refuses the app secret', async () => {
    const token = graph.issueToken({ userId: '10220000000000006', firstName: 'A', lastName: 'B' });
    await expectReason(verifyFacebookToken(token, '10220000000000006', { ...options, appSecret: 'wrong-secret' }), 'misconfigured');
  });

  it('reports unavailable when Graph is down', async () => {
    const down = await startFacebookGraph(app);
    const token = down.issueToken({ userId: '10220000000000007', firstName: 'A', lastName: 'B' });
    await down.close();
    const error = await expectReason(verifyFacebookToken(token, '10220000000000007', { ...options, graphUrl: down.graphUrl }), 'unavailable');
    expect(error.provider).toBe('facebook');
  });

  it('reports unavailable when Graph does not answer in time', async () => {
    const silent = await startSilentServer();
    try {
      await expectReason(verifyFacebookToken('EAAtoken', '1', { ...options, graphUrl: silent.url, timeoutMs: 200 }), 'unavailable');
    } finally {
      await silent.close();
    }
  });

  it('reports unavailable when Graph fails on its side', async () => {
    const fetchImpl: typeof fetch = async () => new Response('{"error":{"message":"Service temporarily unavailable","code":2}}', { status: 503 });
    await expectReason(verifyFacebookToken('EAAtoken', '1', { ...options, fetchImpl }), 'unavailable');
  });

  it('sends the app access token to debug_token and appsecret_proof to /me', async () => {
    const urls: URL[] = [];
    const fetchImpl: typeof fetch = (input, init) => {
      urls.push(new URL(String(input)));
      return fetch(input, init);
    };
    const token = graph.issueToken({ userId: '10220000000000008', firstName: 'A', lastName: 'B' });
    await verifyFacebookToken(token, '10220000000000008', { ...options, fetchImpl });
    expect(urls.map((url) => url.pathname)).toEqual(['/debug_token', '/me']);
    expect(urls[0]?.searchParams.get('access_token')).toBe(`${app.appId}|${app.appSecret}`);
    expect(urls[0]?.searchParams.get('input_token')).toBe(token);
    expect(urls[1]?.searchParams.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses to work unconfigured', async () => {
    await expectReason(verifyFacebookToken('EAAtoken', '1', { ...options, appSecret: '' }), 'not_configured');
  });
});
