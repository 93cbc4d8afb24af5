import { afterEach, describe, expect, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { firstRunBmiMachine } from '../../machines/firstRunBmi.machine';
import { ApiError } from '../../machines/services/errors';
import type { ProfileUpdate } from '../../server/src/contract/users';
import { SESSION_KEYS } from '../../machines/services/session';
import { firstRunBmiModel } from '../models/firstRunBmi.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeAlert, seeButton, seePath, shownFor, wholePage } from '../support/pathSteps';
import { fakeServer, renderApp } from '../support/renderApp';

const SERVER_REFUSAL = 'bmi must be an object with currentWeight, height, Gender, date_of_birth and idealBmiWeight';
type Fields = { height: string; weight: string };
/** SPEC §5: what each invalid submission says, word for word as on the profile. */
const invalidSubmissions: Record<string, Fields & { message: string }> = {
  'bmi.submittedEmpty': { height: '', weight: '', message: 'Height and weight must be positive' },
  'bmi.submittedShortHeight': { height: '90', weight: '80', message: 'Height must be between 100-250 cm' },
  'bmi.submittedHeavyWeight': { height: '180', weight: '301', message: 'Weight must be between 30-300 kg' },
};

function openBmiPage(inspect: Inspect) {
  vi.stubGlobal('fetch', fakeServer().fetch);
  localStorage.setItem(SESSION_KEYS.jwt, 'new-member-token');
  localStorage.setItem(SESSION_KEYS.userId, '7');
  const saves = deferredCalls<{ userId: string; update: ProfileUpdate }, void>();
  const firstRunBmi = firstRunBmiMachine.provide({
    actors: { updateProfile: fromPromise(({ input }: { input: { userId: string; update: ProfileUpdate } }) => saves.handler(input)) },
  });
  return { ...renderApp('/bmi', { flows: { firstRunBmi }, inspect }), saves, user: userEvent.setup(), savesBefore: 0 };
}
type Page = ReturnType<typeof openBmiPage>;

async function submit(page: Page, fields: Fields) {
  page.savesBefore = page.saves.calls.length;
  for (const [label, value] of [
    ['Height (cm)', fields.height],
    ['Weight (kg)', fields.weight],
  ]) {
    await page.user.clear(screen.getByLabelText(label));
    if (value) await page.user.type(screen.getByLabelText(label), value);
  }
  await page.user.click(screen.getByRole('button', { name: 'Save and continue' }));
}

async function expectForm(page: Page, expected: { busy?: boolean; alert?: string }) {
  await see("the heading 'Welcome to Carnivo'", () => screen.getByRole('heading', { name: 'Welcome to Carnivo' }));
  expect(page.router.state.location.pathname).toBe('/bmi');
  await seeButton(wholePage, { idle: 'Save and continue', busy: 'Saving...' }, expected.busy ?? false);
  await seeAlert(wholePage, expected.alert);
}

describe('firstRunBmi: the spec model replayed against /bmi', () => {
  afterEach(() => vi.unstubAllGlobals());

  definePathTests<Page>({
    flow: 'firstRunBmi',
    machine: firstRunBmiMachine,
    model: firstRunBmiModel,
    open: { 'page.opened': openBmiPage },
    perform: {
      'bmi.submittedEmpty': (page) => submit(page, invalidSubmissions['bmi.submittedEmpty']),
      'bmi.submittedShortHeight': (page) => submit(page, invalidSubmissions['bmi.submittedShortHeight']),
      'bmi.submittedHeavyWeight': (page) => submit(page, invalidSubmissions['bmi.submittedHeavyWeight']),
      'bmi.submittedValid': async (page) => {
        await page.user.selectOptions(screen.getByLabelText('Gender'), 'Female');
        await page.user.clear(screen.getByLabelText('Date of Birth'));
        await page.user.type(screen.getByLabelText('Date of Birth'), '1991-02-03');
        await submit(page, { height: '180', weight: '80' });
      },
      'server.saved': (page) => page.saves.last().settle.resolve(),
      'server.refused': (page) => page.saves.last().settle.reject(new ApiError(SERVER_REFUSAL, 400)),
    },
    screens: {
      form: (page) => expectForm(page, {}),
      invalid: async (page, { via }) => {
        await expectForm(page, { alert: shownFor(invalidSubmissions, via).message });
        // Refused by the form: nothing was sent.
        expect(page.saves.calls).toHaveLength(page.savesBefore);
      },
      saving: async (page) => {
        await expectForm(page, { busy: true });
        // Saved like the profile's Information section, with the member's username and e-mail.
        expect(page.saves.calls).toHaveLength(page.savesBefore + 1);
        expect(page.saves.last().input).toEqual({
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
      },
      refused: (page) => expectForm(page, { alert: SERVER_REFUSAL }),
      profilePage: async (page) => {
        await seePath(page, '/profile');
        await see("the heading 'Profile'", () => screen.getByRole('heading', { name: 'Profile' }));
      },
    },
  });
});
