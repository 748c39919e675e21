import type { Chart, ChartEdge, ChartLabel, ChartNode, Point } from './layout.ts';
import { INITIAL_SIZE, LABEL_PADDING, PADDING } from './layout.ts';
import { LINE_STYLE, type Line } from './labels.ts';
import { FONT_FAMILY, textWidth } from './text.ts';

/*
 * A chart as a self-contained SVG document: no fonts, images or scripts fetched. Its look is in
 * presentation attributes, not a style sheet: the same string is written to docs/flows and shown inline by
 * the /flows screen, where a <style> would apply to the whole page (and some SVG viewers drop it).
 */

export interface SvgOptions {
  /** State ids to highlight (the live or simulated state). */
  active?: ReadonlySet<string>;
}

const COLORS = {
  text: '#0f172a',
  muted: '#475569',
  guard: '#9a3412',
  invoke: '#6d28d9',
  event: '#1e3a8a',
  border: '#64748b',
  edge: '#64748b',
  labelBorder: '#cbd5e1',
  active: '#15803d',
  activeFill: '#dcfce7',
  activeCompoundFill: '#f0fdf4',
} as const;

const FILLS = ['#f1f5f9', '#ffffff', '#f8fafc', '#ffffff'] as const;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n = (value: number) => String(Math.round(value * 10) / 10);

type Attributes = Record<string, string | number>;

function attributes(values: Attributes): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${typeof value === 'number' ? n(value) : escapeXml(value)}"`)
    .join('');
}

const TEXT_COLORS: Record<Line['kind'], string> = {
  title: COLORS.text,
  event: COLORS.event,
  guard: COLORS.guard,
  action: COLORS.muted,
  invoke: COLORS.invoke,
  note: COLORS.muted,
};

function textLines(lines: readonly Line[], x: number, top: number): string {
  let y = top;
  return lines
    .map((line) => {
      const style = LINE_STYLE[line.kind];
      // Baseline about three quarters down the line box.
      const baseline = y + style.height - (style.height - style.size) / 2 - 2;
      y += style.height;
      // Leading spaces indent: moved into x, as SVG collapses them.
      const text = line.text.trimStart();
      const indent = textWidth(line.text.slice(0, line.text.length - text.length), style);
      const look: Attributes = { 'font-size': style.size, fill: TEXT_COLORS[line.kind] };
      if (style.bold === true) look['font-weight'] = 700;
      return `<text${attributes({ class: `flow-${line.kind}`, x: x + indent, y: baseline, ...look })}>${escapeXml(text)}</text>`;
    })
    .join('');
}

function nodeSvg(node: ChartNode, active: ReadonlySet<string>): string {
  if (node.state === null) {
    const r = INITIAL_SIZE / 2;
    return `<circle${attributes({ class: 'flow-initial', cx: node.x + r, cy: node.y + r, r: r - 1, fill: COLORS.text })}><title>initial state</title></circle>`;
  }
  const state = node.state;
  const isActive = active.has(state.id);
  const classes = ['flow-state', `flow-${state.kind}`];
  if (state.region) classes.push('flow-region');
  if (isActive) classes.push('flow-active');
  const leaf = state.children.length === 0;
  const fill = isActive ? (leaf ? COLORS.activeFill : COLORS.activeCompoundFill) : (FILLS[node.depth % FILLS.length] ?? '#ffffff');
  const stroke = isActive ? COLORS.active : COLORS.border;
  const radius = state.parent === null ? 10 : 8;
  const box: Attributes = { class: 'flow-box', x: node.x, y: node.y, width: node.width, height: node.height, rx: radius, fill, stroke, 'stroke-width': isActive ? 3 : 1.5 };
  if (state.region) box['stroke-dasharray'] = '6 4';
  const parts = [`<rect${attributes(box)}/>`];
  if (state.kind === 'final') {
    parts.push(
      `<rect${attributes({ class: 'flow-inner', x: node.x + 3, y: node.y + 3, width: node.width - 6, height: node.height - 6, rx: radius - 2, fill: 'none', stroke, 'stroke-width': 1 })}/>`,
    );
  }
  const titleHeight = LINE_STYLE.title.height;
  if (node.lines.length > 1) {
    const y = node.y + PADDING.top + titleHeight + 2;
    parts.push(`<line${attributes({ x1: node.x + 1, y1: y, x2: node.x + node.width - 1, y2: y, stroke: COLORS.labelBorder, 'stroke-width': 1 })}/>`);
  }
  const [title, ...rest] = node.lines;
  if (title !== undefined) parts.push(textLines([title], node.x + PADDING.x, node.y + PADDING.top));
  if (rest.length > 0) parts.push(textLines(rest, node.x + PADDING.x, node.y + PADDING.top + titleHeight + 4));
  const description = `${state.kind === 'final' ? 'final state' : state.region ? 'parallel region' : state.kind === 'atomic' ? 'state' : `${state.kind} state`} ${state.id}${isActive ? ' (active)' : ''}`;
  return `<g${attributes({ class: classes.join(' '), 'data-state': state.id })}><title>${escapeXml(description)}</title>${parts.join('')}</g>`;
}

