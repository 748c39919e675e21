/**
 * The random numbers of the house games (docs/fairness.md, "Random numbers").
 *
 * A player has a seed pair: the server's secret seed (its SHA-256 shown before any bet, the seed itself
 * revealed when the player rotates it), a client seed the player chooses, and a nonce counting the pair's
 * bets from 0. Bet number `nonce` reads its numbers from HMAC-SHA256(key = server seed as ASCII,
 * message = `${clientSeed}:${nonce}:${cursor}`) for cursor = 0, 1, 2, …: each 32-byte digest gives eight
 * unsigned 32-bit big-endian integers N, each standing for N / 2^32.
 *
 * Web Crypto (globalThis.crypto.subtle), so the server (Node 20) and the browser run the same code.
 */

export interface SeedPair {
  /** 64 lowercase hex characters (32 random bytes). */
  serverSeed: string;
  /** Chosen by the player: see {@link isClientSeed}. */
  clientSeed: string;
  /** The pair's bet counter, from 0. */
  nonce: number;
}

/** 2^32: a number N stands for N / 2^32, in [0, 1). */
export const NUMBER_RANGE = 2 ** 32;
export const NUMBERS_PER_DIGEST = 8;
export const CLIENT_SEED_MAX_LENGTH = 64;

const SERVER_SEED = /^[0-9a-f]{64}$/;
/*
 * Visible ASCII (0x21–0x7E) but ':': the colon separates the HMAC message's parts, and a space or a
 * non-ASCII letter would look the same as another seed on screen (a trailing space, a Cyrillic 'а'), so a
 * player copying a seed to check a bet elsewhere could not tell why the numbers differ.
 */
const CLIENT_SEED = /^[\x21-\x39\x3b-\x7e]{1,64}$/;

export function isServerSeed(s: string): boolean {
  return SERVER_SEED.test(s);
}

/** 1–64 visible ASCII characters (letters, digits, punctuation), no space and no ':'. */
export function isClientSeed(s: string): boolean {
  return CLIENT_SEED.test(s);
}

/** A nonce is a bet counter: an integer from 0 that a double counts exactly. */
export function isNonce(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A new server seed: 32 bytes from the platform's cryptographic generator, as 64 lowercase hex characters. */
export function newServerSeed(): string {
  return hex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex characters (the server seed's hash is sha256Hex(serverSeed)). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(new Uint8Array(digest));
}

/** The eight numbers of one 32-byte digest: its bytes read four at a time, big-endian, unsigned. */
export function numbersOfDigest(digest: Uint8Array): number[] {
  if (digest.length !== 32) throw new RangeError(`An HMAC-SHA256 digest has 32 bytes, got ${digest.length}`);
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  const numbers: number[] = [];
  for (let offset = 0; offset < 32; offset += 4) numbers.push(view.getUint32(offset, false));
  return numbers;
}

/** The HMAC message of one cursor of one bet. */
export function hmacMessage(pair: SeedPair, cursor: number): string {
  return `${pair.clientSeed}:${pair.nonce}:${cursor}`;
}

/**
 * The first `count` numbers of the bet `pair` names, in order across cursors (cursor 0 gives the first
 * eight). Throws a RangeError on a malformed seed pair: a number drawn from a seed the player cannot
 * type back would not be verifiable.
 */
export async function randomIntegers(pair: SeedPair, count: number): Promise<number[]> {
  if (!isServerSeed(pair.serverSeed)) throw new RangeError('The server seed is not 64 lowercase hex characters');
  if (!isClientSeed(pair.clientSeed)) throw new RangeError('The client seed is not 1–64 visible ASCII characters without ":"');
  if (!isNonce(pair.nonce)) throw new RangeError('The nonce is not a non-negative integer');
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(pair.serverSeed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const numbers: number[] = [];
  for (let cursor = 0; numbers.length < count; cursor += 1) {
    const digest = await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(hmacMessage(pair, cursor)));
    numbers.push(...numbersOfDigest(new Uint8Array(digest)));
  }
  return numbers.slice(0, count);
}
