/**
 * The video slot (docs/fairness.md, "Slot"): 5 reels, 3 rows, paylines, a paytable, no wilds.
 *
 * A spin takes five numbers, one per reel: reel r stops at floor(N_r × length_r / 2^32), the strip
 * position shown on the top row; the rows below show the next positions (wrapping round). Every strip's
 * length is a power of two, so every stop has exactly the same chance, and the return is an exact
 * fraction. A payline names a row per reel; it wins when the symbol on reel 1 repeats on reels 2, 3, …
 * without a break, three times or more; the paytable gives the pay in hundredths of the line bet.
 * The bet is spread evenly over the paylines, so a spin's multiplier is Σ pays / (100 × lines).
 *
 * Each slot title of the catalogue gets a skin of its own from {@link slotSkin}: a theme's symbols, the
 * strips, the paylines and a paytable tuned to the title's declared return.
 */
import { NUMBER_RANGE } from './random.ts';
import { ratio, type Ratio } from './ratio.ts';

export const SLOT_REELS = 5;
export const SLOT_ROWS = 3;
/** The counts that pay: index 0 of a paytable row is three of a kind, 1 four, 2 five. */
export const SLOT_MIN_COUNT = 3;

export interface SlotSymbol {
  /** A stable name for logs and tests: 'cherry'. */
  key: string;
  /** What the reel shows: an emoji. */
  glyph: string;
}

export interface SlotSkin {
  theme: string;
  symbols: SlotSymbol[];
  /** Five strips of symbol indexes; each length a power of two. */
  reels: number[][];
  /** Per payline, the row (0 top to 2 bottom) it crosses on each of the five reels. */
  paylines: number[][];
  /** Per symbol: the pay for 3, 4 and 5 of a kind, in hundredths of the line bet. */
  paytable: number[][];
}

export interface SlotParams {
  skin: SlotSkin;
}

export interface SlotLineWin {
  /** Index into the skin's paylines. */
  line: number;
  symbol: number;
  /** 3 to 5 reels from reel 1. */
  count: number;
  /** This line's part of the spin's multiplier: paytable pay / (100 × lines). */
  pay: Ratio;
}

export interface SlotOutcome {
  /** Per reel, the strip position on the top row. */
  stops: number[];
  /** grid[row][reel]: 3 rows × 5 reels of symbol indexes. */
  grid: number[][];
  lines: SlotLineWin[];
  /** Σ line pays, paid on the whole bet: floor(bet × Σ pays / (100 × lines)). */
  multiplier: Ratio;
}

export type SlotParamsError = 'slot.skin';

/*
 * Twenty paylines; a skin plays the first 10 or all 20. The first five are the classic rows and V shapes,
 * then zigzags. No two are the same.
 */
export const SLOT_PAYLINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [1, 0, 1, 2, 1],
  [1, 2, 1, 0, 1],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 2, 0, 2, 0],
  [2, 0, 2, 0, 2],
  [0, 2, 2, 2, 0],
];

const isPowerOfTwo = (n: number): boolean => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
const MAX_STRIP_LENGTH = 1 << 16;
const MAX_SYMBOLS = 32;

/** Whether a skin can be played and its return computed exactly; the one code covers every defect. */
export function slotParamsError(params: SlotParams): SlotParamsError | null {
  const { skin } = params;
  const symbolCount = skin.symbols.length;
  const symbolsOk =
    symbolCount >= 1 && symbolCount <= MAX_SYMBOLS && skin.symbols.every((s) => typeof s.key === 'string' && s.key !== '' && typeof s.glyph === 'string' && s.glyph !== '');
  const reelsOk =
    skin.reels.length === SLOT_REELS &&
    skin.reels.every(
      (strip) => isPowerOfTwo(strip.length) && strip.length >= SLOT_ROWS && strip.length <= MAX_STRIP_LENGTH && strip.every((s) => Number.isInteger(s) && s >= 0 && s < symbolCount),
    );
  const paylinesOk =
    skin.paylines.length >= 1 &&
    skin.paylines.length <= 100 &&
    skin.paylines.every((line) => line.length === SLOT_REELS && line.every((row) => Number.isInteger(row) && row >= 0 && row < SLOT_ROWS));
  const paytableOk =
    skin.paytable.length === symbolCount &&
    skin.paytable.every((pays) => pays.length === SLOT_REELS - SLOT_MIN_COUNT + 1 && pays.every((pay) => Number.isSafeInteger(pay) && pay >= 0));
  return symbolsOk && reelsOk && paylinesOk && paytableOk ? null : 'slot.skin';
}

export function numbersNeeded(_params: SlotParams): number {
  return SLOT_REELS;
}

