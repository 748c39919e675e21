import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { pageMachine, type Page } from '../../../src/machines/page.machine.ts';
import { ApiFailure } from '../../../src/machines/failure.ts';

const terms: Page = { id: 2, slug: 'terms', locale: 'pt', title: 'Termos', content: '<p>Termos</p>', updatedAt: '2026-01-01T00:00:00.000Z' };

function run(loadPages: (input: { language: string }) => Promise<Page[]>) {
  const asked: string[] = [];
  const machine = pageMachine.provide({
    actors: {
      loadPages: fromPromise(async ({ input }: { input: { language: 'en' | 'pt' | 'es' } }) => {
        asked.push(input.language);
        return loadPages(input);
      }),
    },
  });
  const actor = createActor(machine, { input: { slug: 'terms', language: 'pt' } }).start();
  return { actor, asked };
}

describe('pageMachine', () => {
  it('loads the pages in the player’s language and shows the one asked for', async () => {
    const { actor, asked } = run(async () => [terms]);
    await waitFor(actor, (s) => s.matches('shown'));
    expect(actor.getSnapshot().context.page).toEqual(terms);
    expect(asked).toEqual(['pt']);
  });

  it('says so when the server has no such page', async () => {
    const { actor } = run(async () => [{ ...terms, slug: 'faq' }]);
    await waitFor(actor, (s) => s.matches('missing'));
    expect(actor.getSnapshot().context.page).toBeNull();
  });

  it('keeps the failure code and loads again on RETRY', async () => {
    let attempts = 0;
    const { actor } = run(async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiFailure(500, 'INTERNAL_SERVER_ERROR');
      return [terms];
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.errorCode).toBe('INTERNAL_SERVER_ERROR');
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('shown'));
    expect(attempts).toBe(2);
  });
});
