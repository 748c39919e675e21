import type { ElkExtendedEdge, ElkLabel, ElkNode } from 'elkjs/lib/elk-api';
import type { FlowGraph, FlowState, FlowTransition } from './graph.ts';
import { edgeLines, linesSize, stateLines, type Line } from './labels.ts';

/*
 * A chart's geometry, by ELK's layered algorithm: left to right, compound states as boxes holding their
 * children, edge labels placed by ELK beside their edges so that they keep clear of boxes and of each
 * other. Every coordinate is absolute (ELK's ROOT coordinates), ready to draw.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartNode extends Box {
  id: string;
  /** The state shown, or null for an initial-state marker. */
  state: FlowState | null;
  lines: Line[];
  /** The height of the header (title and lines) at the top of the box. */
  headerHeight: number;
  depth: number;
}

export interface ChartLabel extends Box {
  lines: Line[];
}

export interface ChartEdge {
  id: string;
  /** The transition drawn, or null for the arrow from an initial marker. */
  transition: FlowTransition | null;
  source: string;
  target: string;
  points: Point[];
  label: ChartLabel | null;
}

export interface Chart {
  id: string;
  width: number;
  height: number;
  /** Parents before children, so drawing in order keeps children on top. */
  nodes: ChartNode[];
  edges: ChartEdge[];
}

export const PADDING = { x: 12, top: 8, bottom: 10 } as const;
const CHILDREN_GAP = 14;
const MARGIN = 16;
export const INITIAL_SIZE = 12;
export const LABEL_PADDING = { x: 6, y: 3 } as const;
const EDGE_GAP = 10;

/** Options of the layout as a whole, repeated on every compound node (ELK reads some per graph level). */
const LAYERED_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.edgeLabels.inline': 'true',
  'elk.layered.edgeLabels.sideSelection': 'SMART_DOWN',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.spacing.nodeNode': '28',
  'elk.layered.spacing.nodeNodeBetweenLayers': '36',
  'elk.spacing.edgeNode': '14',
  'elk.layered.spacing.edgeNodeBetweenLayers': '14',
  'elk.spacing.edgeEdge': '12',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '10',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.labelLabel': '6',
  'elk.spacing.labelNode': '6',
  'elk.spacing.componentComponent': '28',
};

const ROOT_OPTIONS: Record<string, string> = {
  ...LAYERED_OPTIONS,
  'elk.json.shapeCoords': 'ROOT',
  'elk.json.edgeCoords': 'ROOT',
  'elk.padding': `[top=${MARGIN},left=${MARGIN},bottom=${MARGIN},right=${MARGIN}]`,
};

interface ElkLayout {
  layout(graph: ElkNode): Promise<ElkNode>;
}

let elkInstance: Promise<ElkLayout> | null = null;

/** ELK is big (1.6 MB): loaded on first use, so the /flows screen's own chunk stays small. */
function elk(): Promise<ElkLayout> {
  elkInstance ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
  return elkInstance;
}

function edgeLabel(lines: Line[]): ElkLabel {
  const size = linesSize(lines);
  return {
    layoutOptions: { 'elk.edgeLabels.inline': 'true', 'elk.edgeLabels.placement': 'CENTER' },
    text: lines.map((line) => line.text).join('\n'),
    width: size.width + 2 * LABEL_PADDING.x,
    height: size.height + 2 * LABEL_PADDING.y,
  };
}

interface EdgeInfo {
  transition: FlowTransition | null;
  lines: Line[];
  /** Laid out from target to source (see buildElkGraph). */
  reversed: boolean;
}

interface NodeInfo {
  state: FlowState | null;
  lines: Line[];
  headerHeight: number;
  depth: number;
}

