import { keyframes, styled } from 'goober';
import type { HouseRound } from '../../machines/house.ts';
import { useT } from '../i18n-context.ts';
import { theme } from '../theme.ts';
import { multiplierText } from './HouseParts.tsx';
import { InstantGame, type GameParts, type HouseTableSnapshot } from './InstantGame.tsx';
import { hundredthsText } from './numbers.ts';

/* The slot: five reels, three rows of the title's symbols (its skin), paylines and a paytable. */

const spin = keyframes`
  0% { transform: translateY(-30%); filter: blur(2px); }
  100% { transform: translateY(0); filter: blur(0); }
`;

const Reels = styled('div')`
  display: grid;
  grid-template-columns: repeat(5, minmax(0, 1fr));
  gap: ${theme.space(1.5)};
  max-width: 32rem;
  width: 100%;
  margin: 0 auto;
  & > div { display: grid; gap: ${theme.space(1.5)}; overflow: hidden; border-radius: ${theme.radius.medium}; }
  & [data-spinning='true'] > span { animation: ${spin} 0.3s linear infinite; }
  & [data-settled='true'] > span { animation: ${spin} 0.45s ease-out; }
  & span {
    display: flex;
    align-items: center;
    justify-content: center;
    aspect-ratio: 1;
    font-size: clamp(1.5rem, 8vw, 2.75rem);
    background: ${theme.color.surfaceRaised};
    border-radius: ${theme.radius.medium};
  }
  /* Inside the cell: the reel's column clips what goes past its edges. */
  & span[data-win='true'] { outline: 2px solid ${theme.color.success}; outline-offset: -2px; }
`;

const More = styled('details')`
  & summary { cursor: pointer; font-weight: 600; padding: ${theme.space(2.5)} 0; }
  & table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  & th, & td { padding: ${theme.space(1)} ${theme.space(2)}; text-align: right; border-bottom: 1px solid ${theme.color.border}; }
  & th:first-child, & td:first-child { text-align: left; font-size: 1.5rem; }
  & p { color: ${theme.color.textMuted}; font-size: ${theme.font.size.small}; }
  & ol { display: grid; grid-template-columns: repeat(auto-fill, minmax(5.5rem, 1fr)); gap: ${theme.space(2)}; padding: 0; list-style: none; }
  & li { font-size: ${theme.font.size.small}; }
  & li div { display: grid; grid-template-columns: repeat(5, 1fr); gap: 2px; margin-top: 2px; }
  & li i { display: block; aspect-ratio: 1; background: ${theme.color.surfaceRaised}; border-radius: 2px; }
  & li i[data-on='true'] { background: ${theme.color.accent}; }
`;

const slotOf = (round: HouseRound | null) => (round && 'grid' in round.outcome ? round.outcome : null);

function SlotBoard({ snapshot }: { snapshot: HouseTableSnapshot }) {
  const { t } = useT();
  const skin = snapshot.context.table?.slotSkin ?? null;
  if (!skin) return null;
  const round = snapshot.context.round;
  const outcome = slotOf(round);
  const grid = outcome?.grid ?? [0, 1, 2].map((row) => skin.reels.map((strip) => strip[row % strip.length] ?? 0));
  const winning = new Set(
    (outcome?.lines ?? []).flatMap((line) => (skin.paylines[line.line] ?? []).slice(0, line.count).map((row, reel) => `${row}-${reel}`)),
  );
  const spinning = snapshot.matches('playing');
  const glyph = (symbol: number) => skin.symbols[symbol]?.glyph ?? '?';
  const name = (symbol: number) => skin.symbols[symbol]?.key ?? '?';
  return (
    <>
      <Reels role="img" aria-label={`${t('house.slot.reels')}: ${grid.map((row) => row.map(name).join(' ')).join(' / ')}`}>
        {[0, 1, 2, 3, 4].map((reel) => (
          <div key={`${reel}-${round?.roundId ?? ''}`} data-spinning={spinning} data-settled={snapshot.matches('showing')}>
            {grid.map((row, rowIndex) => (
              <span key={rowIndex} data-win={!spinning && winning.has(`${rowIndex}-${reel}`)} aria-hidden="true">
                {glyph(row[reel] ?? 0)}
              </span>
            ))}
          </div>
        ))}
      </Reels>
      {outcome && !spinning && outcome.lines.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: theme.space(5) }}>
          {outcome.lines.map((line) => (
            <li key={line.line}>
              {t('house.slot.lineWin', { line: line.line + 1, count: line.count, symbol: glyph(line.symbol), multiplier: multiplierText(line.multiplier) })}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function SlotRules({ snapshot }: { snapshot: HouseTableSnapshot }) {
  const { t } = useT();
  const skin = snapshot.context.table?.slotSkin ?? null;
  if (!skin) return null;
  return (
    <>
      <More>
        <summary>{t('house.slot.paytable')}</summary>
        <p>{t('house.slot.paytableHint', { lines: skin.paylines.length })}</p>
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('house.slot.reels')}</span>
              </th>
              <th scope="col">3×</th>
              <th scope="col">4×</th>
              <th scope="col">5×</th>
            </tr>
          </thead>
          <tbody>
            {skin.symbols.map((symbol, index) => (
              <tr key={symbol.key}>
                <td>
                  <span aria-label={symbol.key}>{symbol.glyph}</span>
                </td>
                {(skin.paytable[index] ?? []).map((pay, count) => (
                  <td key={count}>×{hundredthsText(pay)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </More>
      <More>
        <summary>{t('house.slot.paylines')}</summary>
        <ol>
          {skin.paylines.map((line, index) => (
            <li key={index}>
              {t('house.slot.line', { line: index + 1 })}
              <div aria-hidden="true">
                {[0, 1, 2].flatMap((row) => line.map((lineRow, reel) => <i key={`${row}-${reel}`} data-on={lineRow === row} />))}
              </div>
            </li>
          ))}
        </ol>
      </More>
    </>
  );
}

export function SlotPage({ sessionId }: { sessionId: string }) {
  const { t } = useT();
  const parts: GameParts = {
    board: (snapshot) => <SlotBoard snapshot={snapshot} />,
    extras: (snapshot) => <SlotRules snapshot={snapshot} />,
    describe: (round) => `${t('house.slot.spun')} ×${multiplierText(round.multiplier ?? '0')}`,
    headline: () => '',
    playLabel: t('house.slot.play'),
  };
  return <InstantGame sessionId={sessionId} engine="slot" parts={parts} />;
}
