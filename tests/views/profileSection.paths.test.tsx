import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { vi } from 'vitest';
import { PROFILE_UPDATED_MESSAGE, SUCCESS_MESSAGE_MS, profileSectionMachine } from '../../machines/profileSection.machine';
import { ApiError } from '../../src/api/errors';
import type { ProfileUpdate } from '../../server/src/contract/users';
import type { User } from '../../server/src/contract/users';
import { isEmailChange, profileMessages } from '../../server/src/contract/profileRules';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const AFTER_SAVED = 'xstate.after.successMessage.profileSection.viewing.saved';

type InformationValues = Extract<ProfileUpdate, { section: 'information' }>['values'];
const validInformation: InformationValues = {
  username: 'ribeye',
  email: 'ribeye@example.com',
  bmi: { currentWeight: 65, height: 170, Gender: 'Female', date_of_birth: '1990-04-12', idealBmiWeight: '62.1' },
};
type InformationChange = { username?: string; email?: string; currentPassword?: string; height?: number; currentWeight?: number };
const information = (change: InformationChange, label: string) => ({
  type: 'save.submitted',
  label,
  update: {
    section: 'information',
    values: {
      ...validInformation,
      username: change.username ?? validInformation.username,
      email: change.email ?? validInformation.email,
      // Only a changed e-mail asks for (and sends) the current password.
      ...(change.currentPassword !== undefined && { currentPassword: change.currentPassword }),
      bmi: {
        ...validInformation.bmi,
        height: change.height ?? validInformation.bmi.height,
        currentWeight: change.currentWeight ?? validInformation.bmi.currentWeight,
        idealBmiWeight: String(Math.round(21.5 * ((change.height ?? 170) / 100) ** 2 * 10) / 10),
      },
    },
  },
});

const commonEvents: AnyEventObject[] = [
  { type: 'edit.started' },
  { type: 'edit.cancelled' },
  { type: 'xstate.done.actor.updateProfile' },
  { type: 'xstate.error.actor.updateProfile', error: new ApiError('Email already taken', 400) },
  { type: AFTER_SAVED },
];

const informationEvents: AnyEventObject[] = [
  ...commonEvents,
  information({}, 'valid'),
  information({ username: '' }, 'blank username'),
  information({ username: 'ab' }, 'short username'),
  // Another address, so the password field shows (left empty); the format rule speaks first.
  information({ email: 'ribeye@', currentPassword: '' }, 'bad email'),
  information({ height: 0 }, 'height 0'),
  information({ height: 90 }, 'height 90'),
  information({ currentWeight: 301 }, 'weight 301'),
  information({ username: 'a'.repeat(31) }, 'username 31 characters'),
  information({ username: 'rib@eye' }, 'username with @'),
  information({ email: 'RIBEYE@example.com' }, 'same email, other case'),
  information({ email: 'tbone@example.com', currentPassword: '' }, 'new email, no password'),
  information({ email: 'tbone@example.com', currentPassword: 'secret123' }, 'new email with password'),
  { type: 'xstate.error.actor.updateProfile', label: 'wrong password', error: new ApiError('The provided current password is invalid', 400) },
];

const goals = (goal_weight: number, label: string) => ({
  type: 'save.submitted',
  label,
  update: { section: 'goals', values: { goal_weight, goal_reminder: 'weekly', personal_goal_note: 'Fit into my old jeans' } },
});
const goalsEvents: AnyEventObject[] = [...commonEvents, goals(70, 'valid'), goals(0, 'no goal'), goals(25, 'goal 25')];

const describeEvent = (event: AnyEventObject) => (event.label ? `${event.type}(${event.label})` : event.type);
const transitionKey = (state: AnyMachineSnapshot, event: AnyEventObject) =>
  JSON.stringify([state.value, state.context.error === null, describeEvent(event)]);

const informationPaths = transitionCoveringPaths(profileSectionMachine, { events: informationEvents, input: { userId: '7' }, transitionKey });
const goalsPaths = transitionCoveringPaths(profileSectionMachine, { events: goalsEvents, input: { userId: '7' }, transitionKey });

function harness(tab: 'information' | 'goals', user: Partial<User> = {}) {
  const saves = deferredCalls<{ userId: string; update: ProfileUpdate }, void>();
  const profileSection = profileSectionMachine.provide({
    actors: { updateProfile: fromPromise<void, { userId: string; update: ProfileUpdate }>(({ input }) => saves.handler(input)) },
  });
  const saved: Partial<User> = { username: 'tbone', bmi: { id: 1, currentWeight: 80, height: 180, Gender: 'Male', date_of_birth: '1985-01-02', idealBmiWeight: '72.9' }, goal_weight: 75 };
  return { ...renderProfile(tab, { profileSection }, { ...saved, ...user }), saves };
}
type Harness = ReturnType<typeof harness>;

function sectionCard(name: string) {
  return screen.getByRole('region', { name });
}

const currentPasswordField = () => screen.queryByLabelText('Current password', { selector: 'input' }) as HTMLInputElement | null;