function buildElkGraph(graph: FlowGraph): { root: ElkNode; info: Map<string, NodeInfo>; edges: Map<string, EdgeInfo> } {
  const byId = new Map(graph.states.map((state) => [state.id, state]));
  const info = new Map<string, NodeInfo>();
  const edgeInfo = new Map<string, EdgeInfo>();
  const elkEdges: ElkExtendedEdge[] = [];

  // A box many edges reach is made tall enough for them to arrive apart.
  const degree = new Map<string, { in: number; out: number }>();
  const count = (id: string, side: 'in' | 'out') => {
    const entry = degree.get(id) ?? { in: 0, out: 0 };
    entry[side] += 1;
    degree.set(id, entry);
  };
  for (const transition of graph.edges) {
    for (const target of transition.targets) {
      count(transition.source, 'out');
      count(target, 'in');
    }
  }

  const nodeOf = (state: FlowState, depth: number): ElkNode => {
    const lines = stateLines(state);
    const size = linesSize(lines);
    const headerHeight = size.height + PADDING.top + PADDING.bottom;
    const width = size.width + 2 * PADDING.x;
    info.set(state.id, { state, lines, headerHeight, depth });
    const children = state.children.flatMap((id) => {
      const child = byId.get(id);
      return child === undefined ? [] : [nodeOf(child, depth + 1)];
    });
    if (state.initial !== null) {
      const markerId = `${state.id}#initial`;
      info.set(markerId, { state: null, lines: [], headerHeight: 0, depth: depth + 1 });
      children.unshift({ id: markerId, width: INITIAL_SIZE, height: INITIAL_SIZE });
      const edgeId = `${state.id}#initial-edge`;
      edgeInfo.set(edgeId, { transition: null, lines: [], reversed: false });
      elkEdges.push({ id: edgeId, sources: [markerId], targets: [state.initial] });
    }
    if (children.length === 0) {
      const edges = degree.get(state.id) ?? { in: 0, out: 0 };
      const height = Math.max(headerHeight, 40, EDGE_GAP * Math.max(edges.in, edges.out) + 12);
      return { id: state.id, width: Math.max(width, 96), height };
    }
    return {
      id: state.id,
      children,
      layoutOptions: {
        'elk.padding': `[top=${headerHeight + CHILDREN_GAP / 2},left=${CHILDREN_GAP},bottom=${CHILDREN_GAP},right=${CHILDREN_GAP}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${width}, ${headerHeight + 2 * CHILDREN_GAP})`,
      },
    };
  };

  const rootState = graph.states.find((state) => state.parent === null);
  if (rootState === undefined) throw new Error(`machine ${graph.id} has no root state`);
  const machineNode = nodeOf(rootState, 0);

  /*
   * States are written in the order a flow goes through them (editing, submitting, failed, done): an edge
   * to an earlier state is handed to ELK reversed, and drawn back the right way, so the happy path reads
   * left to right. (ELK's own model-order cycle breakers fail on nested graphs.)
   */
  const order = new Map(graph.states.map((state, index) => [state.id, index]));
  for (const transition of graph.edges) {
    transition.targets.forEach((target, index) => {
      const id = index === 0 ? transition.id : `${transition.id}.${index}`;
      const lines = edgeLines(transition);
      const reversed = (order.get(target) ?? 0) < (order.get(transition.source) ?? 0);
      edgeInfo.set(id, { transition, lines, reversed });
      elkEdges.push({
        id,
        sources: [reversed ? target : transition.source],
        targets: [reversed ? transition.source : target],
        labels: [{ id: `${id}#label`, ...edgeLabel(lines) }],
      });
    });
  }
  return { root: { id: '#chart', layoutOptions: ROOT_OPTIONS, children: [machineNode], edges: elkEdges }, info, edges: edgeInfo };
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Lays a machine's graph out. Deterministic: the same graph always gives the same chart. */
export async function layoutGraph(graph: FlowGraph): Promise<Chart> {
  const { root, info, edges: edgeInfo } = buildElkGraph(graph);
  const laidOut = await (await elk()).layout(root);

  const nodes: ChartNode[] = [];
  const collect = (node: ElkNode) => {
    const data = info.get(node.id);
    if (data !== undefined) {
      nodes.push({
        id: node.id,
        state: data.state,
        lines: data.lines,
        headerHeight: data.headerHeight,
        depth: data.depth,
        x: round(node.x ?? 0),
        y: round(node.y ?? 0),
        width: round(node.width ?? 0),
        height: round(node.height ?? 0),
      });
    }
    for (const child of node.children ?? []) collect(child);
  };
  collect(laidOut);

  const edges: ChartEdge[] = [];
  const collectEdges = (node: ElkNode) => {
    for (const edge of node.edges ?? []) {
      const data = edgeInfo.get(edge.id);
      if (data === undefined) continue;
      const points: Point[] = [];
      for (const section of edge.sections ?? []) {
        for (const point of [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]) {
          const last = points[points.length - 1];
          if (last === undefined || last.x !== round(point.x) || last.y !== round(point.y)) points.push({ x: round(point.x), y: round(point.y) });
        }
      }
      const label = edge.labels?.[0];
      const [from, to] = data.reversed ? [edge.targets[0], edge.sources[0]] : [edge.sources[0], edge.targets[0]];
      edges.push({
        id: edge.id,
        transition: data.transition,
        source: from ?? '',
        target: to ?? '',
        points: data.reversed ? points.reverse() : points,
        label:
          label === undefined || data.lines.length === 0
            ? null
            : { lines: data.lines, x: round(label.x ?? 0), y: round(label.y ?? 0), width: round(label.width ?? 0), height: round(label.height ?? 0) },
      });
    }
    for (const child of node.children ?? []) collectEdges(child);
  };
  collectEdges(laidOut);

  return { id: graph.id, width: round(laidOut.width ?? 0), height: round(laidOut.height ?? 0), nodes, edges };
}

