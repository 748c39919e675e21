import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { styled } from 'goober';
import { Link, useSearch } from 'wouter';
import type { AnyMachineSnapshot } from 'xstate';
import { machineChart, type MachineChart } from '../../flows/chart.ts';
import {
  activeStateIds,
  simulatorChoices,
  startSimulation,
  stepSimulation,
  valueText,
  type Choice,
  type SimulatorFixtures,
} from '../../flows/simulate.ts';
import { chartSvg } from '../../flows/svg.ts';
import { machines, type MachineName } from '../../machines/index.ts';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme.ts';
import { liveStates, requestLiveStates, subscribeLiveStates } from './inspector.ts';

/*
 * /flows: the flow charts of every machine, for product reviewers (docs/flows has the same charts). The
 * chosen machine's running actor is highlighted live, from this tab or another one (inspector.ts); the
 * simulator steps a copy of the machine instead, nothing run. A reviewers' tool, not a player screen:
 * its text is English only, on purpose, and not in the src/i18n dictionaries.
 */

const NAMES = Object.keys(machines) as MachineName[];

function isMachineName(value: string | null): value is MachineName {
  return value !== null && (NAMES as string[]).includes(value);
}

const charts = new Map<MachineName, Promise<MachineChart>>();

/** Charts are laid out once per machine and visit: the machines do not change while the app runs. */
function loadChart(name: MachineName): Promise<MachineChart> {
  let chart = charts.get(name);
  if (chart === undefined) {
    chart = machineChart(machines[name]);
    charts.set(name, chart);
    chart.catch(() => charts.delete(name));
  }
  return chart;
}

type ChartResult = { name: MachineName; chart: MachineChart } | { name: MachineName; error: string };

