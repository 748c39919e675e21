import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';

/*
 * The game covers' lettering as vector outlines (Roboto Bold, from @fontsource/roboto), not SVG text: a
 * browser draws each SVG image in a document of its own on its main thread, and laying text out there
 * (finding the font, shaping) is most of that work, so a grid scrolled through thousands of covers stalls
 * on it. Outlines need no font in the browser and look the same everywhere.
 */

const FONT_FILE = '@fontsource/roboto/files/roboto-latin-700-normal.woff';

let font: opentype.Font | null | undefined;

function loadFont(): opentype.Font | null {
  if (font === undefined) {
    try {
      const bytes = readFileSync(createRequire(import.meta.url).resolve(FONT_FILE));
      font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    } catch {
      // Without the font file the covers keep their text as SVG text.
      font = null;
    }
  }
  return font;
}

/**
 * The outline of one line of text, centred on `centreX` with its baseline at `baselineY`, at `fontSize`
 * or smaller so that it is at most `maxWidth` wide, as SVG path data; null when the font lacks one of
 * its characters (the caller then writes the line as SVG text).
 */
export function textOutline(text: string, centreX: number, baselineY: number, fontSize: number, maxWidth: number): string | null {
  const loaded = loadFont();
  if (!loaded || text === '') return null;
  for (const char of text) {
    if (char !== ' ' && loaded.charToGlyph(char).index === 0) return null;
  }
  const width = loaded.getAdvanceWidth(text, fontSize);
  const size = width > maxWidth ? (fontSize * maxWidth) / width : fontSize;
  const x = centreX - loaded.getAdvanceWidth(text, size) / 2;
  return loaded.getPath(text, x, baselineY, size).toPathData(0);
}
