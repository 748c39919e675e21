import { useSelector } from '@xstate/react';
import { styled } from 'goober';
import { Link } from 'wouter';
import { errorMessageKey } from '../../api/errors.ts';
import { formatAmount, formatDate } from '../../format.ts';
import {
  betHistoryMachine,
  hasMoreBets,
  isBetHistoryFiltered,
  type BetHistoryFilter,
  type BetHistoryItem,
} from '../../machines/betHistory.machine.ts';
import { fairnessLink } from '../../machines/fairness.address.ts';
import { FormError, SelectField, TextField } from '../components/Form.tsx';
import { Button } from '../components/Button.tsx';
import { ResponsiveTable, type Column } from '../components/ResponsiveTable.tsx';
import { EmptyState, Screen } from '../components/Screen.tsx';
import { useT } from '../i18n-context.ts';
import { PlayerOnly } from '../PlayerOnly.tsx';
import { theme } from '../theme.ts';
import { ButtonLink } from '../components/Page.tsx';
import { useFlow } from '../wiring.ts';

/*
 * The bet history (src/machines/betHistory.machine.ts): filters by game and days, the rounds (a table on
 * a desktop, cards on a phone), "Load more". It keeps itself current: the machine subscribes to the live
 * updates, so a round just played shows without a reload. A house game's round shows its provably fair
 * data folded under "Seeds" (the server seed's hash, the client seed, the nonce, the server seed once the
 * player rotated the pair), and "Verify" once revealed: the /fairness page, filled in, recomputes it.
 */

/** An empty list's way on. */
const SpacedLink = styled(ButtonLink)`
  margin-top: ${theme.space(3)};
`;

/** On a phone the game takes a row and the two days share the next, so the rounds start higher up. */
const Filters = styled('div')`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 0 ${theme.space(3)};
  align-items: start;
  margin-bottom: ${theme.space(2)};
  & > :first-child {
    grid-column: 1 / -1;
  }
  ${theme.breakpoint.tablet} {
    grid-template-columns: repeat(3, minmax(0, 16rem));
    & > :first-child {
      grid-column: auto;
    }
  }
`;

/** Where ResponsiveTable is a table (from 768 px): one line per value, scrolled sideways rather than broken out. */
const TableBox = styled('div')`
  /* A card's labels keep their words whole beside a long value (the seeds). */
  td::before {
    flex-shrink: 0;
  }
  @media (min-width: 768px) {
    overflow-x: auto;
    td {
      white-space: nowrap;
    }
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

const Payout = styled('span')`
  &[data-won='true'] {
    color: ${theme.color.success};
    font-weight: 600;
  }
`;

const Status = styled('span')`
  &[data-status='won'] {
    color: ${theme.color.success};
  }
  &[data-status='rolledBack'] {
    color: ${theme.color.textMuted};
  }
`;

/** A house round's seeds, folded: one line in the list until opened, long seeds wrapping inside. */
const Fair = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: flex-end;
  gap: ${theme.space(1)} ${theme.space(3)};
  @media (min-width: 768px) {
    justify-content: flex-start;
  }
  min-width: 0;
  details {
    white-space: normal;
  }
  /* Opened, the seeds take the width of the card (or of the column), Verify below them. */
  details[open] {
    flex-basis: 100%;
  }
  summary {
    cursor: pointer;
    color: ${theme.color.link};
    min-height: 1.5rem;
  }
  summary:focus-visible,
  a:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  dl {
    max-width: 22rem;
    margin: ${theme.space(2)} 0 0;
    text-align: left;
  }
  dt {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  dd {
    margin: 0 0 ${theme.space(2)};
    overflow-wrap: anywhere;
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: ${theme.font.size.small};
  }
  a {
    color: ${theme.color.link};
    font-weight: 600;
  }
`;

/** A house round's seeds and its Verify link; a dash for another provider's round. */
function FairnessCell({ row }: { row: BetHistoryItem }) {
  const { t } = useT();
  const fairness = row.fairness;
  if (!fairness) return <span aria-label={t('betHistory.fairness.none')}>—</span>;
  const link = fairnessLink(fairness);
  return (
    <Fair>
      <details>
        <summary>{t('betHistory.fairness.seeds')}</summary>
        <dl>
          <dt>{t('betHistory.fairness.serverSeedHash')}</dt>
          <dd>{fairness.serverSeedHash}</dd>
          <dt>{t('betHistory.fairness.clientSeed')}</dt>
          <dd>{fairness.clientSeed}</dd>
          <dt>{t('betHistory.fairness.nonce')}</dt>
          <dd>{fairness.nonce}</dd>
          <dt>{t('betHistory.fairness.serverSeed')}</dt>
          <dd>{fairness.serverSeed ?? t('betHistory.fairness.hidden')}</dd>
        </dl>
      </details>
      {link ? (
        <Link href={link} aria-label={`${t('betHistory.fairness.verify')}: ${row.game.name}, ${t('betHistory.fairness.nonce')} ${fairness.nonce}`}>
          {t('betHistory.fairness.verify')}
        </Link>
      ) : null}
    </Fair>
  );
}

