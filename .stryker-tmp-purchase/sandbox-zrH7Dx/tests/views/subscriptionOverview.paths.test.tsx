// @ts-nocheck
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { subscriptionOverviewMachine } from '../../machines/subscriptionOverview.machine';
import { ApiError } from '../../src/api/errors';
import { CURRENT_FALLBACK, PLANS_FALLBACK } from '../../src/api/subscriptions';
import type { CurrentSubscription, PaymentsConfig, SubscriptionPlan } from '../../server/src/contract/subscriptions';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { activeSubscription, monthlyPlan, sandboxPayments } from '../support/subscriptionFixtures';

const events: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadPlans', output: [monthlyPlan] },
  { type: 'xstate.error.actor.loadPlans', error: new ApiError(PLANS_FALLBACK, 500) },
  { type: 'xstate.done.actor.loadCurrent', output: activeSubscription },
  { type: 'xstate.error.actor.loadCurrent', error: new ApiError(CURRENT_FALLBACK, 500) },
  { type: 'xstate.done.actor.loadPayments', output: sandboxPayments },
  { type: 'xstate.error.actor.loadPayments', error: new ApiError('Payments are unavailable right now.', 503) },
  { type: 'subscription.changed' },
  { type: 'overview.retried' },
];
// One replay per (region states, event): the data each region holds is checked on every path.
const paths = transitionCoveringPaths(subscriptionOverviewMachine, {
  events,
  transitionKey: (state, event) => JSON.stringify([state.value, event.type]),
});

function harness() {
  const plans = deferredCalls<void, SubscriptionPlan[]>();
  const current = deferredCalls<void, CurrentSubscription | null>();
  const payments = deferredCalls<void, PaymentsConfig>();
  const subscriptionOverview = subscriptionOverviewMachine.provide({
    actors: {
      loadPlans: fromPromise(() => plans.handler()),
      loadCurrent: fromPromise(() => current.handler()),
      loadPayments: fromPromise(() => payments.handler()),
    },
  });
  return { ...renderProfile('subscriptions', { subscriptionOverview }), plans, current, payments };
}
type Harness = ReturnType<typeof harness>;
const tab = () => screen.getByRole('region', { name: 'Subscriptions' });

async function perform(event: AnyEventObject, page: Harness) {
  const [, kind, , actor] = event.type.split('.');
  const loads = { loadPlans: page.plans, loadCurrent: page.current, loadPayments: page.payments }[actor as 'loadPlans'];
  if (kind === 'done') return loads.last().settle.resolve(event.output);
  if (kind === 'error') return loads.last().settle.reject(event.error);
  if (event.type === 'overview.retried') return page.user.click(within(tab()).getByRole('button', { name: 'Retry' }));
  if (event.type === 'subscription.changed') {
    // A purchase or cancellation elsewhere on the tab asks for the current subscription again.
    return page.user.click(within(tab()).getByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }));
  }
  throw new Error(`No way to perform ${event.type}`);
}

async function expectScreen(state: AnyMachineSnapshot) {
  await settle(() => tab());
  const errors = [state.context.plansError, state.context.currentError, state.context.paymentsError].filter(Boolean);
  await settle(() => {
    const alert = within(tab()).queryByRole('alert');
    if (errors.length) {
      expect(alert?.textContent).toContain(errors.join(''));
      expect(within(alert!).getByRole('button', { name: 'Retry' })).toBeTruthy();
    } else {
      expect(alert).toBeNull();
    }
  });
  expect(within(tab()).queryByRole('button', { name: `Subscribe to ${monthlyPlan.name}` }) !== null).toBe(state.context.plans.length > 0);
  expect(within(tab()).queryByText('Unsubscribe') !== null).toBe(state.context.current !== null);
}

describe('subscriptionOverview machine: model-based paths replayed against the Subscriptions tab', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(subscriptionOverviewMachine).filter((id) => !reached.has(id))).toEqual([]);
  });

  // subscription.changed comes from the purchase and cancel flows, replayed in their own tests.
  const replayable = paths.filter((path) => !path.steps.some((step) => step.event.type === 'subscription.changed'));
  it.each(replayable.map((path): [string, ModelPath] => [describePath(path), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state);
    }
  });
});