/** floor(N × length / 2^32): with a power-of-two length, the top bits of N, each stop equally likely. */
export function slotStop(n: number, stripLength: number): number {
  return Math.floor((n * stripLength) / NUMBER_RANGE);
}

function symbolAt(strip: number[], position: number): number {
  return strip[position % strip.length] ?? 0;
}

export function slotOutcome(numbers: number[], params: SlotParams): SlotOutcome {
  const { skin } = params;
  if (numbers.length < SLOT_REELS) throw new RangeError(`A spin needs ${SLOT_REELS} numbers`);
  const stops = skin.reels.map((strip, reel) => slotStop(numbers[reel] ?? 0, strip.length));
  const grid = Array.from({ length: SLOT_ROWS }, (_, row) => skin.reels.map((strip, reel) => symbolAt(strip, (stops[reel] ?? 0) + row)));
  const lineCount = BigInt(skin.paylines.length);
  const lines: SlotLineWin[] = [];
  let total = 0n;
  skin.paylines.forEach((rows, line) => {
    const onLine = rows.map((row, reel) => grid[row]?.[reel] ?? 0);
    const symbol = onLine[0] ?? 0;
    let count = 1;
    while (count < SLOT_REELS && onLine[count] === symbol) count += 1;
    const pay = count >= SLOT_MIN_COUNT ? (skin.paytable[symbol]?.[count - SLOT_MIN_COUNT] ?? 0) : 0;
    if (pay > 0) {
      lines.push({ line, symbol, count, pay: ratio(pay, 100n * lineCount) });
      total += BigInt(pay);
    }
  });
  return { stops, grid, lines, multiplier: ratio(total, 100n * lineCount) };
}

/**
 * Per symbol, in how many of the Π length_r equally likely stop combinations a given payline shows
 * exactly 3, 4 and 5 of it from reel 1. A payline reads one position per reel and every position of a
 * strip is equally likely whatever the row, so the count is the same for every payline:
 * exactly c of s = (Π_{r<c} count_r(s)) × (length_c − count_c(s)) × Π_{r>c} length_r, c < 5.
 */
function winningCombinations(skin: SlotSkin): bigint[][] {
  const lengths = skin.reels.map((strip) => BigInt(strip.length));
  return skin.symbols.map((_, symbol) => {
    const onReel = skin.reels.map((strip) => BigInt(strip.filter((s) => s === symbol).length));
    return [3, 4, 5].map((count) => {
      let combinations = 1n;
      for (let reel = 0; reel < SLOT_REELS; reel += 1) {
        const here = onReel[reel] ?? 0n;
        const length = lengths[reel] ?? 1n;
        combinations *= reel < count ? here : reel === count ? length - here : length;
      }
      return combinations;
    });
  });
}

function allCombinations(skin: SlotSkin): bigint {
  return skin.reels.reduce((product, strip) => product * BigInt(strip.length), 1n);
}

/** The exact return: every payline's expected pay is the same, so it is one line's, over 100. */
export function slotReturnToPlayer(skin: SlotSkin): Ratio {
  const combinations = winningCombinations(skin);
  let weighted = 0n;
  skin.paytable.forEach((pays, symbol) => {
    pays.forEach((pay, i) => {
      weighted += BigInt(pay) * (combinations[symbol]?.[i] ?? 0n);
    });
  });
  return ratio(weighted, 100n * allCombinations(skin));
}

// The generator of skins.

