import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiFailure } from '../../../src/machines/failure.ts';
import { settingsMachine, type Settings } from '../../../src/machines/settings.machine.ts';
import { DEFAULT_SETTINGS } from './fixtures.ts';

function run(load: () => Promise<Settings>) {
  let calls = 0;
  const machine = settingsMachine.provide({
    actors: {
      loadSettings: fromPromise(async () => {
        calls += 1;
        return load();
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls: () => calls };
}

describe('settingsMachine', () => {
  it('loads the settings once at start and keeps them', async () => {
    const configured = { ...DEFAULT_SETTINGS, socialLogin: { googleClientId: 'client', facebookAppId: '123' } };
    const { actor, calls } = run(async () => configured);
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context).toEqual({ settings: configured, errorCode: null });
    // RETRY means nothing once they are loaded.
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(calls()).toBe(1);
  });

  it('keeps the failure code, and loads again on RETRY', async () => {
    let attempt = 0;
    const { actor, calls } = run(async () => {
      attempt += 1;
      if (attempt === 1) throw new ApiFailure(0, null);
      return DEFAULT_SETTINGS;
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toEqual({ settings: null, errorCode: null });
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.settings).toEqual(DEFAULT_SETTINGS);
    expect(calls()).toBe(2);
  });

  it('keeps the server’s code when it answers with one', async () => {
    const { actor } = run(async () => {
      throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorCode).toBe('INTERNAL_SERVER_ERROR');
  });
});
