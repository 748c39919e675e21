import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { realityCheckMachine } from '../machines/realityCheck.machine.ts';
import { useFlow, useWiring } from './wiring.ts';

/*
 * The reality check (src/machines/realityCheck.machine.ts): mounted by the app for a logged-in player,
 * in a chunk of its own. It shows nothing: at the session limit it tells the app, which ends the session
 * and opens the session-limit dialog (./dialogs/SessionLimitDialog.tsx).
 */

/** The check for a session that started at `sessionStartedAt` (ISO 8601). */
export function RealityCheckTimer({ sessionStartedAt, now, deviceNow }: { sessionStartedAt: string; now: string; deviceNow: string }) {
  useFlow(realityCheckMachine, { sessionStartedAt, now, deviceNow });
  return null;
}

/**
 * For the session the app holds: it started at the login (the user's lastLoginAt), else now. Both are
 * the server's times: a device clock minutes ahead would otherwise end a fresh session at once.
 */
export default function RealityCheck() {
  const { app, serverNow } = useWiring();
  const lastLoginAt = useSelector(app, (s) => s.context.user?.lastLoginAt ?? null);
  const [times] = useState(() => {
    const now = new Date(serverNow()).toISOString();
    const deviceNow = new Date().toISOString();
    return { now, deviceNow, sessionStartedAt: lastLoginAt !== null && !Number.isNaN(Date.parse(lastLoginAt)) ? lastLoginAt : now };
  });
  return <RealityCheckTimer sessionStartedAt={times.sessionStartedAt} now={times.now} deviceNow={times.deviceNow} />;
}
