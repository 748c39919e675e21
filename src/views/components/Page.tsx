import { styled } from 'goober';
import { Link } from 'wouter';
import { theme } from '../theme.ts';

/*
 * Pieces the player's pages share (the bet history, the bonuses, refer a friend, responsible gambling,
 * the game page). Not in the first load: each page that uses them is a lazy chunk.
 */

/** A link that looks like the product's primary button (an empty list's way on, the Originals). */
export const ButtonLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 2.75rem;
  padding: ${theme.space(2.5)} ${theme.space(4)};
  border-radius: ${theme.radius.medium};
  background: ${theme.color.accentStrong};
  color: ${theme.color.accentText};
  font-weight: 600;
  text-decoration: none;
  &:hover {
    filter: brightness(1.15);
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

/** A page's cards, one under the other. */
export const Cards = styled('div')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(4)};
  max-width: 56rem;
`;

/** One card of a page: a titled section on the surface colour. */
export const Card = styled('section')`
  display: flex;
  flex-direction: column;
  gap: ${theme.space(3)};
  padding: ${theme.space(4)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  background: ${theme.color.surface};
  min-width: 0;
  h2 {
    margin: 0;
    font-size: ${theme.font.size.large};
  }
  p {
    margin: 0;
  }
  .muted {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.small};
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
    align-items: center;
  }
`;
