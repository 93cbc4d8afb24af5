import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { see } from './pathTests';
import { seeButton, seeLoggedOut, seeMessages, seePath, wholePage } from './pathSteps';

/** The performers and screens of the Sign Up and Log In pages that the session's and the sign-in flows' path tests share. */

type Routed = Parameters<typeof seePath>[0];

export async function fill(label: string, value: string) {
  const input = await screen.findByLabelText(label, { selector: 'input' });
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
}

export type SignUpFields = { username: string; email: string; password: string };

export async function submitSignUp(fields: SignUpFields) {
  await fill('Username', fields.username);
  await fill('Email', fields.email);
  await fill('Password', fields.password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
}

export async function submitLogIn() {
  await fill('Email or Username', 'ribeye');
  await fill('Password', 'secret123');
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

export async function submitCode(code: string) {
  await fill('Authentication code', code);
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
}

export const backFromCode = () => userEvent.click(screen.getByRole('button', { name: 'Back' }));

/** A form page, logged out: its heading, its button (busy or not), the alert and the green notice. */
export async function expectForm(page: Routed, form: { pathname: '/signup' | '/login'; busy?: boolean; alert?: string; notice?: string }) {
  await seePath(page, form.pathname);
  await seeLoggedOut();
  const [heading, idle, busy] =
    form.pathname === '/signup' ? ['Sign Up', 'Sign Up', 'Signing Up...'] : ['Log In', 'Log In', 'Logging In...'];
  await see(`the heading '${heading}'`, () => screen.getByRole('heading', { level: 1, name: heading }));
  await seeButton(wholePage, { idle, busy }, form.busy ?? false);
  await seeMessages(wholePage, form);
}

/** The Log In form at rest, its identifier as `typed` (kept after the second step's Back) and the password empty. */
export async function expectLogInForm(page: Routed, typed: string) {
  await expectForm(page, { pathname: '/login' });
  expect((screen.getByLabelText('Email or Username', { selector: 'input' }) as HTMLInputElement).value).toBe(typed);
  expect((screen.getByLabelText('Password', { selector: 'input' }) as HTMLInputElement).value).toBe('');
}

/** The second step of a log-in: the code field under the Log In heading, no password field, nothing stored. */
export async function expectCodeForm(page: Routed, { busy = false, alert }: { busy?: boolean; alert?: string } = {}) {
  await seePath(page, '/login');
  await seeLoggedOut();
  await see("the form 'Two-factor authentication'", () => screen.getByRole('form', { name: 'Two-factor authentication' }));
  expect(screen.getByText('Enter the 6-digit code from your authenticator app, or one of your recovery codes.')).toBeTruthy();
  expect(screen.queryByLabelText('Password', { selector: 'input' })).toBeNull();
  await seeButton(wholePage, { idle: 'Verify', busy: 'Verifying...' }, busy);
  await seeMessages(wholePage, { alert });
}
