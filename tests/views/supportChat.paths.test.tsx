import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { supportChatMachine } from '../../machines/supportChat.machine';
import { site } from '../../src/config/site';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const events: AnyEventObject[] = [
  { type: 'chat.requested' },
  { type: 'xstate.done.actor.loadWidget' },
  { type: 'xstate.error.actor.loadWidget', error: new Error('The live chat could not be loaded.') },
];

function machineFor(configured: boolean, loads = deferredCalls<void, void>(), maximize = vi.fn()) {
  return {
    machine: supportChatMachine.provide({
      actors: { loadWidget: fromPromise<void>(() => loads.handler()) },
      actions: { maximizeWidget: maximize },
      guards: { configured: () => configured },
    }),
    loads,
    maximize,
  };
}

const configuredPaths = transitionCoveringPaths(machineFor(true).machine, { events });
const unconfiguredPaths = transitionCoveringPaths(machineFor(false).machine, { events });

function harness(configured: boolean) {
  const chat = machineFor(configured);
  return { ...renderProfile('support', { supportChat: chat.machine }), ...chat };
}
type Harness = ReturnType<typeof harness>;
const supportCard = () => screen.getByRole('region', { name: 'Support' });

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'chat.requested':
      await page.user.click(within(supportCard()).getByRole('button', { name: 'Chat with Support' }));
      return;
    case 'xstate.done.actor.loadWidget':
      page.loads.last().settle.resolve();
      return;
    case 'xstate.error.actor.loadWidget':
      page.loads.last().settle.reject(event.error);
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Harness, opensSoFar: number) {
  await settle(() => supportCard());
  const card = supportCard();
  await settle(() => expect(within(card).queryByRole('button', { name: 'Opening chat...' }) !== null).toBe(state.matches('loading')));
  if (state.matches('notConfigured')) {
    expect(within(card).getByRole('status').textContent).toContain('Live chat is not available on this site.');
    expect(within(card).getAllByRole('link', { name: site.supportEmail })[0].getAttribute('href')).toBe(`mailto:${site.supportEmail}`);
    expect(within(card).queryByRole('button')).toBeNull();
  } else if (state.matches('unavailable')) {
    expect(within(card).getByRole('alert').textContent).toContain('The live chat could not be loaded.');
    expect(within(card).getByRole('button', { name: 'Chat with Support' })).toBeTruthy();
  } else if (state.matches('open')) {
    expect(within(card).getByRole('status').textContent).toBe('The chat window is open.');
  } else if (state.matches('idle')) {
    expect(within(card).queryByRole('status')).toBeNull();
    expect(within(card).queryByRole('alert')).toBeNull();
  }
  expect(page.maximize).toHaveBeenCalledTimes(opensSoFar);
}

async function replay(path: ModelPath, configured: boolean) {
  const page = harness(configured);
  let opens = 0;
  await expectScreen(path.steps[0].state, page, opens);
  let previous = path.steps[0].state;
  for (const step of path.steps.slice(1)) {
    await perform(step.event, page);
    // The widget is maximised when it has loaded, and again on each later request.
    if (step.state.matches('open') && (!previous.matches('open') || step.event.type === 'chat.requested')) opens += 1;
    await expectScreen(step.state, page, opens);
    previous = step.state;
  }
}

describe('supportChat machine: model-based paths replayed against the Support tab', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event', () => {
    const all = [...configuredPaths, ...unconfiguredPaths];
    const reached = new Set(all.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(supportChatMachine).filter((id) => !reached.has(id))).toEqual([]);
  });

  it.each(configuredPaths.map((path): [string, ModelPath] => [describePath(path), path]))('configured: %s', (_name, path) => replay(path, true));
  it.each(unconfiguredPaths.map((path): [string, ModelPath] => [describePath(path), path]))('not configured: %s', (_name, path) => replay(path, false));
});
