import { useEffect, type ReactNode } from 'react';
import { styled } from 'goober';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';

/** A page of the shell: its width and left edge are the layout's (Layout.tsx, Content). */
export const ScreenBox = styled('section')`
  padding: ${theme.space(5)} 0 ${theme.space(10)};
  h1 {
    font-size: ${theme.font.size.title};
    margin: 0 0 ${theme.space(4)};
  }
`;

const EmptyBox = styled('div')`
  border: 1px dashed ${theme.color.border};
  border-radius: ${theme.radius.large};
  padding: ${theme.space(8)} ${theme.space(4)};
  text-align: center;
  color: ${theme.color.textMuted};
  background: ${theme.color.surface};
`;

/** The browser tab says where the player is: "Casino · Crypto Casino", in the player's language. */
export function useDocumentTitle(title: string): void {
  const { t } = useT();
  const site = t('app.name');
  useEffect(() => {
    document.title = title === site ? site : `${title} · ${site}`;
  }, [title, site]);
}

export function Screen({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <ScreenBox aria-labelledby="screen-title">
      <h1 id="screen-title">{title}</h1>
      {children}
    </ScreenBox>
  );
}

/** What a list shows when there is nothing in it yet. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <EmptyBox role="status">{children}</EmptyBox>;
}

export const Tabs = styled('nav')`
  display: flex;
  gap: ${theme.space(2)};
  flex-wrap: wrap;
  margin-bottom: ${theme.space(4)};
  a {
    color: ${theme.color.textMuted};
    text-decoration: none;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-radius: ${theme.radius.medium};
    border: 1px solid ${theme.color.border};
  }
  a[aria-current='page'] {
    background: ${theme.color.accentStrong};
    color: ${theme.color.accentText};
    border-color: transparent;
  }
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
  }
`;
