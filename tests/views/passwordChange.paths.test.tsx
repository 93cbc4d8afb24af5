import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authMessages, authSessionMachine } from '../../machines/authSession.machine';
import { PASSWORD_CHANGED_MESSAGE, PASSWORD_CHANGED_MS, passwordChangeMachine } from '../../machines/passwordChange.machine';
import { ApiError } from '../../src/api/errors';
import type { ChangePasswordPayload } from '../../src/api/users';
import { SESSION_KEYS } from '../../src/auth/session';
import { profileMessages } from '../../src/lib/profileValidation';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

const AFTER_CHANGED = 'xstate.after.successMessage.passwordChange.closed.changed';
const STORED_TOKEN = 'member-token';
const RENEWED_TOKEN = 'jwt-after-change';
const submit = (currentPassword: string, password: string, passwordConfirmation: string, label: string) => ({
  type: 'change.submitted',
  label,
  fields: { currentPassword, password, passwordConfirmation },
});

const events: AnyEventObject[] = [
  { type: 'panel.toggled' },
  { type: 'change.cancelled' },
  submit('', 'newpass1', 'newpass1', 'blank current'),
  submit('oldpass1', 'newpass1', 'newpass2', 'mismatch'),
  submit('oldpass1', 'short', 'short', 'short'),
  submit('oldpass1', 'newpass1', 'newpass1', 'valid'),
  { type: 'xstate.done.actor.changePassword', output: RENEWED_TOKEN },
  { type: 'xstate.error.actor.changePassword', error: new ApiError('The provided current password is invalid', 400) },
  { type: AFTER_CHANGED },
];
const describeEvent = (event: AnyEventObject) => (event.label ? `${event.type}(${event.label})` : event.type);
const paths = transitionCoveringPaths(passwordChangeMachine, {
  events,
  // The model only needs a reference to an auth actor; the replays use the app's own.
  input: { auth: createActor(authSessionMachine, { input: { session: null } }) },
  transitionKey: (state, event) => JSON.stringify([state.value, state.context.error === null, describeEvent(event)]),
});

function harness() {
  const changes = deferredCalls<ChangePasswordPayload, string | null>();
  const passwordChange = passwordChangeMachine.provide({
    actors: { changePassword: fromPromise<string | null, ChangePasswordPayload>(({ input }) => changes.handler(input)) },
  });
  return { ...renderProfile('information', { passwordChange }), changes, token: STORED_TOKEN };
}
type Harness = ReturnType<typeof harness>;
const passwordCard = () => screen.getByRole('region', { name: 'Password' });

async function type(page: Harness, label: string, value: string) {
  const input = within(passwordCard()).getByLabelText(label, { selector: 'input' });
  await page.user.clear(input);
  if (value) await page.user.type(input, value);
}

async function perform(event: AnyEventObject, page: Harness) {
  switch (event.type) {
    case 'panel.toggled':
      await page.user.click(within(passwordCard()).getByRole('button', { name: 'Change Password' }));
      return;
    case 'change.cancelled':
      await page.user.click(within(passwordCard()).getByRole('button', { name: 'Cancel' }));
      return;
    case 'change.submitted':
      await type(page, 'Current Password', event.fields.currentPassword);
      await type(page, 'New Password', event.fields.password);
      await type(page, 'Confirm New Password', event.fields.passwordConfirmation);
      await page.user.click(within(passwordCard()).getByRole('button', { name: 'Update Password' }));
      return;
    case 'xstate.done.actor.changePassword':
      page.changes.last().settle.resolve(event.output);
      page.token = event.output;
      return;
    case 'xstate.error.actor.changePassword':
      page.changes.last().settle.reject(event.error);
      return;
    case AFTER_CHANGED:
      await act(() => vi.advanceTimersByTimeAsync(PASSWORD_CHANGED_MS - 1));
      expect(within(passwordCard()).getByRole('status').textContent).toBe(PASSWORD_CHANGED_MESSAGE);
      await act(() => vi.advanceTimersByTimeAsync(1));
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, lastEvent: AnyEventObject, page: Harness) {
  await settle(() => passwordCard());
  const card = passwordCard();
  // The member stays logged in on this device, with the token issued by the last change.
  expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' })).toBeTruthy();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(page.token);
  expect(localStorage.getItem(SESSION_KEYS.userId)).toBe('7');
  const toggle = within(card).getByRole('button', { name: 'Change Password' });
  if (state.matches('closed')) {
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(card).queryByLabelText('Current Password')).toBeNull();
    const notice = within(card).queryByRole('status');
    expect(notice?.textContent ?? null).toBe(state.matches({ closed: 'changed' }) ? PASSWORD_CHANGED_MESSAGE : null);
    expect(within(card).queryByRole('alert')).toBeNull();
    return;
  }
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  if (lastEvent.type === 'panel.toggled') {
    // Opening the panel again starts with empty fields.
    for (const label of ['Current Password', 'New Password', 'Confirm New Password']) {
      expect((within(card).getByLabelText(label, { selector: 'input' }) as HTMLInputElement).value).toBe('');
    }
  }
  const busy = state.hasTag('busy');
  expect((within(card).getByRole('button', { name: busy ? 'Changing...' : 'Update Password' }) as HTMLButtonElement).disabled).toBe(busy);
  if (state.context.error) {
    expect(within(card).getByRole('alert').textContent).toBe(state.context.error);
  } else {
    expect(within(card).queryByRole('alert')).toBeNull();
  }
}

describe('passwordChange machine: model-based paths replayed against the Change Password panel', () => {
  afterEach(restoreProfileHarness);

  it('reaches every state and takes every event, with the spec messages', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(passwordChangeMachine).filter((id) => !reached.has(id))).toEqual([]);
    const taken = new Set(paths.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
    expect([profileMessages.passwordsRequired, profileMessages.passwordsMismatch, profileMessages.passwordTooShort]).toEqual([
      'All password fields are required',
      'New passwords do not match',
      'New password must be at least 6 characters',
    ]);
  });

  it('sends currentPassword, password and passwordConfirmation', async () => {
    const page = harness();
    await settle(() => passwordCard());
    await perform({ type: 'panel.toggled' }, page);
    await perform(events[5], page);
    expect(page.changes.last().input).toEqual({ currentPassword: 'oldpass1', password: 'newpass1', passwordConfirmation: 'newpass1' });
  });

  it('logs out when the server revoked the token but sent no new one', async () => {
    const page = harness();
    await settle(() => passwordCard());
    await perform({ type: 'panel.toggled' }, page);
    await perform(events[5], page);
    page.changes.last().settle.resolve(null);
    await settle(() => expect(page.router.state.location.pathname).toBe('/login'));
    await settle(() => expect(screen.getByRole('status').textContent).toBe(authMessages.sessionExpired));
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
  });

  it.each(paths.map((path): [string, ModelPath] => [describePath(path, describeEvent), path]))('%s', async (_name, path) => {
    const page = harness();
    await expectScreen(path.steps[0].state, path.steps[0].event, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, step.event, page);
    }
  });
});
