/**
 * Plays the house games through their outcome functions (src/fairness) and compares the return each
 * configuration pays with the return the library computes exactly:
 *
 *   npm run rtp                          every game, 200,000 rounds per configuration (about a minute)
 *   npm run rtp -- --rounds 1000000      more rounds, narrower intervals
 *   npm run rtp -- --games plinko,slot   some games only
 *   npm run rtp -- --seed <64 hex>       a given server seed (a new random one per configuration otherwise)
 *
 * Each configuration gets a fresh seed pair and plays nonces 0, 1, 2, … as a player would. The numbers
 * come from node:crypto's HMAC (faster than Web Crypto's promises over millions of rounds); the script
 * first checks that they equal src/fairness/random.ts's for the same bets. The measured return is the
 * mean multiplier paid per unit bet, with a 95 % interval (mean ± 1.96 × standard deviation / √rounds);
 * about one configuration in twenty is expected to land outside its interval by chance alone.
 * Statistics are doubles here: nothing is paid, and the exact values come from the library as ratios.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { diceOutcome, diceReturnToPlayer, type DiceParams } from '../src/fairness/dice.ts';
import { limboOutcome, limboReturnToPlayer, type LimboParams } from '../src/fairness/limbo.ts';
import { minesMultiplier, minesOutcome, minesReturnToPlayer } from '../src/fairness/mines.ts';
import { PLINKO_RISKS, plinkoOutcome, plinkoReturnToPlayer } from '../src/fairness/plinko.ts';
import { isServerSeed, numbersOfDigest, randomIntegers, type SeedPair } from '../src/fairness/random.ts';
import { ratioToFixed, type Ratio } from '../src/fairness/ratio.ts';
import { DEFAULT_SLOT_SKIN, slotOutcome, slotReturnToPlayer, slotSkin, type SlotSkin } from '../src/fairness/slot.ts';
import type { HouseGame } from '../src/fairness/games.ts';

interface Options {
  rounds: number;
  games: HouseGame[];
  seed: string | null;
}

const ALL_GAMES: HouseGame[] = ['dice', 'limbo', 'mines', 'plinko', 'slot'];

function usage(message: string): never {
  console.error(`${message}\nusage: npm run rtp -- [--rounds N] [--games dice,limbo,mines,plinko,slot] [--seed <64 lowercase hex>]`);
  process.exit(2);
}

function parseOptions(args: string[]): Options {
  const options: Options = { rounds: 200_000, games: ALL_GAMES, seed: null };
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--help' || flag === '-h') usage('Plays the house games and prints their measured and exact returns.');
    if (value === undefined) usage(`${flag} needs a value`);
    i += 1;
    if (flag === '--rounds') {
      const rounds = Number(value);
      if (!Number.isSafeInteger(rounds) || rounds < 1) usage('--rounds is a positive integer');
      options.rounds = rounds;
    } else if (flag === '--games') {
      const games = value.split(',');
      const unknown = games.filter((game) => !ALL_GAMES.includes(game as HouseGame));
      if (unknown.length > 0) usage(`unknown game ${unknown.join(', ')}`);
      options.games = games as HouseGame[];
    } else if (flag === '--seed') {
      if (!isServerSeed(value)) usage('--seed is a server seed: 64 lowercase hex characters');
      options.seed = value;
    } else {
      usage(`unknown flag ${flag}`);
    }
  }
  return options;
}

/** The numbers of one bet, as src/fairness/random.ts draws them, through node:crypto. */
function numbersOf(pair: SeedPair, count: number): number[] {
  const numbers: number[] = [];
  for (let cursor = 0; numbers.length < count; cursor += 1) {
    const digest = createHmac('sha256', pair.serverSeed).update(`${pair.clientSeed}:${pair.nonce}:${cursor}`).digest();
    numbers.push(...numbersOfDigest(digest));
  }
  return numbers.length === count ? numbers : numbers.slice(0, count);
}

interface Configuration {
  game: HouseGame;
  name: string;
  /** What the game promises: a label, not a computation. */
  declared: string;
  exact: Ratio;
  count: number;
  /** The multiplier a unit bet is paid for these numbers (0 for a loss). */
  play(numbers: number[]): number;
}

const toNumber = (m: Ratio): number => Number(m.num) / Number(m.den);

function diceConfiguration(params: DiceParams): Configuration {
  return {
    game: 'dice',
    name: `${params.direction} ${ratioToFixed({ num: BigInt(params.target), den: 100n }, 2)}`,
    declared: '99 %',
    exact: diceReturnToPlayer(params),
    count: 1,
    play: (numbers) => {
      const outcome = diceOutcome(numbers, params);
      return outcome.win ? toNumber(outcome.multiplier) : 0;
    },
  };
}

function limboConfiguration(params: LimboParams): Configuration {
  return {
    game: 'limbo',
    name: `target ×${ratioToFixed({ num: BigInt(params.target), den: 100n }, 2)}`,
    declared: '99 %',
    exact: limboReturnToPlayer(params),
    count: 1,
    play: (numbers) => {
      const outcome = limboOutcome(numbers, params);
      return outcome.win ? toNumber(outcome.multiplier) : 0;
    },
  };
}

