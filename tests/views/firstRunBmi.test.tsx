import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { SESSION_KEYS } from '../../machines/services/session';
import { isNewAccount } from '../../machines/rules/validation';
import { fakeServer, renderApp } from '../support/renderApp';

/** A member just registered (the saving itself is firstRunBmi.paths.test.tsx's). */
function renderFirstRun() {
  vi.stubGlobal('fetch', fakeServer().fetch);
  localStorage.setItem(SESSION_KEYS.jwt, 'new-member-token');
  localStorage.setItem(SESSION_KEYS.userId, '7');
  return renderApp('/bmi');
}

describe('first run /bmi', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is for members only', async () => {
    const app = renderApp('/bmi');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(app.router.state.location.search).toMatchObject({ from: '/bmi' });
  });

  it('can be skipped', async () => {
    renderFirstRun();
    expect((await screen.findByRole('link', { name: 'Skip for now' })).getAttribute('href')).toBe('/profile');
  });
});

describe('the 60-second rule', () => {
  it('treats accounts created under 60 seconds ago as new', () => {
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    expect(isNewAccount('2026-11-22T09:59:00.001Z', now)).toBe(true);
    expect(isNewAccount('2026-11-22T09:59:00.000Z', now)).toBe(false);
    expect(isNewAccount(undefined, now)).toBe(false);
    expect(isNewAccount('not a date', now)).toBe(false);
  });
});
