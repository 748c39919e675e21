import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature scheme of the calls other systems make to this server with a shared key: the payment
 * simulator's webhooks and the game providers' wallet calls. Hex HMAC-SHA256 of the raw body, compared in
 * constant time.
 */
export function hmacSha256Hex(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** Whether `received` is the hex HMAC-SHA256 of `rawBody` under `secret`; anything malformed is not. */
export function hmacSha256HexMatches(secret: string, rawBody: string, received: string | string[] | undefined): boolean {
  if (typeof received !== 'string' || !/^[0-9a-fA-F]{64}$/.test(received)) return false;
  return timingSafeEqual(Buffer.from(received, 'hex'), Buffer.from(hmacSha256Hex(secret, rawBody), 'hex'));
}