/** A player who opens tiles 0, 1, 2, … and cashes out after `reveals` safe ones. */
function minesConfiguration(mineCount: number, reveals: number): Configuration {
  const cashOut = toNumber(minesMultiplier(mineCount, reveals));
  return {
    game: 'mines',
    name: `${mineCount} mine${mineCount === 1 ? '' : 's'}, cash out after ${reveals}`,
    declared: '99 %',
    exact: minesReturnToPlayer(mineCount, reveals),
    count: mineCount,
    play: (numbers) => {
      const { mines } = minesOutcome(numbers, { mineCount });
      for (let tile = 0; tile < reveals; tile += 1) if (mines.includes(tile)) return 0;
      return cashOut;
    },
  };
}

function slotConfiguration(label: string, skin: SlotSkin, declaredHundredths: number): Configuration {
  return {
    game: 'slot',
    name: `${label} (${skin.theme}, ${skin.paylines.length} lines)`,
    declared: `${ratioToFixed({ num: BigInt(declaredHundredths), den: 100n }, 2)} %`,
    exact: slotReturnToPlayer(skin),
    count: 5,
    play: (numbers) => toNumber(slotOutcome(numbers, { skin }).multiplier),
  };
}

function configurations(games: HouseGame[]): Configuration[] {
  const all: Configuration[] = [
    ...[
      { target: 100, direction: 'under' } as const,
      { target: 4950, direction: 'under' } as const,
      { target: 5000, direction: 'over' } as const,
      { target: 9800, direction: 'under' } as const,
    ].map(diceConfiguration),
    ...[101, 200, 1000, 10_000, 100_000].map((target) => limboConfiguration({ target })),
    ...[
      [1, 5],
      [3, 3],
      [5, 5],
      [10, 2],
      [24, 1],
    ].map(([mines = 1, reveals = 1]) => minesConfiguration(mines, reveals)),
    ...PLINKO_RISKS.flatMap((risk) =>
      Array.from({ length: 9 }, (_, i): Configuration => {
        const params = { rows: 8 + i, risk };
        return {
          game: 'plinko',
          name: `${params.rows} rows, ${risk}`,
          declared: '≤ 99 %',
          exact: plinkoReturnToPlayer(params),
          count: params.rows,
          play: (numbers) => toNumber(plinkoOutcome(numbers, params).multiplier),
        };
      }),
    ),
    slotConfiguration('default skin', DEFAULT_SLOT_SKIN, 9650),
    slotConfiguration('skin 7 at 94.00', slotSkin(7, 9400), 9400),
    slotConfiguration('skin 42 at 98.49', slotSkin(42, 9849), 9849),
    slotConfiguration('skin 2024 at 97.00', slotSkin(2024, 9700), 9700),
  ];
  return all.filter((configuration) => games.includes(configuration.game));
}

interface Measured {
  mean: number;
  halfWidth: number;
  /** Share of rounds paying more than nothing. */
  hits: number;
}

function measure(configuration: Configuration, rounds: number, serverSeed: string): Measured {
  const pair: SeedPair = { serverSeed, clientSeed: randomBytes(8).toString('hex'), nonce: 0 };
  let sum = 0;
  let sumOfSquares = 0;
  let hits = 0;
  for (let nonce = 0; nonce < rounds; nonce += 1) {
    pair.nonce = nonce;
    const paid = configuration.play(numbersOf(pair, configuration.count));
    sum += paid;
    sumOfSquares += paid * paid;
    if (paid > 0) hits += 1;
  }
  const mean = sum / rounds;
  const variance = rounds > 1 ? (sumOfSquares - rounds * mean * mean) / (rounds - 1) : 0;
  return { mean, halfWidth: (1.96 * Math.sqrt(Math.max(0, variance))) / Math.sqrt(rounds), hits: hits / rounds };
}

async function checkNumberStream(): Promise<void> {
  const pair: SeedPair = { serverSeed: randomBytes(32).toString('hex'), clientSeed: 'rtp-check', nonce: 12 };
  const webCrypto = await randomIntegers(pair, 24);
  if (JSON.stringify(webCrypto) !== JSON.stringify(numbersOf(pair, 24))) {
    console.error('node:crypto and src/fairness/random.ts disagree on the numbers of a bet: the figures below would mean nothing');
    process.exit(1);
  }
}

const percent = (value: number): string => `${(value * 100).toFixed(3)} %`;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  await checkNumberStream();
  const started = performance.now();
  const header = ['game', 'configuration', 'rounds', 'hit rate', 'measured', '95 % interval', 'exact', 'declared', ''];
  const rows: string[][] = [];
  let outside = 0;
  const chosen = configurations(options.games);
  for (const configuration of chosen) {
    const { mean, halfWidth, hits } = measure(configuration, options.rounds, options.seed ?? randomBytes(32).toString('hex'));
    const exact = toNumber(configuration.exact);
    const inside = Math.abs(mean - exact) <= halfWidth;
    if (!inside) outside += 1;
    rows.push([
      configuration.game,
      configuration.name,
      options.rounds.toLocaleString('en-US'),
      `${(hits * 100).toFixed(2)} %`,
      percent(mean),
      `${percent(mean - halfWidth)} – ${percent(mean + halfWidth)}`,
      `${ratioToFixed({ num: configuration.exact.num * 100n, den: configuration.exact.den }, 4)} %`,
      configuration.declared,
      inside ? '' : 'outside',
    ]);
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (column >= 2 && column <= 6 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${chosen.length} configurations, ${(chosen.length * options.rounds).toLocaleString('en-US')} rounds in ${seconds} s; ` +
      `exact value outside the 95 % interval: ${outside} (about ${(chosen.length * 0.05).toFixed(1)} expected by chance).`,
  );
}

await main();
