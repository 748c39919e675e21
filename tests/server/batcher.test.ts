import { describe, expect, it } from 'vitest';
import { Batcher } from '../../server/domain/batcher.ts';

/** A call: its wallet and round, and what it answers. */
interface Call {
  wallet: number;
  round: string;
  answer: string;
}

/** Runs that stay open until released by hand, recording what ran and how. */
function harness(
  options: { maxBatch?: number; maxInFlight?: number; minBatchWhileBusy?: number; batchFails?: boolean; oneFails?: (call: Call) => boolean } = {},
) {
  const runs: { kind: 'one' | 'batch'; calls: Call[]; release: () => void }[] = [];
  const batcher = new Batcher<Call, string>({
    maxBatch: options.maxBatch ?? 4,
    maxInFlight: options.maxInFlight ?? 1,
    ...(options.minBatchWhileBusy === undefined ? {} : { minBatchWhileBusy: options.minBatchWhileBusy }),
    keys: (call) => [`wallet:${call.wallet}`, `round:${call.round}`],
    runOne: (call) =>
      new Promise((resolve, reject) => {
        runs.push({ kind: 'one', calls: [call], release: () => (options.oneFails?.(call) ? reject(new Error(`${call.answer} failed`)) : resolve(call.answer)) });
      }),
    runBatch: (calls) =>
      new Promise((resolve, reject) => {
        runs.push({ kind: 'batch', calls: [...calls], release: () => (options.batchFails ? reject(new Error('batch failed')) : resolve(calls.map((c) => `${c.answer} (batched)`))) });
      }),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { batcher, runs, settle };
}

const call = (wallet: number, round: string, answer = `${wallet}/${round}`): Call => ({ wallet, round, answer });

describe('Batcher', () => {
  it('runs a call at once when nothing is on its way, and gathers those that wait into one batch', async () => {
    const { batcher, runs, settle } = harness();
    const first = batcher.submit(call(1, 'a'));
    const waiting = [batcher.submit(call(2, 'b')), batcher.submit(call(3, 'c')), batcher.submit(call(4, 'd'))];
    expect(runs.map((r) => [r.kind, r.calls.length])).toEqual([['one', 1]]);
    runs[0]!.release();
    expect(await first).toBe('1/a');
    await settle();
    expect(runs.map((r) => [r.kind, r.calls.map((c) => c.wallet)])).toEqual([
      ['one', [1]],
      ['batch', [2, 3, 4]],
    ]);
    runs[1]!.release();
    expect(await Promise.all(waiting)).toEqual(['2/b (batched)', '3/c (batched)', '4/d (batched)']);
  });

  it('never puts two calls of one wallet or one round in a batch, and keeps each wallet\'s calls in order', async () => {
    const { batcher, runs, settle } = harness({ maxBatch: 10 });
    const answers: Promise<string>[] = [batcher.submit(call(1, 'a'))];
    answers.push(batcher.submit(call(1, 'b')), batcher.submit(call(2, 'c')), batcher.submit(call(1, 'd')), batcher.submit(call(3, 'c')), batcher.submit(call(4, 'e')));
    runs[0]!.release();
    await settle();
    // Wallet 1's next call ('b') goes with 2/c and 4/e; 3/c waits for round c, 1/d for wallet 1's 'b'.
    expect(runs[1]!.calls.map((c) => c.answer)).toEqual(['1/b', '2/c', '4/e']);
    runs[1]!.release();
    await settle();
    expect(runs[2]!.calls.map((c) => c.answer)).toEqual(['1/d', '3/c']);
    runs[2]!.release();
    expect(await Promise.all(answers)).toEqual(['1/a', '1/b (batched)', '2/c (batched)', '1/d (batched)', '3/c (batched)', '4/e (batched)']);
  });

  it('takes at most maxBatch calls in a batch and runs up to maxInFlight at once', async () => {
    const { batcher, runs, settle } = harness({ maxBatch: 2, maxInFlight: 2 });
    const answers = Array.from({ length: 7 }, (_, i) => batcher.submit(call(i, `r${i}`)));
    expect(runs.map((r) => r.calls.length)).toEqual([1, 1]);
    runs[0]!.release();
    await settle();
    expect(runs.map((r) => r.calls.length)).toEqual([1, 1, 2]);
    runs[1]!.release();
    await settle();
    expect(runs.map((r) => r.calls.length)).toEqual([1, 1, 2, 2]);
    for (let i = 2; i < 5; i++) {
      runs[i]!.release();
      await settle();
    }
    expect(runs.map((r) => r.calls.length)).toEqual([1, 1, 2, 2, 1]);
    expect(await Promise.all(answers)).toHaveLength(7);
  });

  it('starts another batch beside one on its way only once enough calls wait, and any batch when nothing is on its way', async () => {
    const { batcher, runs, settle } = harness({ maxBatch: 8, maxInFlight: 2, minBatchWhileBusy: 3 });
    const answers = [batcher.submit(call(1, 'a')), batcher.submit(call(2, 'b')), batcher.submit(call(3, 'c'))];
    // One on its way: the next two wait, the third makes three and they go together.
    expect(runs.map((r) => r.calls.map((c) => c.wallet))).toEqual([[1]]);
    answers.push(batcher.submit(call(4, 'd')));
    expect(runs.map((r) => r.calls.map((c) => c.wallet))).toEqual([[1], [2, 3, 4]]);
    // Two on their way (the most): a fifth waits; when one ends, nothing else is short of company.
    answers.push(batcher.submit(call(5, 'e')));
    runs[0]!.release();
    await settle();
    expect(runs.map((r) => r.calls.map((c) => c.wallet))).toEqual([[1], [2, 3, 4]]);
    runs[1]!.release();
    await settle();
    expect(runs.map((r) => r.calls.map((c) => c.wallet))).toEqual([[1], [2, 3, 4], [5]]);
    runs[2]!.release();
    expect(await Promise.all(answers)).toEqual(['1/a', '2/b (batched)', '3/c (batched)', '4/d (batched)', '5/e']);
  });

  it('runs each call of a failed batch alone, each answering for itself', async () => {
    const { batcher, runs, settle } = harness({ batchFails: true, oneFails: (c) => c.wallet === 3 });
    const first = batcher.submit(call(1, 'a'));
    const second = batcher.submit(call(2, 'b'));
    const third = batcher.submit(call(3, 'c'));
    runs[0]!.release();
    await first;
    await settle();
    expect(runs[1]!.kind).toBe('batch');
    runs[1]!.release();
    await settle();
    expect(runs.slice(2).map((r) => [r.kind, r.calls[0]!.wallet])).toEqual([
      ['one', 2],
      ['one', 3],
    ]);
    runs[2]!.release();
    runs[3]!.release();
    expect(await second).toBe('2/b');
    await expect(third).rejects.toThrow('3/c failed');
  });

  it('starts the next batch as soon as the database has answered, before handing the answers back', async () => {
    const { batcher, runs } = harness();
    const seen: number[] = [];
    // What has started by the time each caller gets its answer.
    const first = batcher.submit(call(1, 'a')).then((answer) => (seen.push(runs.length), answer));
    const waiting = [batcher.submit(call(2, 'b')), batcher.submit(call(3, 'c'))].map((answer) => answer.then((a) => (seen.push(runs.length), a)));
    const third = batcher.submit(call(1, 'd')).then((answer) => (seen.push(runs.length), answer));
    runs[0]!.release();
    expect(await first).toBe('1/a');
    // The waiting calls' batch went before the lone call's answer was handed back.
    expect(seen).toEqual([2]);
    expect(runs[1]!.calls.map((c) => c.answer)).toEqual(['2/b', '3/c', '1/d']);
    runs[1]!.release();
    expect(await Promise.all([...waiting, third])).toEqual(['2/b (batched)', '3/c (batched)', '1/d (batched)']);
    // And a failed call too: the next one started before the error reached its caller.
    const { batcher: failing, runs: failingRuns } = harness({ oneFails: (c) => c.wallet === 1 });
    let startedBeforeError = 0;
    const refused = failing.submit(call(1, 'a')).catch((error: Error) => ((startedBeforeError = failingRuns.length), error.message));
    const next = failing.submit(call(1, 'b'));
    failingRuns[0]!.release();
    expect(await refused).toBe('1/a failed');
    expect(startedBeforeError).toBe(2);
    failingRuns[1]!.release();
    await expect(next).rejects.toThrow('1/b failed');
  });

  it('hands the answers back only once the next batch has gone out, when the database sends it on a tick of its own', async () => {
    // As node-postgres' pool does: the statement is written on a process.nextTick after the call.
    const events: string[] = [];
    const pending: (() => void)[] = [];
    const batcher = new Batcher<Call, string>({
      maxBatch: 4,
      maxInFlight: 1,
      keys: (c) => [`wallet:${c.wallet}`, `round:${c.round}`],
      runOne: (c) =>
        new Promise((resolve) => {
          process.nextTick(() => events.push(`sent ${c.answer}`));
          pending.push(() => resolve(c.answer));
        }),
      runBatch: (calls) =>
        new Promise((resolve) => {
          process.nextTick(() => events.push(`sent ${calls.map((c) => c.answer).join(' + ')}`));
          pending.push(() => resolve(calls.map((c) => c.answer)));
        }),
    });
    // Each caller's work once answered: promise jobs, as building and writing a response is.
    const answered = (answer: Promise<string>) => answer.then((a) => events.push(`answered ${a}`));
    const first = answered(batcher.submit(call(1, 'a')));
    const waiting = [answered(batcher.submit(call(2, 'b'))), answered(batcher.submit(call(3, 'c')))];
    const last = answered(batcher.submit(call(4, 'd')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    pending[0]!();
    await first;
    expect(events).toEqual(['sent 1/a', 'sent 2/b + 3/c + 4/d', 'answered 1/a']);
    pending[1]!();
    await Promise.all([...waiting, last]);
    expect(events.slice(3)).toEqual(['answered 2/b', 'answered 3/c', 'answered 4/d']);
  });
});
