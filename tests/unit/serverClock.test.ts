import { describe, expect, it } from 'vitest';
import { createServerClock } from '../../src/api/serverClock.ts';

/*
 * The server's clock from the answers' Date header: the device's time until an answer comes, then the
 * device's time moved by the last answer's offset, taken from the middle of the header's second.
 */

describe('the server clock', () => {
  it("is the device's time until an answer with a Date header comes", () => {
    let device = 1_000_000;
    const clock = createServerClock(() => device);
    expect(clock.now()).toBe(1_000_000);
    clock.observe(null);
    clock.observe('');
    clock.observe('not a date');
    device += 250;
    expect(clock.now()).toBe(1_000_250);
  });

  it("follows the server's time from the middle of the header's second, and keeps up with the device's clock", () => {
    const server = Date.parse('2026-03-01T12:00:00.000Z');
    // The device runs 20 minutes ahead.
    let device = server + 20 * 60_000 + 300;
    const clock = createServerClock(() => device);
    clock.observe('Sun, 01 Mar 2026 12:00:00 GMT');
    expect(clock.now()).toBe(server + 500);
    device += 60_000;
    expect(clock.now()).toBe(server + 60_500);
  });

  it('takes each new answer as it comes: a device clock moved on is corrected at the next answer', () => {
    const server = Date.parse('2026-03-01T12:00:00.000Z');
    let device = server;
    const clock = createServerClock(() => device);
    clock.observe('Sun, 01 Mar 2026 12:00:00 GMT');
    expect(clock.now()).toBe(server + 500);
    // The device's clock jumps 15 minutes (set by hand, or a test's clock): an answer a second later.
    device += 15 * 60_000 + 1_000;
    clock.observe('Sun, 01 Mar 2026 12:00:01 GMT');
    expect(clock.now()).toBe(server + 1_500);
  });
});
