import { afterEach, describe, expect } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { profileSettingMachine } from '../../machines/profileSetting.machine';
import type { SettingUpdate } from '../../machines/services/progress';
import type { User } from '../../server/src/contract/users';
import { ApiError } from '../../machines/services/errors';
import { remindersToggleModel, unitsSwitchModel } from '../models/profileSetting.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeMessages, timePasses } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

const UPDATED = 'Profile updated successfully!';
const member: Partial<User> = {
  bmi: { id: 1, currentWeight: 80, height: 180, Gender: 'Male', date_of_birth: '1985-01-02', idealBmiWeight: '72.9' },
  goal_weight: 75,
};

function open(tab: 'information' | 'goals', inspect: Inspect) {
  const saves = deferredCalls<{ userId: string; update: SettingUpdate }, void>();
  const profileSetting = profileSettingMachine.provide({
    actors: { updateSetting: fromPromise<void, { userId: string; update: SettingUpdate }>(({ input }) => saves.handler(input)) },
  });
  return { ...renderProfile(tab, { profileSetting }, member, inspect), saves, savesBefore: 0 };
}
type Page = ReturnType<typeof open>;

const region = (name: string) => within(screen.getByRole('region', { name }));
const expectMessages = (name: string, messages: { alert?: string; notice?: string }) =>
  seeMessages(() => screen.getByRole('region', { name }), messages);

const common = {
  'server.saved': (page: Page) => {
    page.server.user = { ...page.server.user, ...page.saves.last().input.update };
    page.saves.last().settle.resolve();
  },
  'time.passed3s': timePasses(3000, () => expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(UPDATED)),
};

/** Units: the radios, and how Information shows the member's 80 kg and 180 cm. */
async function expectUnits(page: Page, unit: 'metric' | 'imperial', state: { busy?: boolean; alert?: string; notice?: string } = {}) {
  const radio = (name: RegExp) => region('Units').getByRole('radio', { name }) as HTMLInputElement;
  await see(`${unit} chosen`, () => expect(radio(unit === 'metric' ? /^Metric/ : /^Imperial/).checked).toBe(true));
  await see(state.busy ? 'the choice disabled' : 'the choice enabled', () =>
    expect(radio(/^Metric/).matches(':disabled')).toBe(state.busy ?? false),
  );
  await expectMessages('Units', { alert: state.alert, notice: state.notice });
  if (!state.busy) {
    const [weight, height] = unit === 'metric' ? ['80 kg', '180 cm'] : ['176.4 lb', '5 ft 10.9 in'];
    await see(`Information showing ${weight} and ${height}`, () => {
      expect(region('Information').getByText(weight)).toBeTruthy();
      expect(region('Information').getByText(height)).toBeTruthy();
    });
  }
  if (state.busy) expect(page.saves.calls).toHaveLength(page.savesBefore + 1);
}

async function choose(page: Page, name: RegExp) {
  page.savesBefore = page.saves.calls.length;
  await page.user.click(region('Units').getByRole('radio', { name }));
}

async function expectReminders(page: Page, on: boolean, state: { busy?: boolean; alert?: string; notice?: string } = {}) {
  const toggle = () => region('Reminders').getByRole('switch', { name: 'Goal reminder e-mails' }) as HTMLInputElement;
  await see(`reminders ${on ? 'on' : 'off'}`, () => expect(toggle().checked).toBe(on));
  await see(state.busy ? 'the switch disabled' : 'the switch enabled', () => expect(toggle().disabled).toBe(state.busy ?? false));
  await expectMessages('Reminders', { alert: state.alert, notice: state.notice });
  if (state.busy) expect(page.saves.last().input).toEqual({ userId: String(page.server.user.id), update: { reminders_enabled: on } });
}

async function flip(page: Page) {
  page.savesBefore = page.saves.calls.length;
  await page.user.click(region('Reminders').getByRole('switch', { name: 'Goal reminder e-mails' }));
}

describe('profileSetting: the spec models replayed against the units switch and the reminders toggle', () => {
  afterEach(restoreProfileHarness);

  describe('units (Information)', () => {
    definePathTests<Page>({
      flow: 'profileSetting (units)',
      machine: profileSettingMachine,
      model: unitsSwitchModel,
      open: { 'profile.opened': (inspect) => open('information', inspect) },
      perform: {
        ...common,
        'imperial.chosen': (page) => choose(page, /^Imperial/),
        'metric.chosen': (page) => choose(page, /^Metric/),
        'server.refused': (page) => page.saves.last().settle.reject(new ApiError('Units must be metric or imperial', 400)),
      },
      screens: {
        metric: (page) => expectUnits(page, 'metric'),
        savingImperial: async (page) => {
          await expectUnits(page, 'imperial', { busy: true });
          expect(page.saves.last().input.update).toEqual({ unit_system: 'imperial' });
        },
        imperialSaved: (page) => expectUnits(page, 'imperial', { notice: UPDATED }),
        imperial: (page) => expectUnits(page, 'imperial'),
        savingMetric: async (page) => {
          await expectUnits(page, 'metric', { busy: true });
          expect(page.saves.last().input.update).toEqual({ unit_system: 'metric' });
        },
        metricSaved: (page) => expectUnits(page, 'metric', { notice: UPDATED }),
        refusedMetric: (page) => expectUnits(page, 'metric', { alert: 'Units must be metric or imperial' }),
      },
    });
  });

  describe('reminders (Goals)', () => {
    definePathTests<Page>({
      flow: 'profileSetting (reminders)',
      machine: profileSettingMachine,
      model: remindersToggleModel,
      open: { 'goals.opened': (inspect) => open('goals', inspect) },
      perform: {
        ...common,
        'reminders.switchedOff': flip,
        'reminders.switchedOn': flip,
        'server.refused': (page) => page.saves.last().settle.reject(new ApiError('Failed to update profile', 500)),
      },
      screens: {
        on: (page) => expectReminders(page, true),
        savingOff: (page) => expectReminders(page, false, { busy: true }),
        offSaved: (page) => expectReminders(page, false, { notice: UPDATED }),
        off: (page) => expectReminders(page, false),
        savingOn: (page) => expectReminders(page, true, { busy: true }),
        onSaved: (page) => expectReminders(page, true, { notice: UPDATED }),
        refusedOn: (page) => expectReminders(page, true, { alert: 'Failed to update profile' }),
      },
    });
  });
});
