// @ts-nocheck
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { firstRunBmiMachine } from '../../machines/firstRunBmi.machine';
import type { ProfileUpdate } from '../../server/src/contract/users';
import { SESSION_KEYS } from '../../src/auth/session';
import { isNewAccount } from '../../src/lib/validation';
import { deferredCalls } from '../support/deferred';
import { fakeServer, renderApp } from '../support/renderApp';

function renderFirstRun() {
  vi.stubGlobal('fetch', fakeServer().fetch);
  localStorage.setItem(SESSION_KEYS.jwt, 'new-member-token');
  localStorage.setItem(SESSION_KEYS.userId, '7');
  const saves = deferredCalls<{ userId: string; update: ProfileUpdate }, void>();
  const firstRunBmi = firstRunBmiMachine.provide({
    actors: { updateProfile: fromPromise(({ input }: { input: { userId: string; update: ProfileUpdate } }) => saves.handler(input)) },
  });
  return { ...renderApp('/bmi', { flows: { firstRunBmi } }), saves };
}

async function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

describe('first run /bmi', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is for members only', async () => {
    const app = renderApp('/bmi');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(app.router.state.location.search).toMatchObject({ from: '/bmi' });
  });

  it("applies the profile's rules, saves the BMI details and continues to the profile", async () => {
    const app = renderFirstRun();
    await screen.findByRole('heading', { name: 'Welcome to Carnivo' });
    await fill('Height (cm)', '90');
    await fill('Weight (kg)', '80');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Height must be between 100-250 cm');
    expect(app.saves.calls).toHaveLength(0);

    await fill('Height (cm)', '180');
    await userEvent.selectOptions(screen.getByLabelText('Gender'), 'Female');
    await fill('Date of Birth', '1991-02-03');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(app.saves.calls).toHaveLength(1));
    expect(app.saves.last().input).toEqual({
      userId: '7',
      update: {
        section: 'information',
        values: {
          username: 'ribeye',
          email: 'ribeye@example.com',
          bmi: { height: 180, currentWeight: 80, Gender: 'Female', date_of_birth: '1991-02-03', idealBmiWeight: '69.7' },
        },
      },
    });
    app.saves.last().settle.resolve();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/profile'));
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
