/**
 * Gathers calls that arrive while earlier ones are on their way into batches, one database transaction
 * each (the game wallet's bets and wins: game_wallet_play; deposit notifications: deposit_notification_apply;
 * both take their calls as a set). A batch never holds two calls that share a key (a player, a wallet, a
 * round, a transfer), and no call starts while another with one of its keys is on its way: calls
 * of one wallet run in the order they came, one after another. With nothing on its way a call runs at
 * once, alone; under load the calls that wait form the next batch, started once there are enough of them
 * (or when nothing else is on its way). A batch that fails as a whole runs each of its calls alone, each
 * answering for itself.
 */
export interface BatcherOptions<T, R> {
  /** The most calls in one batch. */
  maxBatch: number;
  /** The most batches (or lone calls) on their way at once. */
  maxInFlight: number;
  /** What two calls of one batch, or a call and one on its way, may not share. */
  keys: (call: T) => readonly string[];
  /** With a batch on its way, the fewest calls worth starting another (1: any). */
  minBatchWhileBusy?: number;
  /** Runs one call alone. */
  runOne: (call: T) => Promise<R>;
  /** Runs two or more calls together: an answer per call, in their order; a rejection runs each alone. */
  runBatch: (calls: readonly T[]) => Promise<readonly R[]>;
}

interface Waiting<T, R> {
  call: T;
  /** The call's keys, worked out once. */
  keys: readonly string[];
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
      this.waiting.push({ call, keys: this.options.keys(call), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    const fewest = this.options.minBatchWhileBusy ?? 1;
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      // With a batch on its way, too few calls are not worth a transaction of their own: they wait for it.
      // Fewer waiting than that cannot make one, so the queue is not read at every call that joins it.
      if (this.inFlight > 0 && this.waiting.length < fewest) return;
      const taken = new Set<Waiting<T, R>>();
      const takenKeys = new Set<string>();
      for (const entry of this.waiting) {
        if (taken.size >= this.options.maxBatch) break;
        // A call that shares a key with one on its way or one taken waits, and so does every later call
        // that shares a key with it: per-key order holds.
        if (!entry.keys.some((key) => this.busyKeys.has(key) || takenKeys.has(key))) taken.add(entry);
        for (const key of entry.keys) takenKeys.add(key);
      }
      if (taken.size === 0 || (this.inFlight > 0 && taken.size < fewest)) return;
      const batch = this.waiting.filter((entry) => taken.has(entry));
      this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((entry) => !taken.has(entry)));
      const keys = batch.flatMap((entry) => entry.keys);
      for (const key of keys) this.busyKeys.add(key);
      this.inFlight += 1;
      let done = false;
      // Once the database has answered: its keys free, and the next batch on its way before this one's
      // answers are handed back (their callers' work, building responses, would otherwise hold it back:
      // handBack below).
      //
      // The answer comes after the commit. Starting the next batch as soon as PostgreSQL had run this one
      // (a Flush before Sync has it send the rows first, then commit) was measured and left out. Under
      // `npm run bench:server` at 16 players, a quarter of the batches then held one call: whatever was
      // waiting at that moment. Three alternated runs of each, rounds a second:
      // - answer after the commit (this code): 1,387 / 1,288 / 1,622;
      // - next batch on the run, from 1 waiting: 1,180 / 1,004 / 1,138;
      // - next batch on the run, from 8 waiting: 1,335 / 1,327 / 1,006.
      const finish = () => {
        if (done) return;
        done = true;
        for (const key of keys) this.busyKeys.delete(key);
        this.inFlight -= 1;
        this.pump();
      };
      void this.run(batch, finish).finally(finish);
    }
  }

  private async run(batch: Waiting<T, R>[], finish: () => void): Promise<void> {
    if (batch.length > 1) {
      let results: readonly R[] | null = null;
      try {
        results = await this.options.runBatch(batch.map((entry) => entry.call));
      } catch {
        results = null;
      }
      if (results && results.length === batch.length) {
        finish();
        const answers = results;
        handBack(() => batch.forEach((entry, i) => entry.resolve(answers[i] as R)));
        return;
      }
    }
    if (batch.length === 1) {
      const [entry] = batch as [Waiting<T, R>];
      let outcome: { ok: true; result: R } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, result: await this.options.runOne(entry.call) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      finish();
      handBack(() => (outcome.ok ? entry.resolve(outcome.result) : entry.reject(outcome.error)));
      return;
    }
    // A failed batch: each call alone, each answered as soon as it is done.
    await Promise.all(
      batch.map(async (entry) => {
        try {
          entry.resolve(await this.options.runOne(entry.call));
        } catch (error) {
          entry.reject(error);
        }
      }),
    );
  }
}

/**
 * Hands answers back once the batch that finish() started has gone out. node-postgres' pool hands a free
 * connection over on a process.nextTick, and the statement is written in that tick. Answers handed back at
 * once would let their callers' work (building and writing every response of the batch, all of it promise
 * jobs, which run before any tick) come first: under `npm run bench:server`, a batch then reached
 * PostgreSQL 0.85–0.91 ms after the server started it, against 0.39–0.64 ms with the answers a tick later.
 * A tick queued now runs after the pool's. (Batches and lone calls alike take the pool.)
 */
function handBack(answer: () => void): void {
  process.nextTick(answer);
}

/**
 * The latest of a batch's call times: the time a batch function judges expiry by, so that no call is judged
 * earlier than its own time.
 */
export function latestCallTime(calls: readonly { at: Date }[]): Date {
  return calls.reduce((latest, call) => (call.at > latest ? call.at : latest), calls[0]?.at ?? new Date());
}
