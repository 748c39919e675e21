import { createHmac } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type RemoteJWKSet } from 'jose';

/** Who a social sign-in says the player is. The email is only given when the provider vouches for it. */
export interface SocialProfile {
  provider: 'google' | 'facebook';
  /** The provider's stable id for the account: Google's `sub`, Facebook's app-scoped user id. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  pictureUrl: string | null;
}

export type SocialLoginReason =
  /** The provider is not configured on this server (no client id, app id or secret). */
  | 'not_configured'
  /** Not a token at all, or the provider answered with something we cannot read. */
  | 'malformed'
  /** Google: signed with an algorithm other than RS256. */
  | 'unsupported_algorithm'
  /** Google: the token names a key the JWKS does not hold. */
  | 'unknown_key'
  /** Google: the signature does not match the key. */
  | 'bad_signature'
  | 'expired'
  | 'wrong_issuer'
  /** Google: issued to another client id. */
  | 'wrong_audience'
  /** Google: a required claim is missing or another claim (nbf, sub, azp) fails its check. */
  | 'invalid_claims'
  /** Facebook: the token is not (or no longer) valid. */
  | 'invalid_token'
  /** Facebook: the token was issued to another app. */
  | 'wrong_app'
  /** Facebook: the token belongs to another user than the one the client claimed. */
  | 'user_mismatch'
  /** Facebook: Graph refused our app credentials (wrong app id or secret). */
  | 'misconfigured'
  /** The provider could not be reached in time, or failed on its side. */
  | 'unavailable';

export class SocialLoginError extends Error {
  override readonly name = 'SocialLoginError';
  constructor(
    readonly provider: SocialProfile['provider'],
    readonly reason: SocialLoginReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const defaultTimeoutMs = 5_000;

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

// ---------------------------------------------------------------------------------------------------------
// Google

export interface GoogleVerifyOptions {
  clientId: string;
  jwksUrl: string;
  issuers: string[];
  fetchImpl?: typeof fetch;
  /** For the JWKS request; 5 s unless given. */
  timeoutMs?: number;
}

// One key set per JWKS address (and fetch implementation): jose keeps the keys for ten minutes and refetches
// when a token names a key it has not seen, so Google's key rotation needs nothing from us.
const jwksByUrl = new Map<string, RemoteJWKSet>();
const jwksByFetch = new WeakMap<typeof fetch, Map<string, RemoteJWKSet>>();

function remoteJwks(jwksUrl: string, timeoutMs: number, fetchImpl: typeof fetch | undefined): RemoteJWKSet {
  let cache = jwksByUrl;
  if (fetchImpl) {
    cache = jwksByFetch.get(fetchImpl) ?? new Map();
    jwksByFetch.set(fetchImpl, cache);
  }
  const key = `${timeoutMs} ${jwksUrl}`;
  let jwks = cache.get(key);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(jwksUrl), {
      timeoutDuration: timeoutMs,
      ...(fetchImpl ? { [customFetch]: fetchImpl } : {}),
    });
    cache.set(key, jwks);
  }
  return jwks;
}

function googleFailure(reason: SocialLoginReason, message: string, cause?: unknown): SocialLoginError {
  return new SocialLoginError('google', reason, message, cause === undefined ? undefined : { cause });
}

function classifyGoogleError(error: unknown): SocialLoginError {
  if (error instanceof SocialLoginError) return error;
  if (error instanceof errors.JWTExpired) return googleFailure('expired', 'Google credential has expired', error);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return googleFailure('wrong_issuer', 'Google credential has an unexpected issuer', error);
    if (error.claim === 'aud') return googleFailure('wrong_audience', 'Google credential was issued to another client', error);
    return googleFailure('invalid_claims', `Google credential claim "${error.claim}" failed: ${error.reason}`, error);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return googleFailure('bad_signature', 'Google credential signature is invalid', error);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return googleFailure('unknown_key', 'Google credential is signed with an unknown key', error);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return googleFailure('unsupported_algorithm', 'Google credential uses an unsupported algorithm', error);
  if (error instanceof errors.JOSEError) return googleFailure('malformed', 'Google credential is malformed', error);
  return googleFailure('malformed', 'Google credential could not be verified', error);
}

function audienceList(aud: JWTPayload['aud']): string[] {
  if (aud === undefined) return [];
  return Array.isArray(aud) ? aud : [aud];
}

/**
 * Verifies a Google Identity Services credential (an ID token): RS256 signature against Google's JWKS,
 * issuer, audience equal to our client id, expiry. Throws SocialLoginError on any failure.
 */
export async function verifyGoogleCredential(credential: string, options: GoogleVerifyOptions): Promise<SocialProfile> {
  if (!options.clientId || !options.jwksUrl || options.issuers.length === 0) {
    throw googleFailure('not_configured', 'Google sign-in is not configured');
  }
  // A JWT is three base64url parts; anything else (or something absurdly large) is not worth a key lookup.
  if (typeof credential !== 'string' || credential.length > 16_384 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(credential)) {
    throw googleFailure('malformed', 'Google credential is not a JWT');
  }
  const jwks = remoteJwks(options.jwksUrl, options.timeoutMs ?? defaultTimeoutMs, options.fetchImpl);
  // Only lookup failures of the key set itself mean "Google is unreachable"; an unknown key is the token's fault.
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw googleFailure('unavailable', 'Google signing keys could not be fetched', error);
    }
  };

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(credential, getKey, {
      algorithms: ['RS256'],
      issuer: options.issuers,
      audience: options.clientId,
      requiredClaims: ['iss', 'aud', 'sub', 'exp', 'iat'],
      clockTolerance: 30,
    }));
  } catch (error) {
    throw classifyGoogleError(error);
  }

  const audiences = audienceList(payload.aud);
  // jose accepts a token whose audiences include ours; OIDC asks that a multi-audience token was at least
  // obtained by us (azp), otherwise a token meant for another app could be replayed here.
  if (audiences.length !== 1 && payload.azp !== options.clientId) {
    throw googleFailure('wrong_audience', 'Google credential was issued to several audiences, not to this client');
  }
  const subject = nonEmptyString(payload.sub);
  if (!subject) throw googleFailure('invalid_claims', 'Google credential has no subject');

  const emailVerified = payload.email_verified === true || payload.email_verified === 'true';
  const email = nonEmptyString(payload.email);
  return {
    provider: 'google',
    subject,
    // An address Google has not verified could belong to someone else: never hand it on.
    email: emailVerified ? email : null,
    emailVerified: emailVerified && email !== null,
    firstName: nonEmptyString(payload.given_name),
    lastName: nonEmptyString(payload.family_name),
    pictureUrl: nonEmptyString(payload.picture),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Facebook

export interface FacebookVerifyOptions {
  appId: string;
  appSecret: string;
  /** https://graph.facebook.com, optionally with a version (https://graph.facebook.com/v21.0). */
  graphUrl: string;
  fetchImpl?: typeof fetch;
  /** Per Graph request; 5 s unless given. */
  timeoutMs?: number;
}

function facebookFailure(reason: SocialLoginReason, message: string, cause?: unknown): SocialLoginError {
  return new SocialLoginError('facebook', reason, message, cause === undefined ? undefined : { cause });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface GraphError {
  message: string;
  code: number | null;
  subcode: number | null;
}

function graphError(body: unknown): GraphError | null {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error)) return null;
  return {
    message: typeof error.message === 'string' ? error.message : 'Graph error',
    code: typeof error.code === 'number' ? error.code : null,
    subcode: typeof error.error_subcode === 'number' ? error.error_subcode : typeof error.subcode === 'number' ? error.subcode : null,
  };
}

