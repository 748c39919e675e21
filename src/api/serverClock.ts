/*
 * The server's clock as this device sees it. Times the server sends (a player's lastLoginAt, a token's
 * lifetime) are in the server's time; the device's clock may be minutes off. Every answer carries the
 * server's time in its Date header, cut to the whole second, so the offset is measured again at each
 * answer from the middle of that second: the error stays under half a second plus the answer's time on
 * the wire. Until an answer comes, or where an answer has no readable Date header, the device's own
 * time stands.
 */

/** Half of the header's one-second resolution. */
const HALF_SECOND_MS = 500;

export interface ServerClock {
  /** An answer's Date header, read when the answer arrived. */
  observe(dateHeader: string | null): void;
  /** The server's time now, in ms since the epoch. */
  now(): number;
}

export function createServerClock(deviceNow: () => number = Date.now): ServerClock {
  let offsetMs = 0;
  return {
    observe(dateHeader) {
      if (!dateHeader) return;
      const serverMs = Date.parse(dateHeader);
      if (Number.isNaN(serverMs)) return;
      offsetMs = serverMs + HALF_SECOND_MS - deviceNow();
    },
    now: () => deviceNow() + offsetMs,
  };
}
