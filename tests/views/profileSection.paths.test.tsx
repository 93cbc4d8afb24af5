import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise, type AnyStateMachine } from 'xstate';
import { PROFILE_UPDATED_MESSAGE, profileSectionMachine } from '../../machines/profileSection.machine';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import type { ProfileUpdate, User } from '../../server/src/contract/users';
import { profileGoalsModel, profileInformationModel } from '../models/profileSection.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type FlowPathTest, type Inspect } from '../support/pathTests';
import { noticeShownFor, seeAlert, seeButton, seeNotice, shownFor } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';
import { SUCCESS_NOTICE_MS } from '../../machines/shared/notice';

const UPDATED = 'Profile updated successfully!';
const EMAIL_TAKEN = 'Email is already taken';
const WRONG_PASSWORD = 'The provided current password is invalid';
const NOT_POSITIVE = 'Height and weight must be positive';

type InformationChange = { username?: string; email?: string; currentPassword?: string; height?: number; currentWeight?: number };
const validInformation = {
  username: 'ribeye',
  email: 'ribeye@example.com',
  height: 170,
  currentWeight: 65,
  Gender: 'Female',
  date_of_birth: '1990-04-12',
};

/** Each Information save: what is typed and, for a refused one, the message (SPEC §5 and the server's username rules). */
const informationSaves: Record<string, { change: InformationChange; message?: string }> = {
  'save.blankUsername': { change: { username: '' }, message: 'Username is required' },
  'save.shortUsername': { change: { username: 'ab' }, message: 'Username must be at least 3 characters' },
  // Another address, so the password field shows (left empty); the format rule speaks first.
  'save.badEmail': { change: { email: 'ribeye@', currentPassword: '' }, message: 'Invalid email format' },
  'save.zeroHeight': { change: { height: 0 }, message: NOT_POSITIVE },
  'save.shortHeight': { change: { height: 90 }, message: 'Height must be between 100-250 cm' },
  'save.heavyWeight': { change: { currentWeight: 301 }, message: 'Weight must be between 30-300 kg' },
  'save.longUsername': { change: { username: 'a'.repeat(31) }, message: 'Username must be at most 30 characters' },
  'save.usernameWithAt': { change: { username: 'rib@eye' }, message: 'Username may only contain letters, digits, ".", "_" and "-"' },
  'save.newEmailNoPassword': {
    change: { email: 'tbone@example.com', currentPassword: '' },
    message: 'Please enter your current password to change your email.',
  },
  'save.valid': { change: {} },
  'save.sameEmailOtherCase': { change: { email: 'RIBEYE@example.com' } },
  'save.newEmailWithPassword': { change: { email: 'tbone@example.com', currentPassword: 'secret123' } },
};
/** Each Goals save: the goal weight typed and, for a refused one, the message (SPEC §5). */
const goalsSaves: Record<string, { goal: number; message?: string }> = {
  'save.valid': { goal: 70 },
  'save.noGoal': { goal: 0 },
  'save.lightGoal': { goal: 25, message: 'Goal weight must be between 30-300 kg' },
};

type SectionName = 'Information' | 'Goals';
const EMAIL_CHANGE_SENT = 'We sent a confirmation link to tbone@example.com. Your email changes when you open it (within 24 hours).';
const savedUser: Partial<User> = {
  username: 'tbone',
  bmi: { id: 1, currentWeight: 80, height: 180, Gender: 'Male', date_of_birth: '1985-01-02', idealBmiWeight: '72.9' },
  goal_weight: 75,
};

function openSection(section: SectionName, inspect?: Inspect, user: Partial<User> = {}) {
  const saves = deferredCalls<{ userId: string; update: ProfileUpdate }, string | null>();
  const profileSection = profileSectionMachine.provide({
    actors: { updateProfile: fromPromise<string | null, { userId: string; update: ProfileUpdate }>(({ input }) => saves.handler(input)) },
  });
  const tab = section === 'Information' ? 'information' : 'goals';
  const app = renderProfile(tab, { profileSection }, { ...savedUser, ...user }, inspect);
  // The profile reloads after a save only when the test says the server answered.
  app.server.holdReloads = true;
  // How many saves were sent before the last submission, and reloads asked before the last save's answer.
  return { ...app, saves, section, savesBefore: 0, reloadsBefore: 0, newEmailAnswered: false };
}
type Page = ReturnType<typeof openSection>;

