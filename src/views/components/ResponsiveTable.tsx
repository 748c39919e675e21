import type { ReactNode } from 'react';
import { styled } from 'goober';
import { theme } from '../theme.ts';
import { EmptyState } from './Screen.tsx';

/*
 * The lists of the player's records (transactions, bet history, documents; DESIGN.md "Lists"): a table on
 * a desktop, stacked cards on a phone, one table either way (each cell carries its column's name for the
 * card), never wider than the screen.
 */

const Table = styled('table')`
  width: 100%;
  border-collapse: collapse;
  margin-bottom: ${theme.space(4)};
  caption {
    text-align: left;
    color: ${theme.color.textMuted};
    padding-bottom: ${theme.space(2)};
  }
  th {
    text-align: left;
    color: ${theme.color.textMuted};
    font-weight: 600;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-bottom: 1px solid ${theme.color.border};
  }
  td {
    padding: ${theme.space(3)};
    border-bottom: 1px solid ${theme.color.border};
    overflow-wrap: anywhere;
  }
  [data-numeric='true'] {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  @media (max-width: 767px) {
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    tr {
      display: block;
      background: ${theme.color.surface};
      border: 1px solid ${theme.color.border};
      border-radius: ${theme.radius.medium};
      margin-bottom: ${theme.space(3)};
      padding: ${theme.space(2)} ${theme.space(3)};
    }
    td {
      display: flex;
      justify-content: space-between;
      gap: ${theme.space(3)};
      border: 0;
      padding: ${theme.space(1)} 0;
      text-align: right;
    }
    td::before {
      content: attr(data-label);
      color: ${theme.color.textMuted};
      text-align: left;
    }
  }
`;

export interface Column<Row> {
  /** The column's heading, and each card's label for the cell. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Amounts and counts: right-aligned, tabular figures. */
  numeric?: boolean;
}

export function ResponsiveTable<Row>({
  columns,
  rows,
  rowKey,
  empty,
}: {
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** What the list says when it has no rows yet: what to do next. */
  empty: ReactNode;
}) {
  return (
    <>
      <Table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" data-numeric={column.numeric ?? false}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header} data-numeric={column.numeric ?? false}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      {rows.length === 0 ? <EmptyState>{empty}</EmptyState> : null}
    </>
  );
}
