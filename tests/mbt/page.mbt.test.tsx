// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { errorMessageKey } from '../../src/api/errors.ts';
import { formatDate } from '../../src/format.ts';
import { pageFixtures } from '../../src/flows/fixtures/page.ts';
import type { pageMachine } from '../../src/machines/page.machine.ts';
import PageScreen from '../../src/views/screens/PageScreen.tsx';
import { renderWithServices } from '../unit/views/harness.tsx';
import { describeModel, type View } from './run.tsx';
import { button } from './see.tsx';

vi.mock('@xstate/react', async (original) => (await import('./instrument.ts')).instrumented(await original()));

type PageView = View<typeof pageMachine>;

/** The screen's title, whatever the page's state. */
function seeScreen(view: PageView) {
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(view.t('pages.faqTitle'));
}

function seeLoading(view: PageView) {
  seeScreen(view);
  expect(screen.getByRole('status').textContent).toBe(view.t('states.loading'));
}

describeModel('page', {
  fixtures: pageFixtures,
  strategy: 'simple',
  language: pageFixtures.input!.language,
  render: (view) => renderWithServices(<PageScreen slug={view.input.slug} />, { actors: view.actors, language: view.input.language }),
  events: {
    RETRY: (view) => view.user.click(button(view.t('common.retry'))),
  },
  states: {
    loading: seeLoading,
    // Passed through on the way from loading to shown or missing; it looks like loading.
    checking: seeLoading,
    shown: (view, snapshot) => {
      seeScreen(view);
      const page = snapshot.context.page!;
      const content = document.createElement('template');
      content.innerHTML = page.content;
      expect(document.querySelector('article')?.textContent).toBe(content.content.textContent);
      expect(screen.getByText(view.t('pages.lastUpdated', { date: formatDate(page.updatedAt, view.language, 'date') }))).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    missing: (view) => {
      seeScreen(view);
      expect(screen.getByRole('status').textContent).toBe(view.t('pages.unavailable'));
      expect(document.querySelector('article')).toBeNull();
    },
    failed: (view, snapshot) => {
      seeScreen(view);
      expect(screen.getByRole('alert').textContent).toBe(view.t(errorMessageKey(snapshot.context.errorCode, 'default')));
      expect(button(view.t('common.retry')).disabled).toBe(false);
    },
  },
});
