import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authSessionMachine } from '../../machines/authSession.machine';
import { RESET_SUCCESS_MESSAGE, passwordResetMachine } from '../../machines/passwordReset.machine';
import { ApiError } from '../../src/api/errors';
import type { ResetPasswordPayload } from '../../src/api/passwordReset';
import { SESSION_KEYS } from '../../src/auth/session';
import { resetMessages } from '../../src/lib/validation';
import { deferredCalls } from '../support/deferred';
import { describePath, leafStateIds, transitionCoveringPaths, type ModelPath } from '../support/modelPaths';
import { renderApp } from '../support/renderApp';

const events: AnyEventObject[] = [
  { type: 'email.submitted', email: '' },
  { type: 'email.submitted', email: 'ribeye@' },
  { type: 'email.submitted', email: 'ribeye@example.com' },
  { type: 'xstate.done.actor.requestCode' },
  { type: 'xstate.error.actor.requestCode', error: new ApiError('Too many requests, please try again later.', 429) },
  { type: 'reset.submitted', code: '', password: 'newpass1', passwordConfirmation: 'newpass1' },
  { type: 'reset.submitted', code: 'c0de', password: '', passwordConfirmation: 'newpass1' },
  { type: 'reset.submitted', code: 'c0de', password: 'newpass1', passwordConfirmation: 'newpass2' },
  { type: 'reset.submitted', code: 'c0de', password: 'short', passwordConfirmation: 'short' },
  { type: 'reset.submitted', code: 'c0de', password: 'newpass1', passwordConfirmation: 'newpass1' },
  { type: 'xstate.done.actor.resetPassword' },
  { type: 'xstate.error.actor.resetPassword', error: new ApiError('Incorrect code provided', 400) },
  { type: 'code.requestedAgain' },
];

function describeEvent(event: AnyEventObject): string {
  if (event.type === 'email.submitted') return `email.submitted(${JSON.stringify(event.email)})`;
  if (event.type === 'reset.submitted') {
    return `reset.submitted(${JSON.stringify([event.code, event.password, event.passwordConfirmation])})`;
  }
  return event.type;
}

const linkCode = 'from-email-link';
// One replay per (state, code sent or not, error or not, event): the error's wording is checked by every failure path.
const transitionKey = (state: AnyMachineSnapshot, event: AnyEventObject) =>
  JSON.stringify([state.value, state.context.codeSent, state.context.error === null, describeEvent(event)]);
// The model only needs a reference to an auth actor; the replays use the app's own.
const auth = createActor(authSessionMachine, { input: { session: null } });
const startsWithoutCode = transitionCoveringPaths(passwordResetMachine, { events, input: { auth }, transitionKey });
const startsWithCode = transitionCoveringPaths(passwordResetMachine, { events, input: { auth, code: linkCode }, transitionKey });

function renderResetPage(code?: string) {
  const requestCalls = deferredCalls<{ email: string }, void>();
  const resetCalls = deferredCalls<ResetPasswordPayload, void>();
  const passwordReset = passwordResetMachine.provide({
    actors: {
      requestCode: fromPromise<void, { email: string }>(({ input }) => requestCalls.handler(input)),
      resetPassword: fromPromise<void, ResetPasswordPayload>(({ input }) => resetCalls.handler(input)),
    },
  });
  const app = renderApp(code ? `/reset-password?code=${code}` : '/reset-password', { flows: { passwordReset } });
  return { ...app, requestCalls, resetCalls };
}

type Page = ReturnType<typeof renderResetPage>;

async function fill(label: string, value: string) {
  const input = await screen.findByLabelText(label, { selector: 'input' });
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
}

async function perform(event: AnyEventObject, page: Page) {
  switch (event.type) {
    case 'email.submitted':
      await fill('Email', event.email);
      await userEvent.click(screen.getByRole('button', { name: 'Send Reset Code' }));
      return;
    case 'reset.submitted':
      await fill('Reset Code', event.code);
      await fill('New Password', event.password);
      await fill('Confirm New Password', event.passwordConfirmation);
      await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
      return;
    case 'code.requestedAgain':
      await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
      return;
    case 'xstate.done.actor.requestCode':
      page.requestCalls.last().settle.resolve();
      return;
    case 'xstate.error.actor.requestCode':
      page.requestCalls.last().settle.reject(event.error);
      return;
    case 'xstate.done.actor.resetPassword':
      page.resetCalls.last().settle.resolve();
      return;
    case 'xstate.error.actor.resetPassword':
      page.resetCalls.last().settle.reject(event.error);
      return;
    default:
      throw new Error(`No way to perform ${event.type}`);
  }
}

