import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import DOMPurify from 'dompurify';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import type { MessageKey } from '../../i18n/index.ts';
import { formatDate } from '../../format.ts';
import { pageMachine, type PageSlug } from '../../machines/page.machine.ts';
import { useT } from '../i18n-context.ts';
import { useFlow, useWiring } from '../wiring.ts';
import { EmptyState, Screen } from '../components/Screen.tsx';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme.ts';

const TITLES: Record<PageSlug, MessageKey> = {
  faq: 'pages.faqTitle',
  terms: 'pages.termsTitle',
  privacy: 'pages.privacyTitle',
  about: 'pages.aboutTitle',
  support: 'pages.supportTitle',
};

const Content = styled('article')`
  line-height: 1.6;
  a {
    color: ${theme.color.link};
  }
  h2 {
    font-size: ${theme.font.size.large};
    margin-top: ${theme.space(6)};
  }
`;

function PageBody({ slug }: { slug: PageSlug }) {
  const { t, language } = useT();
  const actor = useFlow(pageMachine, { slug, language });
  const state = useSelector(actor, (s) => s);
  const send = actor.send;
  const page = state.context.page;
  // The server's HTML is sanitised before it reaches the DOM.
  const html = useMemo(() => (page ? DOMPurify.sanitize(page.content) : ''), [page]);
  if (state.matches('loading') || state.matches('checking')) return <EmptyState>{t('states.loading')}</EmptyState>;
  if (state.matches('failed')) {
    return (
      <EmptyState>
        <p role="alert">{t(errorMessageKey(state.context.errorCode, 'default'))}</p>
        <Button type="button" onClick={() => send({ type: 'RETRY' })}>
          {t('common.retry')}
        </Button>
      </EmptyState>
    );
  }
  if (!page) return <EmptyState>{t('pages.unavailable')}</EmptyState>;
  return (
    <>
      <Content dangerouslySetInnerHTML={{ __html: html }} />
      <p>{t('pages.lastUpdated', { date: formatDate(page.updatedAt, language, 'date') })}</p>
    </>
  );
}

export default function PageScreen({ slug }: { slug: PageSlug }) {
  const { t, language } = useT();
  const { app } = useWiring();
  // A new language loads the page again in it.
  const key = useSelector(app, (s) => s.context.language);
  return (
    <Screen title={t(TITLES[slug])}>
      <PageBody key={`${slug}-${key}-${language}`} slug={slug} />
    </Screen>
  );
}
