// @vitest-environment happy-dom
import { createElement } from 'react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setup as setupGoober } from 'goober';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor } from 'xstate';
import { loginMachine } from '../../../src/machines/login.machine.ts';
import { registerMachine } from '../../../src/machines/register.machine.ts';
import FlowsScreen from '../../../src/views/flows/FlowsScreen.tsx';
import { flowInspector, liveStates, withFlowInspector } from '../../../src/views/flows/inspector.ts';

setupGoober(createElement);
afterEach(cleanup);

function renderFlows(path = '/flows') {
  const memory = memoryLocation({ path, record: true });
  const user = userEvent.setup();
  render(
    <Router hook={memory.hook} searchHook={memory.searchHook}>
      <FlowsScreen />
    </Router>,
  );
  return { memory, user };
}

function chart(): HTMLElement {
  return screen.getByTestId('flow-chart');
}

function activeStates(): string[] {
  return [...chart().querySelectorAll('[class~="flow-active"]')].map((node) => node.getAttribute('data-state') ?? '');
}

describe('FlowsScreen', () => {
  it('lists every machine and draws the chosen one', async () => {
    const { user } = renderFlows('/flows?machine=login');
    const list = screen.getByRole('navigation', { name: 'Machines' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(expect.arrayContaining(['app', 'login', 'register']));
    expect(within(list).getByRole('link', { name: 'login' }).getAttribute('aria-current')).toBe('page');
    await waitFor(() => expect(chart().querySelector('svg[data-machine="login"]')).not.toBeNull(), { timeout: 10_000 });
    expect(chart().querySelector('[data-state="login.submitting"]')).not.toBeNull();

    await user.click(within(list).getByRole('link', { name: 'register' }));
    await waitFor(() => expect(chart().querySelector('svg[data-machine="register"]')).not.toBeNull(), { timeout: 10_000 });
  });

  it('highlights the live state of the machine’s running actor', async () => {
    renderFlows('/flows?machine=login');
    await waitFor(() => expect(chart().querySelector('svg[data-machine="login"]')).not.toBeNull(), { timeout: 10_000 });
    const actor = createActor(loginMachine, withFlowInspector()).start();
    await waitFor(() => expect(activeStates()).toEqual(['login.editing']));
    expect(screen.getByRole('status').textContent).toContain('Live state: editing');
    act(() => {
      actor.send({ type: 'FIELD.CHANGE', field: 'email', value: 'anasilva' });
      actor.send({ type: 'FIELD.CHANGE', field: 'password', value: 'Secret@123' });
      actor.send({ type: 'SUBMIT' });
    });
    // The placeholder login actor fails at once: the flow goes on to failed.
    await waitFor(() => expect(activeStates()).toEqual(['login.failed']));
    actor.stop();
  });

  it('records parallel states by machine id, and posts them to other tabs', () => {
    const posted: unknown[] = [];
    const postMessage = vi.spyOn(BroadcastChannel.prototype, 'postMessage').mockImplementation((message: unknown) => {
      posted.push(message);
    });
    const actor = createActor(registerMachine, { input: {}, inspect: flowInspector }).start();
    expect(liveStates().register).toEqual({ form: 'editing', countries: 'loading' });
    expect(posted).toContainEqual({ machine: 'register', value: { form: 'editing', countries: 'loading' } });
    actor.stop();
    postMessage.mockRestore();
  });

  it('simulates the machine: events, then an outcome of the operation it invokes, nothing run', async () => {
    const { user } = renderFlows('/flows?machine=login');
    await waitFor(() => expect(chart().querySelector('svg[data-machine="login"]')).not.toBeNull(), { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Simulator' }));
    const simulator = await screen.findByRole('region', { name: 'Simulator' });
    await waitFor(() => expect(activeStates()).toEqual(['login.editing']));

    await user.click(within(simulator).getByRole('button', { name: /FIELD\.CHANGE.*email.*anasilva/ }));
    await user.click(within(simulator).getByRole('button', { name: /FIELD\.CHANGE.*password/ }));
    await user.click(within(simulator).getByRole('button', { name: /^SUBMIT/ }));
    await waitFor(() => expect(activeStates()).toEqual(['login.submitting']));
    expect(screen.getByRole('status').textContent).toContain('Simulated state: submitting');

    // While the call is pending only its outcomes (and no event) move the flow.
    expect(within(simulator).queryByRole('button', { name: /^SUBMIT/ })).toBeNull();
    await user.click(within(simulator).getByRole('button', { name: /error: POST \/user\/login.*wrong password/ }));
    await waitFor(() => expect(activeStates()).toEqual(['login.failed']));
    await user.click(within(simulator).getByRole('button', { name: /^SUBMIT/ }));
    await user.click(within(simulator).getByRole('button', { name: /done: POST \/user\/login.*signed in/ }));
    await waitFor(() => expect(activeStates()).toEqual(['login.done']));
    expect(within(simulator).getByText(/finished/)).toBeTruthy();

    await user.click(within(simulator).getByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(activeStates()).toEqual(['login.editing']));
  });

  it('starts a simulation from each named input of the fixtures', async () => {
    const { user } = renderFlows('/flows?machine=verifyEmail');
    await waitFor(() => expect(chart().querySelector('svg[data-machine="verifyEmail"]')).not.toBeNull(), { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Simulator' }));
    const simulator = await screen.findByRole('region', { name: 'Simulator' });
    await waitFor(() => expect(activeStates()).toEqual(['verifyEmail.verifying']));
    await user.selectOptions(within(simulator).getByRole('combobox', { name: 'Start with' }), 'link without a token');
    // No token: the always transition leaves at once, and the flow is over.
    await waitFor(() => expect(activeStates()).toEqual(['verifyEmail.failed']));
  });
});
