import { assign, setup } from 'xstate';
import type { components } from '../api/schema.d.ts';
import { notProvided, type ErrorCode } from './effects.ts';
import { toFailure } from './failure.ts';

/*
 * The server's public settings (GET /common/get-settings): money limits, timings, and which social
 * sign-ins are configured. Loaded once when the app starts; a failed load is retried when a screen
 * that needs them asks again (RETRY), so a brief outage at start does not hide the social buttons for
 * the whole visit.
 */

export type Settings = components['schemas']['Settings'];

export interface SettingsContext {
  settings: Settings | null;
  errorCode: ErrorCode | null;
}

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as { type: 'RETRY' },
  },
  actors: {
    /** GET /common/get-settings. */
    loadSettings: notProvided<Settings>('loadSettings'),
  },
  actions: {
    storeSettings: assign((_, params: { settings: Settings }) => ({ settings: params.settings, errorCode: null })),
    storeFailure: assign((_, params: { code: ErrorCode | null }) => ({ errorCode: params.code })),
  },
}).createMachine({
  id: 'settings',
  context: { settings: null, errorCode: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadSettings',
        onDone: { target: 'loaded', actions: { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeFailure', params: ({ event }) => ({ code: toFailure(event.error).code }) } },
      },
    },
    loaded: {},
    failed: {
      on: { RETRY: 'loading' },
    },
  },
});