function useChart(name: MachineName): ChartResult | null {
  const [result, setResult] = useState<ChartResult | null>(null);
  useEffect(() => {
    let current = true;
    loadChart(name).then(
      (chart) => current && setResult({ name, chart }),
      (error: unknown) => current && setResult({ name, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [name]);
  return result?.name === name ? result : null;
}

type AllFixtures = Partial<Record<MachineName, SimulatorFixtures>>;

/** The model tests' fixtures, loaded only when the simulator is first used. */
function useFixtures(wanted: boolean): AllFixtures | null {
  const [fixtures, setFixtures] = useState<AllFixtures | null>(null);
  useEffect(() => {
    if (!wanted || fixtures !== null) return;
    let current = true;
    import('../../flows/fixtures/index.ts').then(
      (module) => current && setFixtures(module.flowFixtures as AllFixtures),
      () => current && setFixtures({}),
    );
    return () => {
      current = false;
    };
  }, [wanted, fixtures]);
  return fixtures;
}

interface Step {
  label: string;
  value: string;
}

interface Simulation {
  name: MachineName;
  inputName: string | null;
  snapshot: AnyMachineSnapshot | null;
  steps: Step[];
  error: string | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function inputOf(fixtures: SimulatorFixtures | undefined, inputName: string | null): unknown {
  if (inputName !== null && fixtures?.inputs !== undefined && Object.hasOwn(fixtures.inputs, inputName)) return fixtures.inputs[inputName];
  // Machines whose context reads an input get at least an empty one.
  return fixtures?.input ?? {};
}

function start(name: MachineName, fixtures: SimulatorFixtures | undefined, inputName: string | null): Simulation {
  try {
    const snapshot = startSimulation(machines[name], inputOf(fixtures, inputName));
    return { name, inputName, snapshot, steps: [{ label: 'start', value: valueText(snapshot.value) }], error: null };
  } catch (error) {
    return { name, inputName, snapshot: null, steps: [], error: `The machine could not start: ${message(error)}` };
  }
}

const Page = styled('section')`
  padding: ${theme.space(5)} ${theme.space(4)} ${theme.space(10)};
  h1 {
    font-size: ${theme.font.size.title};
    margin: 0 0 ${theme.space(2)};
  }
  h2 {
    font-size: ${theme.font.size.large};
    margin: 0;
  }
  h3 {
    font-size: ${theme.font.size.body};
    margin: ${theme.space(3)} 0 ${theme.space(2)};
  }
`;

const Columns = styled('div')`
  display: grid;
  gap: ${theme.space(4)};
  grid-template-columns: minmax(0, 1fr);
  ${theme.breakpoint.desktop} {
    grid-template-columns: 14rem minmax(0, 1fr);
  }
`;

const MachineList = styled('nav')`
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(1)};
    ${theme.breakpoint.desktop} {
      flex-direction: column;
    }
  }
  a {
    display: block;
    color: ${theme.color.textMuted};
    text-decoration: none;
    padding: ${theme.space(2)} ${theme.space(3)};
    border-radius: ${theme.radius.medium};
    border: 1px solid ${theme.color.border};
  }
  a[aria-current='page'] {
    background: ${theme.color.accentStrong};
    color: ${theme.color.accentText};
    border-color: transparent;
  }
`;

const Toolbar = styled('div')`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space(3)};
  margin-bottom: ${theme.space(3)};
  [role='group'] {
    display: flex;
    gap: ${theme.space(2)};
  }
  button[aria-pressed='true'] {
    background: ${theme.color.accentStrong};
    border-color: transparent;
  }
  label {
    display: flex;
    gap: ${theme.space(2)};
    align-items: center;
    color: ${theme.color.textMuted};
  }
`;

const Status = styled('p')`
  color: ${theme.color.textMuted};
  margin: 0 0 ${theme.space(3)};
  code {
    color: ${theme.color.success};
    font-weight: 600;
  }
`;

const Panel = styled('div')`
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.large};
  background: ${theme.color.surface};
  padding: ${theme.space(3)} ${theme.space(4)};
  margin-bottom: ${theme.space(3)};
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space(2)};
  }
  ol {
    margin: 0;
    padding-left: ${theme.space(5)};
    color: ${theme.color.textMuted};
  }
  select {
    font: inherit;
    padding: ${theme.space(1)};
  }
`;

/** Compact, as a machine can offer a dozen examples of one event. */
const ChoiceButton = styled('button')`
  font: inherit;
  font-size: ${theme.font.size.small};
  font-weight: 600;
  color: ${theme.color.text};
  background: ${theme.color.surfaceRaised};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.small};
  padding: ${theme.space(1)} ${theme.space(2)};
  cursor: pointer;
  span {
    font-weight: 400;
    color: ${theme.color.textMuted};
    margin-left: ${theme.space(1.5)};
  }
  &:hover {
    border-color: ${theme.color.accent};
  }
  &:focus-visible {
    outline: 2px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const ChartBox = styled('div')`
  overflow: auto;
  background: #ffffff;
  border-radius: ${theme.radius.large};
  border: 1px solid ${theme.color.border};
  &[data-fit='true'] svg {
    max-width: 100%;
    height: auto;
  }
  svg {
    display: block;
  }
`;

const KIND_TITLES: Record<Choice['kind'], string> = {
  event: 'Events',
  after: 'Time',
  done: 'Operation succeeds',
  error: 'Operation fails',
};

function SimulatorPanel({
  simulation,
  choices,
  inputNames,
  onStep,
  onRestart,
}: {
  simulation: Simulation;
  choices: Choice[];
  inputNames: string[];
  onStep(choice: Choice): void;
  onRestart(inputName: string | null): void;
}) {
  const groups = (['event', 'after', 'done', 'error'] as const)
    .map((kind) => ({ kind, choices: choices.filter((choice) => choice.kind === kind) }))
    .filter((group) => group.choices.length > 0);
  const finished = simulation.snapshot !== null && simulation.snapshot.status !== 'active';
  return (
    <Panel aria-label="Simulator" role="region">
      <Toolbar>
        {inputNames.length > 0 && (
          <label>
            Start with
            <select value={simulation.inputName ?? inputNames[0]} onChange={(event) => onRestart(event.target.value)}>
              {inputNames.map((inputName) => (
                <option key={inputName} value={inputName}>
                  {inputName}
                </option>
              ))}
            </select>
          </label>
        )}
        <Button variant="secondary" type="button" onClick={() => onRestart(simulation.inputName)}>
          Restart
        </Button>
      </Toolbar>
      {simulation.error !== null && <Status role="alert">{simulation.error}</Status>}
      {finished && <Status>The flow has finished: it is in a final state.</Status>}
      {!finished && simulation.snapshot !== null && groups.length === 0 && <Status>Nothing can happen in this state.</Status>}
      {groups.map((group) => (
        <div key={group.kind}>
          <h3>{KIND_TITLES[group.kind]}</h3>
          <ul>
            {group.choices.map((choice, index) => (
              <li key={`${choice.event.type}-${index}`}>
                <ChoiceButton type="button" onClick={() => onStep(choice)}>
                  {choice.label}
                  {choice.detail !== '' && <span>{choice.detail}</span>}
                </ChoiceButton>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <h3>Steps</h3>
      <ol>
        {simulation.steps.map((step, index) => (
          <li key={index}>
            {step.label} → <code>{step.value}</code>
          </li>
        ))}
      </ol>
    </Panel>
  );
}

export default function FlowsScreen() {
  const requested = new URLSearchParams(useSearch()).get('machine');
  const name: MachineName = isMachineName(requested) ? requested : (NAMES[0] ?? 'app');
  const result = useChart(name);
  const live = useSyncExternalStore(subscribeLiveStates, liveStates);
  const [simulating, setSimulating] = useState(false);
  const [fit, setFit] = useState(false);
  const fixtures = useFixtures(simulating);
  const [simulation, setSimulation] = useState<Simulation | null>(null);
  const machineFixtures = fixtures?.[name];

  useEffect(() => requestLiveStates(), []);

  // A new simulation whenever the simulator is opened, or another machine is chosen in it.
  useEffect(() => {
    if (!simulating || fixtures === null) return;
    setSimulation((current) => (current !== null && current.name === name ? current : start(name, machineFixtures, firstInput(machineFixtures))));
  }, [simulating, fixtures, name, machineFixtures]);

  const chart = result !== null && 'chart' in result ? result.chart : null;
  const current = simulating && simulation?.name === name ? simulation : null;
  const liveValue = live[name];
  const value = simulating ? (current?.snapshot?.value ?? null) : (liveValue ?? null);
  const activeKey = value === null ? '' : JSON.stringify(value);

  const svg = useMemo(() => {
    if (chart === null) return '';
    const active = value === null ? new Set<string>() : activeStateIds(chart.graph, value);
    return chartSvg(chart.chart, { active });
    // activeKey stands for value: the same state in a new object draws the same chart.
  }, [chart, activeKey]);

  const choices = useMemo(
    () => (chart !== null && current?.snapshot != null ? simulatorChoices(chart.graph, current.snapshot, machineFixtures ?? null) : []),
    [chart, current, machineFixtures],
  );

  const step = (choice: Choice) => {
    if (current === null || current.snapshot === null) return;
    try {
      const next = stepSimulation(machines[name], current.snapshot, choice.event);
      const label = choice.detail === '' ? choice.label : `${choice.label} (${choice.detail})`;
      setSimulation({ ...current, snapshot: next, steps: [...current.steps, { label, value: valueText(next.value) }], error: null });
    } catch (error) {
      setSimulation({ ...current, error: `${choice.label} failed in the machine: ${message(error)}` });
    }
  };

  return (
    <Page aria-labelledby="flows-title">
      <h1 id="flows-title">Flow charts</h1>
      <Status>Every state machine of the app. Charts are also in docs/flows (npm run flows).</Status>
      <Columns>
        <MachineList aria-label="Machines">
          <ul>
            {NAMES.map((candidate) => (
              <li key={candidate}>
                <Link href={`/flows?machine=${candidate}`} aria-current={candidate === name ? 'page' : undefined}>
                  {candidate}
                </Link>
              </li>
            ))}
          </ul>
        </MachineList>
        <div>
          <Toolbar>
            <h2>{name}</h2>
            <div role="group" aria-label="Mode">
              <Button variant="secondary" type="button" aria-pressed={!simulating} onClick={() => setSimulating(false)}>
                Live
              </Button>
              <Button variant="secondary" type="button" aria-pressed={simulating} onClick={() => setSimulating(true)}>
                Simulator
              </Button>
            </div>
            <label>
              <input type="checkbox" checked={fit} onChange={(event) => setFit(event.target.checked)} />
              Fit to width
            </label>
          </Toolbar>
          <Status role="status">
            {simulating ? (
              current?.snapshot != null ? (
                <>
                  Simulated state: <code>{valueText(current.snapshot.value)}</code>
                </>
              ) : (
                'Starting the simulator…'
              )
            ) : liveValue !== undefined ? (
              <>
                Live state: <code>{valueText(liveValue)}</code>
              </>
            ) : (
              `No running ${name} flow seen yet: use the app in this tab or another one, and its state shows here.`
            )}
          </Status>
          {current !== null && (
            <SimulatorPanel
              simulation={current}
              choices={choices}
              inputNames={Object.keys(machineFixtures?.inputs ?? {})}
              onStep={step}
              onRestart={(inputName) => setSimulation(start(name, machineFixtures, inputName))}
            />
          )}
          {result === null && <Status>Drawing the chart…</Status>}
          {result !== null && 'error' in result && <Status role="alert">The chart could not be drawn: {result.error}</Status>}
          {/* The SVG is built by src/flows/svg.ts from the machine's own names, every text escaped: no outside HTML. */}
          {chart !== null && <ChartBox data-fit={fit} data-testid="flow-chart" dangerouslySetInnerHTML={{ __html: svg }} />}
        </div>
      </Columns>
    </Page>
  );
}

function firstInput(fixtures: SimulatorFixtures | undefined): string | null {
  return Object.keys(fixtures?.inputs ?? {})[0] ?? null;
}
