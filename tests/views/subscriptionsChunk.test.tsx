import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { CHUNK_TIMEOUT_MS } from '../../src/hooks/lazyPage';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

// The Subscriptions tab's chunk arrives only when the test lets it.
const chunk = vi.hoisted(() => {
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrive: () => arrive(), arrived };
});
vi.mock('../../src/features/subscriptions/SubscriptionsTab', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

describe('the Subscriptions tab chunk (SPEC §7: 120-second time-out)', () => {
  afterEach(restoreProfileHarness);
  // Transform the real module while timers are real: the test's fake clock would stall the module loader.
  beforeAll(() => vi.importActual('../../src/features/subscriptions/SubscriptionsTab'));

  it('times out after 120 s with Retry, which loads it', async () => {
    const page = renderProfile('subscriptions', {});
    await settle(() => screen.getByText('Loading subscriptions…'));

    await act(() => vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Loading subscriptions…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle(() => screen.getByRole('alert'));
    expect(screen.getByRole('alert').textContent).toBe('This page took too long to load.');

    // From here the loader has time enough: real timers let React reveal the tab as it does in a browser.
    vi.useRealTimers();
    chunk.arrive();
    await page.user.click(screen.getByRole('button', { name: 'Retry' }));
    await settle(() => screen.getByRole('heading', { name: 'Subscriptions', level: 2 }));
    await settle(() => screen.getByRole('heading', { name: 'Subscriptions', level: 2 }));
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
  });
});
