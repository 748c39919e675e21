/*
 * Text widths without a browser: per-character advance widths of DejaVu Sans (regular and bold, in em),
 * measured once. DejaVu is wider than Helvetica, Arial and Segoe UI, so a box sized with these widths
 * holds its text in any of the fonts the charts name.
 */

// Advances of the printable ASCII characters, from ' ' (32) to '~' (126).
const REGULAR = [
  0.32, 0.4, 0.46, 0.84, 0.64, 0.95, 0.78, 0.27, 0.39, 0.39, 0.5, 0.84, 0.32, 0.36, 0.32, 0.34, 0.64, 0.64, 0.64, 0.64,
  0.64, 0.64, 0.64, 0.64, 0.64, 0.64, 0.34, 0.34, 0.84, 0.84, 0.84, 0.53, 1, 0.68, 0.69, 0.7, 0.77, 0.63, 0.58, 0.77,
  0.75, 0.29, 0.29, 0.66, 0.56, 0.86, 0.75, 0.79, 0.6, 0.79, 0.69, 0.63, 0.61, 0.73, 0.68, 0.99, 0.69, 0.61, 0.69, 0.39,
  0.34, 0.39, 0.84, 0.5, 0.5, 0.61, 0.63, 0.55, 0.63, 0.62, 0.35, 0.63, 0.63, 0.28, 0.28, 0.58, 0.28, 0.97, 0.63, 0.61,
  0.63, 0.63, 0.41, 0.52, 0.39, 0.63, 0.59, 0.82, 0.59, 0.59, 0.52, 0.64, 0.34, 0.64, 0.84,
];
const BOLD = [
  0.35, 0.46, 0.52, 0.84, 0.7, 1, 0.87, 0.31, 0.46, 0.46, 0.52, 0.84, 0.38, 0.42, 0.38, 0.37, 0.7, 0.7, 0.7, 0.7, 0.7,
  0.7, 0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.84, 0.84, 0.84, 0.58, 1, 0.77, 0.76, 0.73, 0.83, 0.68, 0.68, 0.82, 0.84, 0.37,
  0.37, 0.77, 0.64, 1, 0.84, 0.85, 0.73, 0.85, 0.77, 0.72, 0.68, 0.81, 0.77, 1.1, 0.77, 0.72, 0.73, 0.46, 0.37, 0.46,
  0.84, 0.5, 0.5, 0.67, 0.72, 0.59, 0.72, 0.68, 0.44, 0.72, 0.71, 0.34, 0.34, 0.67, 0.34, 1.04, 0.71, 0.69, 0.72, 0.72,
  0.49, 0.6, 0.48, 0.71, 0.65, 0.92, 0.65, 0.65, 0.58, 0.71, 0.37, 0.71, 0.84,
];
/** Anything else (arrows, accents, …): as wide as the widest common glyphs. */
const OTHER = 1;

export const FONT_FAMILY = "Helvetica, Arial, 'Segoe UI', 'DejaVu Sans', Verdana, sans-serif";

export interface TextStyle {
  size: number;
  bold?: boolean;
}

/** The width of one line of text, in the units of `style.size`. */
export function textWidth(text: string, style: TextStyle): number {
  const table = style.bold === true ? BOLD : REGULAR;
  let em = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    em += code >= 32 && code <= 126 ? (table[code - 32] ?? OTHER) : OTHER;
  }
  return Math.ceil(em * style.size);
}