// Graph's OAuthException code for a bad access token, and its subcode for an expired session.
const invalidAccessTokenCode = 190;
const sessionExpiredSubcode = 463;

async function graphGet(url: URL, options: FacebookVerifyOptions): Promise<{ status: number; body: unknown }> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  let body: unknown;
  try {
    response = await fetchImpl(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? defaultTimeoutMs),
    });
    body = await response.json();
  } catch (error) {
    // Timeouts, refused connections and non-JSON answers (an HTML error page from a proxy) alike.
    throw facebookFailure('unavailable', `Facebook Graph ${url.pathname} did not answer usably`, error);
  }
  if (response.status >= 500) throw facebookFailure('unavailable', `Facebook Graph ${url.pathname} failed with ${response.status}`);
  return { status: response.status, body };
}

function graphEndpoint(graphUrl: string, path: string, params: Record<string, string>): URL {
  const url = new URL(`${graphUrl.replace(/\/+$/, '')}/${path}`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

function tokenFailure(error: GraphError | null, fallback: string): SocialLoginError {
  if (error?.subcode === sessionExpiredSubcode) return facebookFailure('expired', 'Facebook access token has expired');
  return facebookFailure('invalid_token', error?.message ?? fallback);
}

/**
 * Verifies a Facebook user access token the way Graph intends: debug_token with our app access token
 * (valid, issued to our app, for the user the client claims, not expired), then reads the profile with
 * appsecret_proof. Throws SocialLoginError on any failure.
 */
export async function verifyFacebookToken(accessToken: string, userId: string, options: FacebookVerifyOptions): Promise<SocialProfile> {
  if (!options.appId || !options.appSecret || !options.graphUrl) {
    throw facebookFailure('not_configured', 'Facebook sign-in is not configured');
  }
  if (typeof accessToken !== 'string' || accessToken.trim() === '' || accessToken.length > 4_096) {
    throw facebookFailure('invalid_token', 'Facebook access token is missing');
  }
  if (typeof userId !== 'string' || userId.trim() === '' || userId.length > 128) {
    throw facebookFailure('user_mismatch', 'Facebook user id is missing or malformed');
  }

  const debug = await graphGet(
    graphEndpoint(options.graphUrl, 'debug_token', {
      input_token: accessToken,
      access_token: `${options.appId}|${options.appSecret}`,
    }),
    options,
  );
  if (debug.status < 200 || debug.status >= 300) {
    // debug_token only fails outright when our own app access token is refused.
    const error = graphError(debug.body);
    throw facebookFailure('misconfigured', `Facebook rejected the app credentials: ${error?.message ?? debug.status}`);
  }
  const data = isRecord(debug.body) ? debug.body.data : undefined;
  if (!isRecord(data)) throw facebookFailure('malformed', 'Facebook debug_token answered without data');

  const nowSeconds = Math.floor(Date.now() / 1000);
  // 0 means a token that does not expire.
  const expiresAt = typeof data.expires_at === 'number' ? data.expires_at : 0;
  const expired = expiresAt !== 0 && expiresAt <= nowSeconds;
  if (data.is_valid !== true) {
    if (expired) throw facebookFailure('expired', 'Facebook access token has expired');
    throw tokenFailure(graphError(data), 'Facebook access token is not valid');
  }
  if (String(data.app_id ?? '') !== options.appId) throw facebookFailure('wrong_app', 'Facebook access token was issued to another app');
  if (String(data.user_id ?? '') !== userId) throw facebookFailure('user_mismatch', 'Facebook access token belongs to another user');
  if (expired) throw facebookFailure('expired', 'Facebook access token has expired');

  const me = await graphGet(
    graphEndpoint(options.graphUrl, 'me', {
      fields: 'id,email,first_name,last_name,picture',
      access_token: accessToken,
      appsecret_proof: createHmac('sha256', options.appSecret).update(accessToken).digest('hex'),
    }),
    options,
  );
  if (me.status < 200 || me.status >= 300) {
    const error = graphError(me.body);
    if (error?.code === invalidAccessTokenCode || me.status === 401) throw tokenFailure(error, 'Facebook access token is not valid');
    throw facebookFailure('misconfigured', `Facebook refused the profile request: ${error?.message ?? me.status}`);
  }
  if (!isRecord(me.body)) throw facebookFailure('malformed', 'Facebook profile answer is not an object');
  if (String(me.body.id ?? '') !== userId) throw facebookFailure('user_mismatch', 'Facebook profile belongs to another user');

  const picture = isRecord(me.body.picture) && isRecord(me.body.picture.data) ? me.body.picture.data : undefined;
  const email = nonEmptyString(me.body.email);
  return {
    provider: 'facebook',
    subject: userId,
    // Facebook only returns an email it has confirmed with the user.
    email,
    emailVerified: email !== null,
    firstName: nonEmptyString(me.body.first_name),
    lastName: nonEmptyString(me.body.last_name),
    pictureUrl: picture && picture.is_silhouette !== true ? nonEmptyString(picture.url) : null,
  };
}
