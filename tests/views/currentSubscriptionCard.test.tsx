import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createActor } from 'xstate';
import { subscriptionCancelMachine } from '../../machines/subscriptionCancel.machine';
import { subscriptionRefundMachine } from '../../machines/subscriptionRefund.machine';
import { CurrentSubscriptionCard, PLAN_REMOVED } from '../../src/features/subscriptions/CurrentSubscriptionCard';
import { activeSubscription } from '../support/subscriptionFixtures';

describe('the current subscription card', () => {
  afterEach(cleanup);

  it('shows a subscription whose plan was deleted (the server answers plan: null) instead of crashing', () => {
    const cancel = createActor(subscriptionCancelMachine).start();
    const refund = createActor(subscriptionRefundMachine).start();
    render(<CurrentSubscriptionCard current={{ ...activeSubscription, plan: null }} loading={false} cancel={cancel} refund={refund} />);
    expect(screen.getByText(PLAN_REMOVED).tagName).toBe('STRONG');
    expect(screen.getByText('active')).toBeTruthy();
    // Still the member's subscription: it can be cancelled.
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeTruthy();
    expect(screen.queryByText('Carnivo Monthly')).toBeNull();
  });

  it('names the plan when there is one', () => {
    const cancel = createActor(subscriptionCancelMachine).start();
    const refund = createActor(subscriptionRefundMachine).start();
    render(<CurrentSubscriptionCard current={activeSubscription} loading={false} cancel={cancel} refund={refund} />);
    expect(screen.getByText('Carnivo Monthly')).toBeTruthy();
    expect(screen.queryByText(PLAN_REMOVED)).toBeNull();
  });
});