/** An orthogonal path with its corners rounded. */
function pathOf(points: readonly Point[]): string {
  const first = points[0];
  if (first === undefined) return '';
  const commands = [`M${n(first.x)},${n(first.y)}`];
  for (let index = 1; index < points.length; index++) {
    const point = points[index] as Point;
    const previous = points[index - 1] as Point;
    const next = points[index + 1];
    if (next === undefined) {
      commands.push(`L${n(point.x)},${n(point.y)}`);
      continue;
    }
    const radius = Math.min(6, Math.hypot(point.x - previous.x, point.y - previous.y) / 2, Math.hypot(next.x - point.x, next.y - point.y) / 2);
    const towards = (from: Point, to: Point, distance: number): Point => {
      const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
      return { x: from.x + ((to.x - from.x) / length) * distance, y: from.y + ((to.y - from.y) / length) * distance };
    };
    const before = towards(point, previous, radius);
    const after = towards(point, next, radius);
    commands.push(`L${n(before.x)},${n(before.y)}`, `Q${n(point.x)},${n(point.y)} ${n(after.x)},${n(after.y)}`);
  }
  return commands.join(' ');
}

function labelSvg(label: ChartLabel): string {
  const box = { x: label.x, y: label.y, width: label.width, height: label.height, rx: 4, fill: '#ffffff', stroke: COLORS.labelBorder, 'stroke-width': 1 };
  return `<g class="flow-label"><rect${attributes(box)}/>${textLines(label.lines, label.x + LABEL_PADDING.x, label.y + LABEL_PADDING.y)}</g>`;
}

function edgeSvg(edge: ChartEdge, arrowId: string): string {
  const fromInitial = edge.transition === null;
  const group = { class: fromInitial ? 'flow-edge flow-from-initial' : 'flow-edge', 'data-source': edge.source, 'data-target': edge.target };
  const path = { d: pathOf(edge.points), fill: 'none', stroke: fromInitial ? COLORS.text : COLORS.edge, 'stroke-width': 1.5, 'marker-end': `url(#${arrowId})` };
  return `<g${attributes(group)}><path${attributes(path)}/>${edge.label === null ? '' : labelSvg(edge.label)}</g>`;
}

/** The chart as an SVG document (also valid inline in HTML). */
export function chartSvg(chart: Chart, options: SvgOptions = {}): string {
  const active = options.active ?? new Set<string>();
  const arrowId = `flow-arrow-${chart.id}`;
  const width = n(chart.width);
  const height = n(chart.height);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="flow-chart" data-machine="${escapeXml(chart.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="flow-title-${escapeXml(chart.id)}" font-family="${escapeXml(FONT_FAMILY)}">`,
    `<title id="flow-title-${escapeXml(chart.id)}">Flow chart of the ${escapeXml(chart.id)} machine</title>`,
    `<defs><marker id="${arrowId}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,1 L9,5 L0,9 z" fill="${COLORS.edge}"/></marker></defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...chart.nodes.map((node) => nodeSvg(node, active)),
    ...chart.edges.map((edge) => edgeSvg(edge, arrowId)),
    '</svg>',
    '',
  ].join('\n');
}