/** The list and its filters, without the page around it (the model test renders it alone). */
export function BetHistory() {
  const { t, language } = useT();
  const actor = useFlow(betHistoryMachine);
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
  const games = useSelector(actor, (s) => s.context.games);
  const errorCode = useSelector(actor, (s) => s.context.errorCode);
  // A date input reports a day only once it is whole (or '' once cleared).
  const apply = (next: Partial<BetHistoryFilter>) => actor.send({ type: 'FILTER', filter: { ...filter, ...next } });

  const columns: Column<BetHistoryItem>[] = [
    { header: t('betHistory.date'), cell: (row) => <time dateTime={row.createdAt}>{formatDate(row.createdAt, language, 'datetime')}</time> },
    { header: t('betHistory.game'), cell: (row) => row.game.name },
    { header: t('betHistory.betAmount'), cell: (row) => formatAmount(row.betAmount, row.currencyCode, language), numeric: true },
    {
      header: t('betHistory.multiplier'),
      cell: (row) =>
        row.multiplier === null ? <span aria-label={t('betHistory.noMultiplier')}>—</span> : `${formatAmount(row.multiplier, '', language)}×`,
      numeric: true,
    },
    {
      header: t('betHistory.payout'),
      cell: (row) => <Payout data-won={row.status === 'won'}>{formatAmount(row.payout, row.currencyCode, language)}</Payout>,
      numeric: true,
    },
    { header: t('betHistory.status'), cell: (row) => <Status data-status={row.status}>{t(`betHistory.statuses.${row.status}`)}</Status> },
    { header: t('betHistory.fairness.column'), cell: (row) => <FairnessCell row={row} /> },
  ];

  const failure = (
    <div>
      <FormError role="alert">
        {t('betHistory.loadFailed')} {t(errorMessageKey(errorCode, 'default'))}
      </FormError>
      <Button type="button" onClick={() => actor.send({ type: 'RETRY' })}>
        {t('common.retry')}
      </Button>
    </div>
  );

  let body;
  if (state === 'loading') {
    body = (
      <Muted role="status" aria-busy="true">
        {t('states.loading')}
      </Muted>
    );
  } else if (state === 'failed') {
    body = failure;
  } else if (state === 'empty') {
    // No table headings over nothing: what to do next instead.
    body = isBetHistoryFiltered(query) ? (
      <EmptyState>{t('betHistory.emptyFiltered')}</EmptyState>
    ) : (
      <EmptyState>
        <p>
          {t('betHistory.empty')} {t('betHistory.emptyHint')}
        </p>
        <SpacedLink href="/casino">{t('betHistory.browseGames')}</SpacedLink>
      </EmptyState>
    );
  } else {
    body = (
      <section aria-label={t('betHistory.list')}>
        <TableBox>
          <ResponsiveTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.roundId}
            empty={null}
          />
        </TableBox>
        {more === 'failed' ? (
          failure
        ) : hasMoreBets({ rows, count }) ? (
          <Footer>
            <Button type="button" variant="secondary" aria-busy={more === 'loading'} onClick={() => more === 'idle' && actor.send({ type: 'LOAD_MORE' })}>
              {more === 'loading' ? t('states.loading') : t('common.loadMore')}
            </Button>
          </Footer>
        ) : null}
      </section>
    );
  }

  // A player who never played has nothing to filter: the way to the casino alone.
  const filterable = state !== 'empty' || isBetHistoryFiltered(query);
  return (
    <div>
      {filterable ? (
        <Filters>
          <SelectField
            label={t('betHistory.game')}
            value={filter.gameId === null ? '' : String(filter.gameId)}
            onChange={(event) => apply({ gameId: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">{t('betHistory.allGames')}</option>
            {games.map((game) => (
              <option key={game.id} value={String(game.id)}>
                {game.name}
              </option>
            ))}
          </SelectField>
          <TextField label={t('betHistory.from')} type="date" value={filter.from} onChange={(event) => apply({ from: event.target.value })} />
          <TextField
            label={t('betHistory.to')}
            type="date"
            value={filter.to}
            min={filter.from || undefined}
            onChange={(event) => apply({ to: event.target.value })}
            errors={filterError ? [t('betHistory.dateRange')] : []}
          />
        </Filters>
      ) : null}
      {body}
    </div>
  );
}

export default function BetHistoryScreen() {
  const { t } = useT();
  return (
    <PlayerOnly title={t('betHistory.title')}>
      <Screen title={t('betHistory.title')}>
        <BetHistory />
      </Screen>
    </PlayerOnly>
  );
}
