import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { formatAmount, formatDate } from '../../format.ts';
import {
  hasMoreTransactions,
  isFiltered,
  TRANSACTION_TYPES,
  transactionsMachine,
  type Transaction,
  type TransactionFilter,
  type TransactionType,
} from '../../machines/transactions.machine.ts';
import { SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { ResponsiveTable, type Column } from '../components/ResponsiveTable.tsx';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { useFlow, useWiring } from '../wiring.ts';
import { depositOver } from '../address.ts';
import { Failure } from '../components/Failure.tsx';

/*
 * The wallet's Transactions tab (src/machines/transactions.machine.ts): filters by type and days, the
 * list (a table on a desktop, cards on a phone), "Load more". It keeps itself current (the machine
 * subscribes to the live updates): the wallet dialog only renders it, keyed by the currency.
 */

const Filters = styled('div')`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${theme.space(3)};
  margin-bottom: ${theme.space(4)};
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(3, 1fr);
    align-items: start;
  }
`;

/** On a desktop the table keeps each value on one line and scrolls sideways rather than break out. */
const TableBox = styled('div')`
  ${theme.breakpoint.tablet} {
    overflow-x: auto;
    table {
      font-size: ${theme.font.size.small};
    }
    td {
      white-space: nowrap;
    }
  }
  abbr {
    text-decoration: none;
    cursor: help;
  }
`;

const Muted = styled('p')`
  margin: 0;
  color: ${theme.color.textMuted};
`;

const Footer = styled('div')`
  display: flex;
  justify-content: center;
  margin-top: ${theme.space(4)};
`;

const Status = styled('span')`
  &[data-status='completed'] {
    color: ${theme.color.success};
  }
  &[data-status='failed'],
  &[data-status='cancelled'] {
    color: ${theme.color.danger};
  }
`;

export default function TransactionsTab({ currencyCode }: { currencyCode: string }) {
  const { t, language } = useT();
  const { navigate } = useWiring();
  const actor = useFlow(transactionsMachine, { currencyCode });
  const state = useSelector(actor, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('empty') ? 'empty' : 'shown'));
  // Loading more, or the first page again after a live update: the rows stay, the button is busy.
  const more = useSelector(actor, (s) =>
    s.matches({ shown: 'loadingMore' }) || s.matches({ shown: 'refreshing' }) ? 'loading' : s.matches({ shown: 'moreFailed' }) ? 'failed' : 'idle',
  );
  const filter = useSelector(actor, (s) => s.context.filter);
  const query = useSelector(actor, (s) => s.context.query);
  const filterError = useSelector(actor, (s) => s.context.filterError);
  const rows = useSelector(actor, (s) => s.context.rows);
  const count = useSelector(actor, (s) => s.context.count);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  // A date input reports a day only once it is whole (or '' once cleared).
  const apply = (next: Partial<TransactionFilter>) => actor.send({ type: 'FILTER', filter: { ...filter, ...next } });
  const toDeposit = () => navigate(depositOver({ path: window.location.pathname, search: window.location.search }), { replace: true });

  const columns: Column<Transaction>[] = [
    { header: t('wallet.transactions.date'), cell: (row) => <time dateTime={row.createdAt}>{formatDate(row.createdAt, language, 'datetime')}</time> },
    { header: t('wallet.transactions.type'), cell: (row) => t(`wallet.transactions.actions.${row.actionType}`) },
    { header: t('wallet.transactions.amount'), cell: (row) => formatAmount(row.amount, row.currencyCode, language), numeric: true },
    {
      header: t('wallet.transactions.status'),
      cell: (row) => <Status data-status={row.status}>{t(`wallet.transactions.statuses.${row.status}`)}</Status>,
    },
    { header: t('wallet.transactions.beforeBalance'), cell: (row) => formatAmount(row.beforeBalance, row.currencyCode, language), numeric: true },
    { header: t('wallet.transactions.afterBalance'), cell: (row) => formatAmount(row.afterBalance, row.currencyCode, language), numeric: true },
    {
      header: t('wallet.transactions.transactionId'),
      // The first characters, as wallets and explorers show an id; the whole one on hover and for screen readers.
      cell: (row) => (
        <abbr title={row.transactionId} aria-label={row.transactionId}>
          <code>{row.transactionId.slice(0, 8)}…</code>
        </abbr>
      ),
    },
  ];

  let body;
  if (state === 'loading') {
    body = (
      <Muted role="status" aria-busy="true">
        {t('states.loading')}
      </Muted>
    );
  } else if (state === 'failed') {
    body = (
      <div>
        <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
      </div>
    );
  } else {
    body = (
      <section aria-label={t('wallet.transactions.list')}>
        <TableBox>
          <ResponsiveTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.transactionId}
            empty={
              isFiltered(query) ? (
                t('wallet.transactions.emptyFiltered')
              ) : (
                <>
                  <p>
                    {t('wallet.transactions.empty')} {t('wallet.transactions.emptyHint')}
                  </p>
                  <Button type="button" onClick={toDeposit}>
                    {t('wallet.transactions.deposit')}
                  </Button>
                </>
              )
            }
          />
        </TableBox>
        {more === 'failed' ? (
          <div>
            <Failure code={errorCode} onRetry={() => actor.send({ type: 'RETRY' })} />
          </div>
        ) : hasMoreTransactions({ rows, count }) ? (
          <Footer>
            <Button type="button" variant="secondary" aria-busy={more === 'loading'} onClick={() => more === 'idle' && actor.send({ type: 'LOAD_MORE' })}>
              {more === 'loading' ? t('states.loading') : t('common.loadMore')}
            </Button>
          </Footer>
        ) : null}
      </section>
    );
  }

  return (
    <div>
      <Filters>
        <SelectField
          label={t('wallet.transactions.type')}
          value={filter.type ?? ''}
          onChange={(event) => apply({ type: event.target.value === '' ? null : (event.target.value as TransactionType) })}
        >
          <option value="">{t('wallet.transactions.allTypes')}</option>
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`wallet.transactions.types.${type}`)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('wallet.transactions.from')} type="date" value={filter.from} onChange={(event) => apply({ from: event.target.value })} />
        <TextField
          label={t('wallet.transactions.to')}
          type="date"
          value={filter.to}
          min={filter.from || undefined}
          onChange={(event) => apply({ to: event.target.value })}
          errors={filterError ? [t('wallet.transactions.dateRange')] : []}
        />
      </Filters>
      {body}
    </div>
  );
}
