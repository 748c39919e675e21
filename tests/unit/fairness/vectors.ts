import { createHash, createHmac } from 'node:crypto';

/*
 * An independent implementation of the number stream (node:crypto instead of Web Crypto, Buffer reads
 * instead of DataView), so a mistake in src/fairness/random.ts makes the vectors disagree.
 */

export const PAIR = {
  serverSeed: '3f1c9a7e5b2d4f60a8e1c3b5d7f90246813579bdf02468ace13579bdf0246813',
  clientSeed: 'lucky-player_42',
  nonce: 7,
};

export function hmacNumbers(serverSeed: string, clientSeed: string, nonce: number, count: number): number[] {
  const numbers: number[] = [];
  for (let cursor = 0; numbers.length < count; cursor += 1) {
    const digest = createHmac('sha256', Buffer.from(serverSeed, 'ascii')).update(`${clientSeed}:${nonce}:${cursor}`).digest();
    for (let i = 0; i < 32; i += 4) numbers.push(digest.readUInt32BE(i));
  }
  return numbers.slice(0, count);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export const TWO_32 = 2n ** 32n;

/** A ratio's value as a decimal string with `digits` decimals, truncated, computed here from its fields. */
export function percent(num: bigint, den: bigint, digits: number): string {
  const scaled = (num * 100n * 10n ** BigInt(digits)) / den;
  const text = scaled.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
