import { useEffect, useId, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { errorMessageKey } from '../../api/errors.ts';
import { formatDate, formatNumber } from '../../format.ts';
import { hasMoreNotifications, notificationsMachine } from '../../machines/notifications.machine.ts';
import { useT } from '../i18n-context.ts';
import { useFlow } from '../wiring.ts';
import { Dialog } from '../components/Dialog.tsx';
import { FormError } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { Actions, Panel } from './parts.tsx';
import { theme } from '../theme.ts';

const List = styled('ul')`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${theme.space(2)};
  &:focus {
    outline: none;
  }
`;

const Item = styled('li')`
  border: 1px solid ${theme.color.border};
  border-left: 4px solid ${theme.color.border};
  border-radius: ${theme.radius.medium};
  padding: ${theme.space(3)};
  background: ${theme.color.background};
  &[data-unread='true'] {
    border-left-color: ${theme.color.accent};
    background: ${theme.color.surfaceRaised};
  }
  h3 {
    margin: 0;
    font-size: ${theme.font.size.body};
    overflow-wrap: anywhere;
  }
  p {
    margin: ${theme.space(1)} 0;
    overflow-wrap: anywhere;
  }
  time {
    font-size: ${theme.font.size.small};
    color: ${theme.color.textMuted};
  }
`;

const ItemHead = styled('div')`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: ${theme.space(2)};
`;

const UnreadMark = styled('span')`
  flex: none;
  font-size: ${theme.font.size.small};
  font-weight: 600;
  color: ${theme.color.accentText};
  background: ${theme.color.accentStrong};
  border-radius: ${theme.radius.small};
  padding: 0 ${theme.space(2)};
`;

const Hint = styled('p')`
  margin: 0;
  text-align: center;
  font-size: ${theme.font.size.small};
  color: ${theme.color.textMuted};
`;

export interface NotificationsDialogProps {
  onClose: () => void;
}

/**
 * The player's notifications, newest first (SPEC §2, §7). Opening it marks what it shows as read (the
 * machine's call); the rows that were unread keep their mark while the dialog stays open.
 */
export default function NotificationsDialog({ onClose }: NotificationsDialogProps) {
  const { t, language } = useT();
  const actor = useFlow(notificationsMachine, {});
  const status = useSelector(actor, (s) =>
    s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('empty') ? 'empty' : 'shown',
  );
  const rows = useSelector(actor, (s) => s.context.rows);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  const unreadCount = useSelector(actor, (s) => s.context.unreadCount);
  const hasMore = useSelector(actor, (s) => hasMoreNotifications(s.context));
  const loadingMore = useSelector(actor, (s) => s.matches({ shown: 'loadingMore' }));
  const moreFailed = useSelector(actor, (s) => s.matches({ shown: 'moreFailed' }));
  const marking = useSelector(actor, (s) => s.matches({ shown: 'marking' }));
  const hintId = useId();
  const list = useRef<HTMLUListElement>(null);

  // The last page took the "Load more" button away: focus stays in the dialog, on the list.
  const hadMore = useRef(hasMore);
  useEffect(() => {
    const focusWasOnButton = document.activeElement === null || document.activeElement === document.body;
    if (hadMore.current && !hasMore && focusWasOnButton) list.current?.focus();
    hadMore.current = hasMore;
  }, [hasMore]);

  // The unread ones of pages not loaded yet (what is shown is being marked read).
  const unreadElsewhere = !marking && unreadCount > 0 && hasMore;

  return (
    <Dialog title={t('notifications.title')} closeLabel={t('common.close')} onClose={onClose}>
      {/* One live region for both, so that "none" is announced when the loading ends. */}
      {status === 'loading' || status === 'empty' ? (
        <Panel role="status" aria-busy={status === 'loading'}>
          <p>{status === 'loading' ? t('states.loading') : t('notifications.empty')}</p>
        </Panel>
      ) : null}
      {status === 'failed' ? (
        <>
          <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
          <Actions>
            <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
              {t('common.retry')}
            </Button>
          </Actions>
        </>
      ) : null}
      {status === 'shown' ? (
        <>
          <List ref={list} tabIndex={-1} aria-label={t('notifications.title')} aria-busy={loadingMore}>
            {rows.map((row) => (
              <Item key={row.id} data-unread={!row.read}>
                <ItemHead>
                  <h3>{row.title}</h3>
                  {row.read ? null : <UnreadMark>{t('notifications.unread')}</UnreadMark>}
                </ItemHead>
                <p>{row.message}</p>
                <time dateTime={row.createdAt}>{formatDate(row.createdAt, language, 'datetime')}</time>
              </Item>
            ))}
          </List>
          {moreFailed ? (
            <>
              <FormError role="alert">{t(errorMessageKey(errorCode, 'default'))}</FormError>
              <Actions>
                <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
                  {t('common.retry')}
                </Button>
              </Actions>
            </>
          ) : hasMore ? (
            <Actions>
              {/* Not disabled while loading: a disabled button would drop the focus; the machine ignores repeats. */}
              <Button
                type="button"
                variant="secondary"
                aria-busy={loadingMore}
                aria-describedby={unreadElsewhere ? hintId : undefined}
                onClick={() => actor.send({ type: 'LOAD_MORE' })}
              >
                {loadingMore ? t('states.loading') : t('common.loadMore')}
              </Button>
              {unreadElsewhere ? (
                <Hint id={hintId}>
                  {t(unreadCount === 1 ? 'notifications.unreadCountOne' : 'notifications.unreadCount', {
                    count: formatNumber(unreadCount, language),
                  })}
                </Hint>
              ) : null}
            </Actions>
          ) : null}
        </>
      ) : null}
    </Dialog>
  );
}