async function expectScreen(state: AnyMachineSnapshot, page: Page) {
  if (state.matches('done')) {
    await waitFor(() => expect(page.router.state.location.pathname).toBe('/login'));
    await screen.findByRole('heading', { name: 'Log In' });
    expect((await screen.findByRole('status')).textContent).toBe(RESET_SUCCESS_MESSAGE);
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
    return;
  }
  await screen.findByRole('heading', { name: 'Reset Password' });
  if (state.matches('emailEntry')) {
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.queryByLabelText('Reset Code')).toBeNull();
  } else {
    if (state.matches({ codeEntry: 'idle' }) && !state.context.codeSent) {
      // Arrived from the e-mail link: the code is prefilled.
      expect((screen.getByLabelText('Reset Code') as HTMLInputElement).value).toBe(state.context.code);
    }
    expect(screen.queryByLabelText('Email')).toBeNull();
    if (state.context.codeSent) {
      expect(screen.getByRole('status').textContent).toContain(`If an account exists for ${state.context.email}`);
    }
  }
  if (state.matches({ emailEntry: 'sending' })) {
    expect((screen.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement).disabled).toBe(true);
  } else if (state.matches({ codeEntry: 'resetting' })) {
    expect((screen.getByRole('button', { name: 'Resetting...' }) as HTMLButtonElement).disabled).toBe(true);
  } else if (state.matches({ emailEntry: 'failure' }) || state.matches({ codeEntry: 'failure' })) {
    expect((await screen.findByRole('alert')).textContent).toBe(state.context.error);
  } else {
    expect(screen.queryByRole('alert')).toBeNull();
  }
}

describe('passwordReset machine: model-based paths replayed against the Reset Password page', () => {
  it('reaches every state and takes every event', () => {
    const all = [...startsWithoutCode, ...startsWithCode];
    const reached = new Set(all.flatMap((path) => path.steps.flatMap(({ state }) => state._nodes.map((node: { id: string }) => node.id))));
    expect(leafStateIds(passwordResetMachine).filter((id) => !reached.has(id) && !id.endsWith('.start'))).toEqual([]);
    const taken = new Set(all.flatMap((path) => path.steps.slice(1).map((step) => describeEvent(step.event))));
    expect(events.map(describeEvent).filter((name) => !taken.has(name))).toEqual([]);
  });

  it('uses the spec messages', () => {
    expect(resetMessages).toEqual({
      missingEmail: 'Please enter your email.',
      invalidEmail: 'Please enter a valid email address.',
      missingCode: 'Please enter the reset code.',
      missingPasswords: 'Please fill in both password fields.',
      mismatch: 'Passwords do not match.',
      tooShort: 'Password should be at least 6 characters.',
    });
  });

  const cases = [
    ...startsWithoutCode.map((path): [string, string | undefined, ModelPath] => [describePath(path, describeEvent), undefined, path]),
    ...startsWithCode.map((path): [string, string | undefined, ModelPath] => [`?code → ${describePath(path, describeEvent)}`, linkCode, path]),
  ];

  it.each(cases)('%s', async (_name, code, path) => {
    const page = renderResetPage(code);
    await expectScreen(path.steps[0].state, page);
    for (const step of path.steps.slice(1)) {
      await perform(step.event, page);
      await expectScreen(step.state, page);
    }
  });

  it('logs this browser out: the reset revoked the stored token', async () => {
    localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
    localStorage.setItem(SESSION_KEYS.userId, '7');
    const page = renderResetPage(linkCode);
    await screen.findByRole('heading', { name: 'Reset Password' });
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Log Out' })).toBeTruthy();
    await perform({ type: 'reset.submitted', code: linkCode, password: 'newpass1', passwordConfirmation: 'newpass1' }, page);
    page.resetCalls.last().settle.resolve();
    await expectScreen(passwordResetMachine.resolveState({ value: 'done', context: { auth, email: '', code: linkCode, error: null, codeSent: false } }), page);
    expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Log In' })).toBeTruthy();
  });

  it('sends the trimmed email and the reset payload of SPEC §7', async () => {
    const page = renderResetPage();
    await perform({ type: 'email.submitted', email: ' ribeye@example.com ' }, page);
    expect(page.requestCalls.last().input).toEqual({ email: 'ribeye@example.com' });
    page.requestCalls.last().settle.resolve();
    await perform({ type: 'reset.submitted', code: 'c0de', password: 'newpass1', passwordConfirmation: 'newpass1' }, page);
    expect(page.resetCalls.last().input).toEqual({ code: 'c0de', password: 'newpass1', passwordConfirmation: 'newpass1' });
  });
});