export const SLOT_THEMES: Readonly<Record<string, readonly SlotSymbol[]>> = {
  fruit: [
    { key: 'cherry', glyph: '🍒' },
    { key: 'lemon', glyph: '🍋' },
    { key: 'orange', glyph: '🍊' },
    { key: 'grapes', glyph: '🍇' },
    { key: 'melon', glyph: '🍉' },
    { key: 'strawberry', glyph: '🍓' },
    { key: 'peach', glyph: '🍑' },
    { key: 'pineapple', glyph: '🍍' },
    { key: 'bell', glyph: '🔔' },
    { key: 'clover', glyph: '🍀' },
  ],
  gems: [
    { key: 'diamond', glyph: '💎' },
    { key: 'ring', glyph: '💍' },
    { key: 'crown', glyph: '👑' },
    { key: 'orb', glyph: '🔮' },
    { key: 'coin', glyph: '🪙' },
    { key: 'moneybag', glyph: '💰' },
    { key: 'trophy', glyph: '🏆' },
    { key: 'key', glyph: '🗝️' },
    { key: 'gem-heart', glyph: '💖' },
    { key: 'medal', glyph: '🏅' },
  ],
  space: [
    { key: 'rocket', glyph: '🚀' },
    { key: 'planet', glyph: '🪐' },
    { key: 'moon', glyph: '🌙' },
    { key: 'star', glyph: '⭐' },
    { key: 'comet', glyph: '☄️' },
    { key: 'alien', glyph: '👽' },
    { key: 'ufo', glyph: '🛸' },
    { key: 'earth', glyph: '🌍' },
    { key: 'satellite', glyph: '🛰️' },
    { key: 'astronaut', glyph: '🧑‍🚀' },
  ],
  ocean: [
    { key: 'fish', glyph: '🐠' },
    { key: 'octopus', glyph: '🐙' },
    { key: 'crab', glyph: '🦀' },
    { key: 'shell', glyph: '🐚' },
    { key: 'dolphin', glyph: '🐬' },
    { key: 'whale', glyph: '🐳' },
    { key: 'shark', glyph: '🦈' },
    { key: 'anchor', glyph: '⚓' },
    { key: 'squid', glyph: '🦑' },
    { key: 'turtle', glyph: '🐢' },
  ],
  ancient: [
    { key: 'amphora', glyph: '🏺' },
    { key: 'temple', glyph: '🏛️' },
    { key: 'scroll', glyph: '📜' },
    { key: 'statue', glyph: '🗿' },
    { key: 'trident', glyph: '🔱' },
    { key: 'serpent', glyph: '🐍' },
    { key: 'eye', glyph: '👁️' },
    { key: 'urn', glyph: '⚱️' },
    { key: 'scorpion', glyph: '🦂' },
    { key: 'lamp', glyph: '🪔' },
  ],
  jungle: [
    { key: 'lion', glyph: '🦁' },
    { key: 'tiger', glyph: '🐯' },
    { key: 'monkey', glyph: '🐒' },
    { key: 'parrot', glyph: '🦜' },
    { key: 'elephant', glyph: '🐘' },
    { key: 'zebra', glyph: '🦓' },
    { key: 'palm', glyph: '🌴' },
    { key: 'banana', glyph: '🍌' },
    { key: 'giraffe', glyph: '🦒' },
    { key: 'frog', glyph: '🐸' },
  ],
  candy: [
    { key: 'lollipop', glyph: '🍭' },
    { key: 'sweet', glyph: '🍬' },
    { key: 'chocolate', glyph: '🍫' },
    { key: 'cupcake', glyph: '🧁' },
    { key: 'donut', glyph: '🍩' },
    { key: 'cookie', glyph: '🍪' },
    { key: 'cake', glyph: '🎂' },
    { key: 'ice-cream', glyph: '🍦' },
    { key: 'pie', glyph: '🥧' },
    { key: 'dango', glyph: '🍡' },
  ],
};

/** Symbols per skin, from the most common (index 0) to the rarest. */
const SKIN_SYMBOLS = 8;
/** Stops per symbol on a 32-stop strip before a skin's own changes: common low symbols, one top symbol. */
const BASE_STOPS = [8, 7, 6, 4, 3, 2, 1, 1];
/** Pays for 3, 4 and 5 of a kind, in line bets, before a skin's own changes and the scaling to its return. */
const BASE_PAYS = [
  [5, 20, 50],
  [5, 25, 75],
  [10, 30, 100],
  [15, 40, 150],
  [20, 50, 200],
  [30, 100, 400],
  [50, 200, 1000],
  [100, 500, 5000],
];
export const SLOT_RTP_MIN = 8_500;
export const SLOT_RTP_MAX = 9_900;

/** mulberry32: a small generator whose integer arithmetic gives the same sequence in every engine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / NUMBER_RANGE;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Neighbours on a strip (round the end too) that show the same symbol: fewer look better on screen. */
function repeats(strip: number[]): number {
  return strip.filter((symbol, i) => symbol === strip[(i + 1) % strip.length]).length;
}

function strip(stops: number[], random: () => number): number[] {
  const symbols = stops.flatMap((count, symbol) => Array.from({ length: count }, () => symbol));
  let best = shuffled(symbols, random);
  for (let attempt = 0; attempt < 30 && repeats(best) > 0; attempt += 1) {
    const next = shuffled(symbols, random);
    if (repeats(next) < repeats(best)) best = next;
  }
  return best;
}

/** The paytable's steps, in hundredths of the line bet: 0.05, 0.1, 0.5 and 1 line bet as pays grow. */
function payStep(pay: number): number {
  return pay < 100 ? 5 : pay < 1000 ? 10 : pay < 10000 ? 50 : 100;
}

/**
 * A slot title's skin, the same for the same seed (taken modulo 2^32) and return: a theme, eight of its
 * symbols in a random order of value, five 32-stop strips, 10 or 20 paylines, and a paytable whose exact
 * return is at most `rtpHundredths` (9650 is 96.50 %) and within a hair of it.
 *
 * The paytable: base pays per symbol, each varied by up to ±20 %, scaled so the return is just under the
 * target, rounded down to the pay steps, then raised one step at a time on whichever cell brings the
 * return closest to the target without passing it (a cell's pay never passes the next count's).
 */
