/**
 * Gathers calls that arrive while earlier ones are on their way into batches, one database transaction
 * each (the game wallet's bets and wins: game_wallet_play_batch, migration 0024). A batch never holds two
 * calls that share a key (a wallet, a round), and no call starts while another with one of its keys is on
 * its way: calls of one wallet run in the order they came, one after another. With nothing on its way a call
 * runs at once, alone; under load the calls that wait form the next batch. A batch that fails as a whole
 * runs each of its calls alone, each answering for itself.
 */
export interface BatcherOptions<T, R> {
  /** The most calls in one batch. */
  maxBatch: number;
  /** The most batches (or lone calls) on their way at once. */
  maxInFlight: number;
  /** What two calls of one batch, or a call and one on its way, may not share. */
  keys: (call: T) => readonly string[];
  /** Runs one call alone. */
  runOne: (call: T) => Promise<R>;
  /** Runs two or more calls together: an answer per call, in their order; a rejection runs each alone. */
  runBatch: (calls: readonly T[]) => Promise<readonly R[]>;
}

interface Waiting<T, R> {
  call: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class Batcher<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private readonly busyKeys = new Set<string>();
  private inFlight = 0;

  constructor(private readonly options: BatcherOptions<T, R>) {}

  submit(call: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ call, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const taken: Waiting<T, R>[] = [];
      const takenKeys = new Set<string>();
      for (let i = 0; i < this.waiting.length && taken.length < this.options.maxBatch; ) {
        const entry = this.waiting[i] as Waiting<T, R>;
        const keys = this.options.keys(entry.call);
        if (keys.some((key) => this.busyKeys.has(key) || takenKeys.has(key))) {
          // Left for later, and so is every later call that shares a key with it: per-key order holds.
          for (const key of keys) takenKeys.add(key);
          i += 1;
          continue;
        }
        for (const key of keys) takenKeys.add(key);
        taken.push(entry);
        this.waiting.splice(i, 1);
      }
      if (taken.length === 0) return;
      const keys = taken.flatMap((entry) => this.options.keys(entry.call));
      for (const key of keys) this.busyKeys.add(key);
      this.inFlight += 1;
      void this.run(taken).finally(() => {
        for (const key of keys) this.busyKeys.delete(key);
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(taken: Waiting<T, R>[]): Promise<void> {
    if (taken.length > 1) {
      let results: readonly R[] | null = null;
      try {
        results = await this.options.runBatch(taken.map((entry) => entry.call));
        if (process.env.BATCH_DEBUG) (await import('node:fs')).appendFileSync(process.env.BATCH_DEBUG, `ok ${taken.length}\n`);
      } catch (e) {
        if (process.env.BATCH_DEBUG) (await import('node:fs')).appendFileSync(process.env.BATCH_DEBUG, `fail ${taken.length} ${String(e)}\n`);
        results = null;
      }
      if (results && results.length === taken.length) {
        taken.forEach((entry, i) => entry.resolve(results[i] as R));
        return;
      }
    }
    if (process.env.BATCH_DEBUG && taken.length === 1) (await import('node:fs')).appendFileSync(process.env.BATCH_DEBUG, `one\n`);
    await Promise.all(
      taken.map(async (entry) => {
        try {
          entry.resolve(await this.options.runOne(entry.call));
        } catch (error) {
          entry.reject(error);
        }
      }),
    );
  }
}
