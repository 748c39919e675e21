import { createHash } from 'node:crypto';

/*
 * Crypto addresses by network: each network's own format, checksum included, so a mistyped address never
 * leaves the casino. Shared by the withdrawals (which check the player's address) and the payment
 * simulator (which makes addresses of its own), neither of which owns them.
 */

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
/** BIP-173 (witness version 0) and BIP-350 (versions 1 to 16) checksum constants. */
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function bech32Polymod(values: readonly number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) checksum ^= BECH32_GENERATOR[i] ?? 0;
  }
  return checksum >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  return [...codes.map((c) => c >>> 5), 0, ...codes.map((c) => c & 31)];
}

/** Regroups bits (8 → 5 to encode, 5 → 8 to decode); null when the padding is not what BIP-173 allows. */
function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & max);
    }
    acc &= (1 << bits) - 1;
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max);
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) {
    return null;
  }
  return out;
}

/** A segwit address (bech32 for version 0, bech32m above), e.g. `ltc1q...`. */
export function segwitAddress(hrp: string, version: number, program: Uint8Array): string {
  const words = convertBits([...program], 8, 5, true) ?? [];
  const data = [version, ...words];
  const polymod = bech32Polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ (version === 0 ? BECH32_CONST : BECH32M_CONST);
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32_CHARSET[d]).join('')}`;
}

function isSegwitAddress(hrp: string, address: string): boolean {
  if (address.length > 90 || (address !== address.toLowerCase() && address !== address.toUpperCase())) return false;
  const lower = address.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (lower.slice(0, separator) !== hrp) return false;
  const data = [...lower.slice(separator + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (data.length < 7 || data.includes(-1)) return false;
  const version = data[0] ?? -1;
  if (version > 16) return false;
  const constant = bech32Polymod([...hrpExpand(hrp), ...data]);
  if (constant !== (version === 0 ? BECH32_CONST : BECH32M_CONST)) return false;
  const program = convertBits(data.slice(1, -6), 5, 8, false);
  if (!program || program.length < 2 || program.length > 40) return false;
  return version !== 0 || program.length === 20 || program.length === 32;
}

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/** A base58check address: a version byte, the payload and 4 bytes of double SHA-256. */
export function base58CheckAddress(version: number, payload: Uint8Array): string {
  const body = Buffer.concat([Buffer.from([version]), Buffer.from(payload)]);
  const bytes = Buffer.concat([body, doubleSha256(body).subarray(0, 4)]);
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE58_ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** The version byte of a valid base58check address with a 20-byte payload; null when it is not one. */
function base58CheckVersion(address: string): number | null {
  if (address.length < 26 || address.length > 36) return null;
  let value = 0n;
  for (const c of address) {
    const digit = BASE58_ALPHABET.indexOf(c);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = address.length - address.replace(/^1+/, '').length;
  const bytes = Buffer.concat([Buffer.alloc(zeros), body]);
  if (bytes.length !== 25) return null;
  const checksum = doubleSha256(bytes.subarray(0, 21)).subarray(0, 4);
  return checksum.equals(bytes.subarray(21)) ? (bytes[0] ?? null) : null;
}

interface NetworkFormat {
  /** Segwit human-readable part, if the network has segwit addresses. */
  hrp?: string;
  /** Version bytes of its base58check addresses. */
  base58Versions?: readonly number[];
  /** Any other shape (Ethereum's hex addresses). */
  pattern?: RegExp;
}

/** By the currencies table's `network`. A network missing here has no payouts: its addresses all fail. */
const NETWORK_FORMATS: Record<string, NetworkFormat> = {
  // P2PKH L (0x30), P2SH M (0x32) and the older 3 (0x05) still in use, and ltc1 segwit.
  Litecoin: { hrp: 'ltc', base58Versions: [0x30, 0x32, 0x05] },
  Bitcoin: { hrp: 'bc', base58Versions: [0x00, 0x05] },
  // Mixed-case EIP-55 checksums need Keccak-256, which Node's crypto lacks: the shape alone is checked.
  Ethereum: { pattern: /^0x[0-9a-fA-F]{40}$/ },
  'Tron TRC20': { base58Versions: [0x41] },
};

/** The address is well formed for the network, checksum included. */
export function isValidAddress(network: string, address: string): boolean {
  const format = NETWORK_FORMATS[network];
  if (!format) return false;
  if (format.pattern?.test(address)) return true;
  if (format.hrp && isSegwitAddress(format.hrp, address)) return true;
  const version = format.base58Versions ? base58CheckVersion(address) : null;
  return version !== null && (format.base58Versions?.includes(version) ?? false);
}