const card = (page: Page) => screen.getByRole('region', { name: page.section });

/** The server saved the last submission; `pendingEmail` is the new address it keeps waiting for its link. */
function answerSaved(page: Page, pendingEmail: string | null) {
  const { update } = page.saves.last().input;
  if (update.section === 'information') {
    const { username, email, bmi } = update.values;
    // As the server does: a bmi without height and weight keeps the saved ones.
    const kept = {
      height: page.server.user.bmi?.height ?? null,
      currentWeight: page.server.user.bmi?.currentWeight ?? null,
      idealBmiWeight: null,
    };
    const pending = pendingEmail
      ? { pending_email: pendingEmail, pending_email_expires_at: new Date(Date.now() + 24 * 3600_000).toISOString() }
      : { email: email.toLowerCase() };
    page.server.user = { ...page.server.user, username, ...pending, bmi: { id: 1, ...kept, ...bmi } };
  } else if (update.section === 'goals') {
    page.server.user = { ...page.server.user, ...update.values };
  }
  page.reloadsBefore = page.server.heldReloads.length;
  page.newEmailAnswered = pendingEmail !== null;
  page.saves.last().settle.resolve(pendingEmail);
}

/** The address of the last Information save, as the server keeps it (trimmed, lower case). */
function submittedEmail(page: Page): string | null {
  const { update } = page.saves.last().input;
  return update.section === 'information' ? update.values.email.trim().toLowerCase() : null;
}

/** The reloaded profile arrives (the one the last saved answer asked for). */
async function releaseReload(page: Page) {
  await see('the profile reloading', () => expect(page.server.heldReloads).toHaveLength(page.reloadsBefore + 1));
  page.server.heldReloads[page.reloadsBefore].resolve();
}
const editLabel = (page: Page) => (page.section === 'Information' ? 'Edit Profile' : 'Edit Goals');
const currentPasswordField = () => screen.queryByLabelText('Current password', { selector: 'input' }) as HTMLInputElement | null;
// The server compares addresses trimmed and case-insensitively.
const isNewAddress = (typed: string, saved: string) => typed.trim().toLowerCase() !== saved.trim().toLowerCase();

async function fillField(page: Page, label: string, value: string) {
  const field = screen.getByLabelText(label, { selector: 'input, select, textarea' });
  if (field instanceof HTMLSelectElement) {
    await page.user.selectOptions(field, value);
    return;
  }
  await page.user.clear(field);
  if (value) await page.user.type(field, value);
}

async function saveInformation(page: Page, change: InformationChange) {
  page.savesBefore = page.saves.calls.length;
  const values = { ...validInformation, ...change };
  await fillField(page, 'Username', values.username);
  await fillField(page, 'Email', values.email);
  // The field shows exactly when the typed address differs from the saved one.
  expect(currentPasswordField() !== null).toBe(change.currentPassword !== undefined);
  if (change.currentPassword !== undefined) await fillField(page, 'Current password', change.currentPassword);
  await fillField(page, 'Date of Birth', values.date_of_birth);
  await fillField(page, 'Gender', values.Gender);
  await fillField(page, 'Height (cm)', String(values.height));
  await fillField(page, 'Weight (kg)', String(values.currentWeight));
  await page.user.click(within(card(page)).getByRole('button', { name: 'Save' }));
}

/** Saves the form after `type` changed some of its fields, the others left as they were. */
async function saveTyped(page: Page, type: () => Promise<void>) {
  page.savesBefore = page.saves.calls.length;
  await type();
  await page.user.click(within(card(page)).getByRole('button', { name: 'Save' }));
}

