import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { machineChart, type MachineChart } from '../../src/flows/chart.ts';
import { flowDocs, FLOWS_DIR } from '../../src/flows/docs.ts';
import { linesSize } from '../../src/flows/labels.ts';
import type { Box } from '../../src/flows/layout.ts';
import { PADDING } from '../../src/flows/layout.ts';
import { operationOf } from '../../src/flows/operations.ts';
import { chartSvg } from '../../src/flows/svg.ts';
import { machines } from '../../src/machines/index.ts';

/*
 * The committed charts (docs/flows) against the machines, and every chart's geometry: a reviewer must be
 * able to read each label, so no label may lie on another or on a state.
 */

const charts = new Map<string, MachineChart>();

beforeAll(async () => {
  for (const [name, machine] of Object.entries(machines)) charts.set(name, await machineChart(machine));
});

function overlap(a: Box, b: Box): boolean {
  // Touching edges are no overlap; a tenth of a pixel is rounding.
  const epsilon = 0.1;
  return a.x + a.width > b.x + epsilon && b.x + b.width > a.x + epsilon && a.y + a.height > b.y + epsilon && b.y + b.height > a.y + epsilon;
}

describe('docs/flows', () => {
  it('is up to date with the machines (else: run npm run flows)', async () => {
    const expected = await flowDocs(machines);
    const stale: string[] = [];
    for (const [path, content] of expected) {
      let committed: string | null;
      try {
        committed = readFileSync(path, 'utf8');
      } catch {
        committed = null;
      }
      if (committed !== content) stale.push(committed === null ? `${path} (missing)` : path);
    }
    let present: string[] = [];
    try {
      present = readdirSync(FLOWS_DIR).map((name) => join(FLOWS_DIR, name));
    } catch {
      present = [];
    }
    for (const path of present) if (path.endsWith('.svg') && !expected.has(path)) stale.push(`${path} (no such machine)`);
    expect(stale, `docs/flows is stale, run npm run flows: ${stale.join(', ')}`).toEqual([]);
  });

  it('is the same, byte for byte, every time it is made', async () => {
    const first = await machineChart(machines.app);
    const second = await machineChart(machines.app);
    expect(chartSvg(second.chart)).toBe(chartSvg(first.chart));
  });
});

describe('operations', () => {
  it('names the operation of every actor a machine declares or invokes', () => {
    const missing: string[] = [];
    for (const [name, machine] of Object.entries(machines)) {
      const declared = Object.keys(machine.implementations.actors);
      const invoked = charts.get(name)?.graph.invoked ?? [];
      for (const src of new Set([...declared, ...invoked])) if (operationOf(src) === undefined) missing.push(`${name}: ${src}`);
    }
    expect(missing, 'add them to src/flows/operations.ts').toEqual([]);
  });
});

describe('every chart', () => {
  it('has a chart per machine, keyed by the machine id', () => {
    for (const [name, machine] of Object.entries(machines)) {
      expect(machine.id).toBe(name);
      expect(charts.get(name)?.chart.id).toBe(name);
    }
  });

  it('draws every state and every transition', () => {
    for (const [name, { graph, chart }] of charts) {
      const drawn = new Set(chart.nodes.flatMap((node) => (node.state === null ? [] : [node.state.id])));
      expect([...drawn].sort(), name).toEqual(graph.states.map((state) => state.id).sort());
      const targets = graph.edges.reduce((sum, transition) => sum + transition.targets.length, 0);
      const edges = chart.edges.filter((edge) => edge.transition !== null);
      expect(edges, name).toHaveLength(targets);
      for (const edge of edges) {
        expect(edge.points.length, `${name} ${edge.id}`).toBeGreaterThanOrEqual(2);
        expect(edge.label, `${name} ${edge.id}`).not.toBeNull();
      }
    }
  });

  it('keeps edge labels apart from each other', () => {
    for (const [name, { chart }] of charts) {
      const labels = chart.edges.flatMap((edge) => (edge.label === null ? [] : [{ id: edge.id, box: edge.label }]));
      for (const [index, a] of labels.entries()) {
        for (const b of labels.slice(index + 1)) {
          expect(overlap(a.box, b.box), `${name}: labels of ${a.id} and ${b.id} overlap`).toBe(false);
        }
      }
    }
  });

  it('keeps edge labels off the states: leaf boxes, compound headers and initial markers', () => {
    for (const [name, { chart }] of charts) {
      const obstacles = chart.nodes.map((node): { id: string; box: Box } => {
        const leaf = node.state === null || node.state.children.length === 0;
        return { id: node.id, box: leaf ? node : { x: node.x, y: node.y, width: node.width, height: node.headerHeight } };
      });
      for (const edge of chart.edges) {
        if (edge.label === null) continue;
        for (const obstacle of obstacles) {
          expect(overlap(edge.label, obstacle.box), `${name}: label of ${edge.id} overlaps ${obstacle.id}`).toBe(false);
        }
      }
    }
  });

  it('keeps every label and state inside the chart, each big enough for its text', () => {
    for (const [name, { chart }] of charts) {
      const boxes: { id: string; box: Box }[] = [
        ...chart.nodes.map((node) => ({ id: node.id, box: node as Box })),
        ...chart.edges.flatMap((edge) => (edge.label === null ? [] : [{ id: `${edge.id} label`, box: edge.label as Box }])),
      ];
      for (const { id, box } of boxes) {
        expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= chart.width && box.y + box.height <= chart.height, `${name}: ${id}`).toBe(true);
      }
      for (const node of chart.nodes) {
        if (node.state === null) continue;
        const text = linesSize(node.lines);
        expect(node.width, `${name}: ${node.id} width`).toBeGreaterThanOrEqual(text.width + 2 * PADDING.x);
        expect(node.height, `${name}: ${node.id} height`).toBeGreaterThanOrEqual(text.height + PADDING.top);
      }
      for (const edge of chart.edges) {
        if (edge.label === null) continue;
        const text = linesSize(edge.label.lines);
        expect(edge.label.width, `${name}: ${edge.id}`).toBeGreaterThanOrEqual(text.width);
        expect(edge.label.height, `${name}: ${edge.id}`).toBeGreaterThanOrEqual(text.height);
      }
    }
  });

  it('nests each state inside its parent', () => {
    for (const [name, { chart }] of charts) {
      const byId = new Map(chart.nodes.map((node) => [node.id, node]));
      for (const node of chart.nodes) {
        const parentId = node.state === null ? node.id.replace(/#initial$/, '') : node.state.parent;
        if (parentId === null) continue;
        const parent = byId.get(parentId);
        expect(parent, `${name}: ${node.id}`).toBeDefined();
        if (parent === undefined) continue;
        const inside =
          node.x >= parent.x && node.y >= parent.y + parent.headerHeight && node.x + node.width <= parent.x + parent.width && node.y + node.height <= parent.y + parent.height;
        expect(inside, `${name}: ${node.id} inside ${parentId}`).toBe(true);
      }
    }
  });

  it('is a self-contained SVG document: no scripts, no external references', () => {
    for (const [name, { chart }] of charts) {
      const svg = chartSvg(chart);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), name).toBe(true);
      expect(svg, name).not.toMatch(/<script|href=|@import|url\((?!#)/i);
    }
  });
});
