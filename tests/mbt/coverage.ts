import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Each machine's model test writes what its paths covered to test-results/mbt/<machine>.json;
 * `npm run test:mbt` (scripts/mbt-table.mjs) gathers them into test-results/mbt-coverage.json and prints
 * the table.
 */

export const REPORT_DIR = join(process.cwd(), 'test-results', 'mbt');

export interface MachineReport {
  machine: string;
  states: { covered: number; total: number };
  transitions: { covered: number; total: number };
  paths: number;
  /** Steps over all paths (events sent, answers settled, delays elapsed). */
  steps: number;
  /** Building the model and its paths, then from the first path's start to the gate. */
  ms: number;
  uncoveredStates: string[];
  uncoveredTransitions: string[];
  /** Targets (transitions, with actor outcomes) the model itself cannot reach with its fixtures and filters. */
  unreachable: string[];
}

export function writeMachineReport(report: MachineReport): void {
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(join(REPORT_DIR, `${report.machine}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

export function readMachineReports(): MachineReport[] {
  let files: string[] = [];
  try {
    files = readdirSync(REPORT_DIR).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((file) => JSON.parse(readFileSync(join(REPORT_DIR, file), 'utf8')) as MachineReport);
}

export function clearMachineReports(): void {
  rmSync(REPORT_DIR, { recursive: true, force: true });
}
