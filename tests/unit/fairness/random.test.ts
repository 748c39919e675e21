import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClientSeed, isServerSeed, newServerSeed, numbersOfDigest, randomIntegers, sha256Hex } from '../../../src/fairness/random.ts';
import { hmacNumbers, PAIR, sha256 } from './vectors.ts';

describe('the random numbers', () => {
  it('are the HMAC-SHA256 digests of clientSeed:nonce:cursor keyed by the server seed, eight big-endian uint32 each', async () => {
    const expected = hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, PAIR.nonce, 20);
    expect(await randomIntegers(PAIR, 20)).toEqual(expected);
    // Pinned from `printf 'lucky-player_42:7:0' | openssl dgst -sha256 -hmac <server seed>`, a third implementation.
    expect(expected.slice(0, 3)).toEqual([620919225, 1190448068, 1165305317]);
  });

  it('continue across cursors and do not depend on how many are asked for', async () => {
    const many = await randomIntegers(PAIR, 17);
    expect(await randomIntegers(PAIR, 9)).toEqual(many.slice(0, 9));
    expect(await randomIntegers(PAIR, 0)).toEqual([]);
    expect(await randomIntegers({ ...PAIR, nonce: 8 }, 1)).toEqual(hmacNumbers(PAIR.serverSeed, PAIR.clientSeed, 8, 1));
  });

  it('match node:crypto for any seed pair', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.stringMatching(/^[!-9;-~]{1,64}$/),
        fc.nat({ max: 1_000_000 }),
        async (bytes, clientSeed, nonce) => {
          const serverSeed = Buffer.from(bytes).toString('hex');
          expect(await randomIntegers({ serverSeed, clientSeed, nonce }, 10)).toEqual(hmacNumbers(serverSeed, clientSeed, nonce, 10));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('read a digest big-endian', () => {
    const digest = new Uint8Array(32);
    digest.set([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x80, 0, 0, 0]);
    expect(numbersOfDigest(digest).slice(0, 4)).toEqual([2 ** 32 - 1, 1, 2 ** 31, 0]);
    expect(() => numbersOfDigest(new Uint8Array(31))).toThrow(RangeError);
  });

  it('refuse a seed pair that could not be typed back', async () => {
    await expect(randomIntegers({ ...PAIR, serverSeed: PAIR.serverSeed.toUpperCase() }, 1)).rejects.toThrow(RangeError);
    await expect(randomIntegers({ ...PAIR, clientSeed: 'a:b' }, 1)).rejects.toThrow(RangeError);
    await expect(randomIntegers({ ...PAIR, nonce: -1 }, 1)).rejects.toThrow(RangeError);
    await expect(randomIntegers({ ...PAIR, nonce: 1.5 }, 1)).rejects.toThrow(RangeError);
  });
});

describe('seeds', () => {
  it('a new server seed is 64 lowercase hex characters, a different one each time', () => {
    const seeds = new Set(Array.from({ length: 100 }, newServerSeed));
    expect(seeds.size).toBe(100);
    for (const seed of seeds) expect(isServerSeed(seed)).toBe(true);
  });

  it('the server seed hash is SHA-256 of its 64 characters as text', async () => {
    expect(await sha256Hex(PAIR.serverSeed)).toBe(sha256(PAIR.serverSeed));
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('a server seed is exactly 64 lowercase hex characters', () => {
    expect(isServerSeed('0'.repeat(64))).toBe(true);
    expect(isServerSeed('0'.repeat(63))).toBe(false);
    expect(isServerSeed('0'.repeat(65))).toBe(false);
    expect(isServerSeed('A'.repeat(64))).toBe(false);
    expect(isServerSeed('g'.repeat(64))).toBe(false);
  });

  it('a client seed is 1–64 visible ASCII characters without ":"', () => {
    for (const ok of ['a', 'x'.repeat(64), 'Lucky_7!', '~{}[]@#$%^&*()-+=/\\|?<>,.;\'"`']) expect(isClientSeed(ok), ok).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'a:b', 'two words', ' lead', 'trail ', 'tab\t', 'ñ', 'а', '🎲', 'line\n']) expect(isClientSeed(bad), bad).toBe(false);
  });
});