async function saveGoals(page: Page, goal: number) {
  page.savesBefore = page.saves.calls.length;
  await fillField(page, 'Goal Weight (kg)', String(goal));
  await fillField(page, 'Personal Note', 'Fit into my old jeans');
  await fillField(page, 'Reminder Frequency', 'weekly');
  await page.user.click(within(card(page)).getByRole('button', { name: 'Save' }));
}

async function expectForm(page: Page, expected: { busy?: boolean; alert?: string }) {
  await see(`the region '${page.section}'`, () => card(page));
  const busy = expected.busy ?? false;
  await seeButton(() => card(page), { idle: 'Save', busy: 'Saving...' }, busy);
  expect((within(card(page)).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(busy);
  await seeAlert(() => card(page), expected.alert);
  if (page.section === 'Information') {
    const typed = (screen.getByLabelText('Email', { selector: 'input' }) as HTMLInputElement).value;
    const password = currentPasswordField();
    expect(password !== null).toBe(isNewAddress(typed, page.server.user.email));
    if (password) {
      expect(password.type).toBe('password');
      expect(password.autocomplete).toBe('current-password');
    }
  }
}

async function expectViewing(page: Page, notice: string | null) {
  await see(`the region '${page.section}'`, () => card(page));
  await see('no form', () => expect(within(card(page)).queryByRole('button', { name: 'Save' })).toBeNull());
  await seeNotice(() => card(page), notice);
  expect(within(card(page)).queryByRole('alert')).toBeNull();
}

const savedGoal = (user: User) => (user.goal_weight ? `${user.goal_weight} kg` : 'Not set');

/** Cancelling shows the saved values again, not what was typed; the form opens afresh. */
async function expectSavedValuesAgain(page: Page) {
  const saved = page.section === 'Information' ? page.server.user.username : savedGoal(page.server.user);
  expect(within(card(page)).getByText(saved)).toBeTruthy();
  await page.user.click(within(card(page)).getByRole('button', { name: editLabel(page) }));
  const field = screen.getByLabelText(page.section === 'Information' ? 'Username' : 'Goal Weight (kg)') as HTMLInputElement;
  expect(field.value).toBe(page.section === 'Information' ? page.server.user.username : String(page.server.user.goal_weight ?? ''));
  if (page.section === 'Information') {
    // The saved address again, so no password; a new address asks afresh, with nothing kept from before.
    expect((screen.getByLabelText('Email', { selector: 'input' }) as HTMLInputElement).value).toBe(page.server.user.email);
    expect(currentPasswordField()).toBeNull();
    await fillField(page, 'Email', 'someone.else@example.com');
    expect(currentPasswordField()?.value).toBe('');
  }
  await page.user.click(within(card(page)).getByRole('button', { name: 'Cancel' }));
}

/** The common performers and screens; each section adds its saves and messages. */
function sectionPathTest(
  section: SectionName,
  model: AnyStateMachine,
  saves: Record<string, (page: Page) => Promise<void>>,
  messages: Record<string, string | undefined>,
  refusals: Record<string, string>,
): FlowPathTest<Page> {
  const messageFor = (via: string) => shownFor({ ...refusals, ...messages }, via);
  return {
    flow: `profileSection (${section})`,
    machine: profileSectionMachine,
    model,
    open: { 'profile.opened': (inspect) => openSection(section, inspect) },
    perform: {
      ...saves,
      'edit.started': (page) => page.user.click(within(card(page)).getByRole('button', { name: editLabel(page) })),
      'edit.cancelled': (page) => page.user.click(within(card(page)).getByRole('button', { name: 'Cancel' })),
      'server.saved': (page) => answerSaved(page, null),
      ...Object.fromEntries(
        Object.entries(refusals).map(([type, message]) => [
          type,
          (page: Page) => page.saves.last().settle.reject(new ApiError(message, 400)),
        ]),
      ),
      'server.reloaded': releaseReload,
      'time.passed3s': noticeShownFor(3000, card, UPDATED),
    },
    screens: {
      viewing: async (page, { via }) => {
        await expectViewing(page, null);
        if (via === 'edit.cancelled') await expectSavedValuesAgain(page);
      },
      editing: (page) => expectForm(page, {}),
      invalid: async (page, { via }) => {
        await expectForm(page, { alert: messageFor(via) });
        // Refused by the form: nothing was sent.
        expect(page.saves.calls).toHaveLength(page.savesBefore);
      },
      saving: async (page) => {
        await expectForm(page, { busy: true });
        expect(page.saves.calls).toHaveLength(page.savesBefore + 1);
      },
      refused: (page, { via }) => expectForm(page, { alert: messageFor(via) }),
      reloading: async (page) => {
        await see('the profile reloading', () => expect(page.server.heldReloads).toHaveLength(page.reloadsBefore + 1));
        // Saved, but the old values still show: no notice yet, the form stays busy.
        await expectForm(page, { busy: true });
        expect(within(card(page)).queryByRole('status')).toBeNull();
        // Still logged in with the token it had: asking for a new address ends no session.
        expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe('member-token');
      },
      saved: async (page) => {
        await expectViewing(page, UPDATED);
        // The notice comes with the reloaded profile: what was saved shows beside it at once.
        const { update } = page.saves.last().input;
        const shown = update.section === 'information' ? update.values.username : savedGoal(page.server.user);
        expect(within(card(page)).getByText(shown)).toBeTruthy();
        if (update.section === 'information') expect(within(card(page)).getByText(page.server.user.email)).toBeTruthy();
      },
    },
  };
}

describe('profileSection: the spec models replayed against the Information and Goals tabs', () => {
  afterEach(restoreProfileHarness);

  it('uses the spec delay and message', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
    expect(PROFILE_UPDATED_MESSAGE).toBe(UPDATED);
  });

  describe('Information', () => {
    const information = sectionPathTest(
      'Information',
      profileInformationModel,
      Object.fromEntries(
        Object.entries(informationSaves).map(([type, { change }]) => [type, (page: Page) => saveInformation(page, change)]),
      ),
      {
        ...Object.fromEntries(Object.entries(informationSaves).map(([type, { message }]) => [type, message])),
        'save.heightOnly': NOT_POSITIVE,
      },
      { 'server.refused': EMAIL_TAKEN, 'server.wrongPassword': WRONG_PASSWORD },
    );
    definePathTests<Page>({
      ...information,
      open: { ...information.open, 'profile.openedNewMember': (inspect) => openSection('Information', inspect, { bmi: null }) },
      perform: {
        ...information.perform,
        // Issue 21: a new member changes one field, touching nothing else.
        'save.newEmailOnly': (page) =>
          saveTyped(page, async () => {
            await fillField(page, 'Email', 'tbone@example.com');
            await fillField(page, 'Current password', 'secret123');
          }),
        'save.heightOnly': (page) => saveTyped(page, () => fillField(page, 'Height (cm)', '180')),
        'server.savedNewEmail': (page) => answerSaved(page, submittedEmail(page)),
        // The notice of the last save: the link's after a new address, else the plain one.
        'time.passed3s': (page) => noticeShownFor(3000, card, page.newEmailAnswered ? EMAIL_CHANGE_SENT : UPDATED)(page),
      },
      screens: {
        ...information.screens,
        reloadingNewEmail: (page, arrival) => information.screens.reloading(page, arrival),
        emailChangeSent: async (page) => {
          const wanted = 'tbone@example.com';
          await expectViewing(page, EMAIL_CHANGE_SENT);
          // The old address stays the account's; the new one shows as waiting for its link.
          expect(within(card(page)).getByText(page.server.user.email)).toBeTruthy();
          expect(page.server.user.email).not.toBe(wanted);
          expect(within(card(page)).getByText(new RegExp(`^${wanted}: waiting for you to open the link`))).toBeTruthy();
        },
        newMember: async (page) => {
          await expectViewing(page, null);
          expect(within(card(page)).getByText('Add your height and weight')).toBeTruthy();
        },
        newMemberEditing: async (page) => {
          await expectForm(page, {});
          for (const label of ['Height (cm)', 'Weight (kg)']) expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe('');
        },
        savingNewEmail: async (page, arrival) => {
          await information.screens.saving(page, arrival);
          // Neither height nor weight is sent, so neither rule stands in the way.
          if (arrival.via === 'save.newEmailOnly') {
            expect(page.saves.last().input.update.values).toEqual({
              username: 'tbone',
              email: 'tbone@example.com',
              currentPassword: 'secret123',
              bmi: { Gender: 'Male', date_of_birth: null },
            });
          }
        },
      },
    });
  });

  describe('Goals', () => {
    definePathTests<Page>(
      sectionPathTest(
        'Goals',
        profileGoalsModel,
        Object.fromEntries(Object.entries(goalsSaves).map(([type, { goal }]) => [type, (page: Page) => saveGoals(page, goal)])),
        Object.fromEntries(Object.entries(goalsSaves).map(([type, { message }]) => [type, message])),
        { 'server.refused': 'Reminder must be daily or weekly' },
      ),
    );
  });

  it('sends the current password only with a changed e-mail, and keeps it nowhere', async () => {
    const page = openSection('Information');
    await settle(() => card(page));
    await page.user.click(within(card(page)).getByRole('button', { name: 'Edit Profile' }));
    await saveInformation(page, { email: 'tbone@example.com', currentPassword: 'secret123' });
    expect(page.saves.last().input.update).toMatchObject({ values: { email: 'tbone@example.com', currentPassword: 'secret123' } });
    page.saves.last().settle.reject(new ApiError(WRONG_PASSWORD, 400));
    await settle(() => expect(within(card(page)).getByRole('alert').textContent).toBe(WRONG_PASSWORD));
    // Back to the saved address (another case): no password asked, none sent.
    await saveInformation(page, { email: ' RIBEYE@example.com ' });
    expect(page.saves.last().input.update.values).not.toHaveProperty('currentPassword');
    expect(page.saves.last().input.update).toMatchObject({ values: { email: 'RIBEYE@example.com' } });
    expect(JSON.stringify(localStorage)).not.toContain('secret123');
  });

  it('saves a new e-mail with the password; the form opens again with neither asked nor kept', async () => {
    const page = openSection('Information');
    await settle(() => card(page));
    await page.user.click(within(card(page)).getByRole('button', { name: 'Edit Profile' }));
    await saveInformation(page, { email: 'tbone@example.com', currentPassword: 'secret123' });
    answerSaved(page, null);
    await releaseReload(page);
    await settle(() => expect(within(card(page)).getByRole('status').textContent).toBe(UPDATED));
    await settle(() => expect(within(card(page)).getByText('tbone@example.com')).toBeTruthy());
    await page.user.click(within(card(page)).getByRole('button', { name: 'Edit Profile' }));
    expect(currentPasswordField()).toBeNull();
    await fillField(page, 'Email', 'porterhouse@example.com');
    expect(currentPasswordField()?.value).toBe('');
  });

  it('asks no password of an account that signs in with Google, Apple or Facebook; the server explains', async () => {
    const page = openSection('Information', undefined, { provider: 'google' });
    await settle(() => card(page));
    await page.user.click(within(card(page)).getByRole('button', { name: 'Edit Profile' }));
    await saveInformation(page, { email: 'tbone@example.com' });
    expect(page.saves.last().input.update.values).not.toHaveProperty('currentPassword');
    const refusal = 'Your email cannot be changed because this account signs in with Google, Apple or Facebook.';
    page.saves.last().settle.reject(new ApiError(refusal, 400));
    await settle(() => expect(within(card(page)).getByRole('alert').textContent).toBe(refusal));
  });
});