async function fillField(page: Harness, label: string, value: string) {
  const field = screen.getByLabelText(label, { selector: 'input, select, textarea' });
  if (field instanceof HTMLSelectElement) {
    await page.user.selectOptions(field, value);
    return;
  }
  await page.user.clear(field);
  if (value) await page.user.type(field, value);
}

async function perform(event: AnyEventObject, page: Harness, sectionName: 'Information' | 'Goals') {
  const card = () => sectionCard(sectionName);
  switch (event.type) {
    case 'edit.started':
      await page.user.click(within(card()).getByRole('button', { name: sectionName === 'Information' ? 'Edit Profile' : 'Edit Goals' }));
      return;
    case 'edit.cancelled':
      await page.user.click(within(card()).getByRole('button', { name: 'Cancel' }));
      return;
    case 'save.submitted': {
      const update = event.update as ProfileUpdate;
      if (update.section === 'information') {
        await fillField(page, 'Username', update.values.username);
        await fillField(page, 'Email', update.values.email);
        // The field shows exactly when the typed address differs from the saved one.
        expect(currentPasswordField() !== null).toBe(update.values.currentPassword !== undefined);
        if (update.values.currentPassword !== undefined) await fillField(page, 'Current password', update.values.currentPassword);
        await fillField(page, 'Date of Birth', update.values.bmi.date_of_birth ?? '');
        await fillField(page, 'Gender', update.values.bmi.Gender);
        await fillField(page, 'Height (cm)', String(update.values.bmi.height));
        await fillField(page, 'Weight (kg)', String(update.values.bmi.currentWeight));
      } else if (update.section === 'goals') {
        await fillField(page, 'Goal Weight (kg)', String(update.values.goal_weight));
        await fillField(page, 'Personal Note', update.values.personal_goal_note);
        await fillField(page, 'Reminder Frequency', update.values.goal_reminder);
      }
      await page.user.click(within(card()).getByRole('button', { name: 'Save' }));
      return;
    }
    case 'xstate.done.actor.updateProfile': {
      const { update } = page.saves.last().input;
      if (update.section === 'information') {
        page.server.user = { ...page.server.user, username: update.values.username, email: update.values.email.toLowerCase(), bmi: { id: 1, ...update.values.bmi } };
      } else if (update.section === 'goals') {
        page.server.user = { ...page.server.user, ...update.values };
      }
      page.saves.last().settle.resolve();
      return;
    }
    case 'xstate.error.actor.updateProfile':
      page.saves.last().settle.reject(event.error);
      return;
    case AFTER_SAVED:
      await act(() => vi.advanceTimersByTimeAsync(SUCCESS_MESSAGE_MS - 1));
      expect(screen.queryByText(PROFILE_UPDATED_MESSAGE)).not.toBeNull();
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Harness, sectionName: 'Information' | 'Goals', lastEvent: AnyEventObject) {
  await settle(() => sectionCard(sectionName));
  const card = sectionCard(sectionName);
  if (state.matches('editing')) {
    await settle(() => within(card).getByRole('button', { name: state.hasTag('busy') ? 'Saving...' : 'Save' }));
    const save = within(card).getByRole('button', { name: state.hasTag('busy') ? 'Saving...' : 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(state.hasTag('busy'));
    if (state.matches({ editing: 'invalid' }) || state.matches({ editing: 'failure' })) {
      expect(within(card).getByRole('alert').textContent).toBe(state.context.error);
    } else {
      expect(within(card).queryByRole('alert')).toBeNull();
    }
    if (sectionName === 'Information') {
      const typed = (screen.getByLabelText('Email', { selector: 'input' }) as HTMLInputElement).value;
      const password = currentPasswordField();
      expect(password !== null).toBe(isEmailChange(typed, page.server.user.email));
      if (password) {
        expect(password.type).toBe('password');
        expect(password.autocomplete).toBe('current-password');
      }
    }
    return;
  }
  await settle(() => expect(within(card).queryByRole('button', { name: 'Save' })).toBeNull());
  const notice = within(card).queryByRole('status');
  if (state.matches({ viewing: 'saved' })) {
    expect(notice?.textContent).toBe(PROFILE_UPDATED_MESSAGE);
    // The profile reloads and shows what was saved.
    const { update } = page.saves.last().input;
    const shown = update.section === 'information' ? update.values.username : update.section === 'goals' ? `${update.values.goal_weight} kg` : '';
    await settle(() => expect(within(sectionCard(sectionName)).getByText(shown)).toBeTruthy());
    if (update.section === 'information') expect(within(sectionCard(sectionName)).getByText(page.server.user.email)).toBeTruthy();
    expect(page.server.profileLoads).toBeGreaterThanOrEqual(2);
  } else {
    expect(notice).toBeNull();
    if (lastEvent.type === 'edit.cancelled') {
      // Cancelling shows the saved values again, not what was typed.
      const saved = sectionName === 'Information' ? page.server.user.username : `${page.server.user.goal_weight} kg`;
      expect(within(card).getByText(saved)).toBeTruthy();
      await page.user.click(within(card).getByRole('button', { name: sectionName === 'Information' ? 'Edit Profile' : 'Edit Goals' }));
      const field = screen.getByLabelText(sectionName === 'Information' ? 'Username' : 'Goal Weight (kg)') as HTMLInputElement;
      expect(field.value).toBe(sectionName === 'Information' ? page.server.user.username : String(page.server.user.goal_weight));
      if (sectionName === 'Information') {
        // The saved address again, so no password; a new address asks afresh, with nothing kept from before.
        expect((screen.getByLabelText('Email', { selector: 'input' }) as HTMLInputElement).value).toBe(page.server.user.email);
        expect(currentPasswordField()).toBeNull();
        await fillField(page, 'Email', 'someone.else@example.com');
        expect(currentPasswordField()?.value).toBe('');
      }
      await page.user.click(within(card).getByRole('button', { name: 'Cancel' }));
    }
  }
}

async function replay(path: ModelPath, tab: 'information' | 'goals', sectionName: 'Information' | 'Goals') {
  const page = harness(tab);
  await expectScreen(path.steps[0].state, page, sectionName, path.steps[0].event);
  for (const step of path.steps.slice(1)) {
    await perform(step.event, page, sectionName);
    await expectScreen(step.state, page, sectionName, step.event);
  }
}

describe('profileSection machine: model-based paths replayed against the profile tabs', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event, with the spec messages', () => {
    const all = [...informationPaths, ...goalsPaths];
    const reached = new Set(all.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(profileSectionMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(all.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect([...informationEvents, ...goalsEvents].map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
    expect(SUCCESS_MESSAGE_MS).toBe(3000);
    expect(PROFILE_UPDATED_MESSAGE).toBe('Profile updated successfully!');
    expect(Object.values(profileMessages)).toContain('Height must be between 100-250 cm');
  });

  it('sends the current password only with a changed e-mail, and keeps it nowhere', async () => {
    const page = harness('information');
    await settle(() => sectionCard('Information'));
    await perform({ type: 'edit.started' }, page, 'Information');
    await perform(information({ email: 'tbone@example.com', currentPassword: 'secret123' }, 'new email'), page, 'Information');
    expect(page.saves.last().input.update).toMatchObject({ values: { email: 'tbone@example.com', currentPassword: 'secret123' } });
    page.saves.last().settle.reject(new ApiError('The provided current password is invalid', 400));
    await settle(() => expect(within(sectionCard('Information')).getByRole('alert').textContent).toBe('The provided current password is invalid'));
    // Back to the saved address (another case): no password asked, none sent.
    await perform(information({ email: ' RIBEYE@example.com ' }, 'same email'), page, 'Information');
    expect(page.saves.last().input.update.values).not.toHaveProperty('currentPassword');
    expect(page.saves.last().input.update).toMatchObject({ values: { email: 'RIBEYE@example.com' } });
    expect(JSON.stringify(localStorage)).not.toContain('secret123');
  });

  it('saves a new e-mail with the password; the form opens again with neither asked nor kept', async () => {
    const page = harness('information');
    await settle(() => sectionCard('Information'));
    await perform({ type: 'edit.started' }, page, 'Information');
    await perform(information({ email: 'tbone@example.com', currentPassword: 'secret123' }, 'new email'), page, 'Information');
    await perform({ type: 'xstate.done.actor.updateProfile' }, page, 'Information');
    await settle(() => expect(within(sectionCard('Information')).getByRole('status').textContent).toBe(PROFILE_UPDATED_MESSAGE));
    await settle(() => expect(within(sectionCard('Information')).getByText('tbone@example.com')).toBeTruthy());
    await perform({ type: 'edit.started' }, page, 'Information');
    expect(currentPasswordField()).toBeNull();
    await fillField(page, 'Email', 'porterhouse@example.com');
    expect(currentPasswordField()?.value).toBe('');
  });

  it('asks no password of an account that signs in with Google, Apple or Facebook; the server explains', async () => {
    const page = harness('information', { provider: 'google' });
    await settle(() => sectionCard('Information'));
    await perform({ type: 'edit.started' }, page, 'Information');
    await perform(information({ email: 'tbone@example.com' }, 'new email'), page, 'Information');
    expect(page.saves.last().input.update.values).not.toHaveProperty('currentPassword');
    const refusal = 'Your email cannot be changed because this account signs in with Google, Apple or Facebook.';
    page.saves.last().settle.reject(new ApiError(refusal, 400));
    await settle(() => expect(within(sectionCard('Information')).getByRole('alert').textContent).toBe(refusal));
  });

  it.each(informationPaths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('Information: %s', (_name, path) =>
    replay(path, 'information', 'Information'),
  );

  it.each(goalsPaths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('Goals: %s', (_name, path) =>
    replay(path, 'goals', 'Goals'),
  );
});
