// @vitest-environment happy-dom
import { act } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_LIMITS } from '../../../src/flows/fixtures/responsibleGambling.ts';
import type { ResponsibleGambling } from '../../../src/machines/limits.machine.ts';
import RealityCheck from '../../../src/views/RealityCheck.tsx';
import { useWiring } from '../../../src/views/wiring.ts';
import { aUser } from '../machines/fixtures.ts';
import { renderWithServices } from './harness.tsx';

/*
 * The reality check as the app mounts it: the session started at the player's lastLoginAt, a time the
 * server gave, so the time since is counted on the server's clock (the wiring's serverNow, read from the
 * answers' Date header), not the device's. A device clock 20 minutes ahead of the server must not end a
 * fresh session with a 15-minute limit at once, nor one opened five minutes in before its time.
 */

const MINUTE = 60_000;
const SERVER_NOW = Date.parse('2026-03-01T12:00:00.000Z');
/** The device's clock runs 20 minutes ahead of the server's. */
const SKEW = 20 * MINUTE;

/** As the app mounts it (src/views/PlayerActions.tsx): with the session, one check per token. */
function WithSession() {
  const { app } = useWiring();
  const accessToken = useSelector(app, (snapshot) => snapshot.context.accessToken);
  return accessToken ? <RealityCheck key={accessToken} /> : null;
}

async function renderCheck(sinceLoginMs: number, answerAfterMs = 0) {
  const harness = renderWithServices(<WithSession />, {
    serverNow: () => Date.now() - SKEW,
    actors: {
      loadLimits: fromPromise<ResponsibleGambling, undefined>(async () => {
        if (answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
        return { ...NO_LIMITS, sessionLimitMinutes: 15 };
      }),
    },
  });
  // The app has booted (no saved session) before the player logs in.
  await act(() => vi.advanceTimersByTimeAsync(0));
  expect(harness.services.app.getSnapshot().matches('visitor')).toBe(true);
  act(() => {
    harness.services.app.send({ type: 'SESSION.LOGGED_IN', accessToken: 't', user: aUser({ lastLoginAt: new Date(SERVER_NOW - sinceLoginMs).toISOString() }) });
  });
  harness.appEvents.length = 0;
  return harness;
}

const reached = (events: readonly { type: string }[]) => events.filter((event) => event.type === 'SESSION.LIMIT_REACHED');

describe('RealityCheck', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: SERVER_NOW + SKEW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a fresh session on the server clock: a device 20 minutes ahead still gets its 15 minutes', async () => {
    const { appEvents } = await renderCheck(0);
    await act(() => vi.advanceTimersByTimeAsync(14 * MINUTE));
    expect(reached(appEvents)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(MINUTE));
    expect(reached(appEvents)).toEqual([{ type: 'SESSION.LIMIT_REACHED', playedMs: 15 * MINUTE }]);
  });

  it('ends a session at its limit however long the limit took to come: read after 5 minutes, 10 are left', async () => {
    const { appEvents } = await renderCheck(0, 5 * MINUTE);
    await act(() => vi.advanceTimersByTimeAsync(15 * MINUTE - 1_000));
    expect(reached(appEvents)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(reached(appEvents)).toEqual([{ type: 'SESSION.LIMIT_REACHED', playedMs: 15 * MINUTE }]);
  });

  it('a page opened five minutes into the session waits the ten left', async () => {
    const { appEvents } = await renderCheck(5 * MINUTE);
    await act(() => vi.advanceTimersByTimeAsync(10 * MINUTE - 1_000));
    expect(reached(appEvents)).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(reached(appEvents)).toEqual([{ type: 'SESSION.LIMIT_REACHED', playedMs: 15 * MINUTE }]);
  });
});
