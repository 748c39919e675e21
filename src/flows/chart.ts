import type { AnyStateMachine } from 'xstate';
import { machineGraph, type FlowGraph } from './graph.ts';
import { layoutGraph, type Chart } from './layout.ts';

export interface MachineChart {
  graph: FlowGraph;
  chart: Chart;
}

/** A machine's graph and its laid-out chart; draw it with chartSvg. */
export async function machineChart(machine: AnyStateMachine): Promise<MachineChart> {
  const graph = machineGraph(machine);
  return { graph, chart: await layoutGraph(graph) };
}