export function slotSkin(seed: number, rtpHundredths: number): SlotSkin {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`A skin's seed is an integer, got ${seed}`);
  if (!Number.isInteger(rtpHundredths) || rtpHundredths < SLOT_RTP_MIN || rtpHundredths > SLOT_RTP_MAX) {
    throw new RangeError(`A skin's return is ${SLOT_RTP_MIN} to ${SLOT_RTP_MAX} hundredths of a percent, got ${rtpHundredths}`);
  }
  const random = generator(seed);
  const int = (below: number): number => Math.floor(random() * below);

  const themes = Object.keys(SLOT_THEMES);
  const theme = themes[int(themes.length)] ?? 'fruit';
  const symbols = shuffled(SLOT_THEMES[theme] ?? [], random)
    .slice(0, SKIN_SYMBOLS)
    .map((symbol) => ({ ...symbol }));

  const reels = Array.from({ length: SLOT_REELS }, () => {
    const stops = [...BASE_STOPS];
    // Three stops move between the seven lower symbols, so reels and skins differ; the top one stays single.
    for (let move = 0; move < 3; move += 1) {
      const from = int(SKIN_SYMBOLS - 1);
      const to = int(SKIN_SYMBOLS - 1);
      if ((stops[from] ?? 0) > 1) {
        stops[from] = (stops[from] ?? 0) - 1;
        stops[to] = (stops[to] ?? 0) + 1;
      }
    }
    return strip(stops, random);
  });
  const paylines = SLOT_PAYLINES.slice(0, random() < 0.5 ? 10 : 20).map((line) => [...line]);

  const skin: SlotSkin = { theme, symbols, reels, paylines, paytable: [] };
  const combinations = winningCombinations(skin);
  // return = Σ pay × combinations / (100 × all) ≤ rtpHundredths / 10000, kept in integers:
  // Σ pay × combinations × 100 ≤ rtpHundredths × all. Only +, ×, / and floor on doubles below, which
  // every engine rounds alike, so a seed gives the same skin everywhere.
  const budget = BigInt(rtpHundredths) * allCombinations(skin);
  const weightedOf = (paytable: number[][]): bigint =>
    paytable.reduce((sum, pays, symbol) => pays.reduce((inner, pay, i) => inner + BigInt(pay) * (combinations[symbol]?.[i] ?? 0n), sum), 0n) * 100n;

  const base = BASE_PAYS.map((pays) => {
    const varied = 0.8 + 0.4 * random();
    return pays.map((linebets) => linebets * 100 * varied);
  });
  const baseReturn = Number(weightedOf(base.map((pays) => pays.map(Math.round)))) / Number(budget);
  const scale = 0.999 / baseReturn;
  const paytable = base.map((pays) =>
    pays.map((pay) => {
      const scaled = pay * scale;
      const step = payStep(scaled);
      return Math.max(step, Math.floor(scaled / step) * step);
    }),
  );
  let weighted = weightedOf(paytable);
  // The floors keep it under; should a tiny table overshoot, take steps back from the rarest pays first.
  for (let symbol = SKIN_SYMBOLS - 1; weighted > budget && symbol >= 0; symbol -= 1) {
    const pays = paytable[symbol] ?? [];
    for (let i = 2; weighted > budget && i >= 0; i -= 1) {
      while (weighted > budget && (pays[i] ?? 0) > payStep(pays[i] ?? 0)) {
        pays[i] = (pays[i] ?? 0) - payStep(pays[i] ?? 0);
        weighted = weightedOf(paytable);
      }
    }
  }
  for (;;) {
    let best: { pays: number[]; i: number; added: bigint } | null = null;
    for (const [symbol, pays] of paytable.entries()) {
      for (const [i, pay] of pays.entries()) {
        if (i < 2 && pay + payStep(pay) > (pays[i + 1] ?? 0)) continue;
        const added = BigInt(payStep(pay)) * (combinations[symbol]?.[i] ?? 0n) * 100n;
        if (weighted + added <= budget && (best === null || added > best.added)) best = { pays, i, added };
      }
    }
    if (best === null) break;
    best.pays[best.i] = (best.pays[best.i] ?? 0) + payStep(best.pays[best.i] ?? 0);
    weighted += best.added;
  }
  return { ...skin, paytable };
}

/** The skin of a slot with no catalogue entry of its own (a demo, the /fairness page's example): 96.50 %. */
export const DEFAULT_SLOT_SKIN: SlotSkin = slotSkin(1, 9650);
