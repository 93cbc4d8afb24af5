// @ts-nocheck
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, renderApp } from '../support/renderApp';

describe('Sign Up page', () => {
  it('has its title, fields, show/hide toggle and links', async () => {
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Carnivo - Sign Up'));
    const password = screen.getByLabelText('Password', { selector: 'input' });
    expect(password.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    const card = screen.getByRole('heading', { name: 'Sign Up' }).parentElement!;
    expect(within(card).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
  });

  it('Google and Facebook only show the spec alerts', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const app = renderApp('/signup');
    await userEvent.click(await screen.findByRole('button', { name: 'Google' }));
    await userEvent.click(screen.getByRole('button', { name: 'Facebook' }));
    expect(alert.mock.calls).toEqual([['Google sign-up not implemented'], ['Facebook sign-up not implemented']]);
    expect(app.registerCalls.calls).toHaveLength(0);
  });

  it('sends trimmed fields and nothing when invalid', async () => {
    const app = renderApp('/signup');
    await userEvent.type(await screen.findByLabelText('Username'), '  ribeye ');
    await userEvent.type(screen.getByLabelText('Email'), 'ribeye@');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter a valid email address.');
    expect(app.registerCalls.calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Email'), 'example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(app.registerCalls.calls).toHaveLength(1));
    expect(app.registerCalls.last().input).toEqual({ username: 'ribeye', email: 'ribeye@example.com', password: 'secret123' });
  });
});

describe('Log In page', () => {
  it('has its title, fields, Remember Me, social buttons and links', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Carnivo - Log In'));
    expect(screen.getByLabelText('Email or Username')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Remember Me' })).toBeTruthy();
    for (const name of ['Continue with Google', 'Continue with Apple', 'Continue with Facebook']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(false);
    }
    expect(screen.getByRole('link', { name: 'Reset Password' }).getAttribute('href')).toBe('/reset-password');
  });

  it("shows another flow's notice in green, and drops it once the person leaves /login", async () => {
    const app = renderApp('/');
    await screen.findByRole('navigation', { name: 'Main' });
    app.auth.send({ type: 'login.requested', notice: 'Social login failed' });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect((await screen.findByRole('status')).textContent).toBe('Social login failed');
    expect(screen.getByRole('status').className).toContain('alert--success');

    await app.router.navigate({ to: '/signup' });
    await screen.findByRole('heading', { name: 'Sign Up' });
    await app.router.navigate({ to: '/login' });
    await screen.findByRole('heading', { name: 'Log In' });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('returns to a safe `from` after login', async () => {
    vi.stubGlobal('fetch', fakeServer().fetch);
    const app = renderApp('/login?from=%2Fprofile');
    await userEvent.type(await screen.findByLabelText('Email or Username'), 'ribeye');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(app.loginCalls.calls).toHaveLength(1));
    expect(app.loginCalls.last().input).toEqual({ identifier: 'ribeye', password: 'secret123' });
    app.loginCalls.last().settle.resolve({ jwt: 'j', user: { id: 3, createdAt: 'x' } });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/profile'));
    expect((await screen.findByText(/Hello,/)).textContent).toContain('ribeye');
    vi.unstubAllGlobals();
  });

  it('drops a `from` that leaves the site', async () => {
    const app = renderApp('/login?from=%2F%2Fevil.example');
    await userEvent.type(await screen.findByLabelText('Email or Username'), 'ribeye');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(app.loginCalls.calls).toHaveLength(1));
    app.loginCalls.last().settle.resolve({ jwt: 'j', user: { id: 3, createdAt: 'x' } });
    await waitFor(() => expect(app.router.state.location.href).toBe('/'));
  });

  it('reads no `from` that leaves the site', async () => {
    const app = renderApp('/login?from=%2F%2Fevil.example');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(app.router.state.matches.at(-1)?.search).toMatchObject({ from: undefined });
  });
});

describe('routing', () => {
  it('sends a logged-out visitor of /profile to /login with from, replacing history', async () => {
    const app = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(app.router.state.location.pathname).toBe('/login');
    expect(app.router.state.location.search).toEqual({ from: '/profile' });
    expect(app.router.history.length).toBe(1);
  });

  it('redirects an unknown path to /', async () => {
    const app = renderApp('/no/such/page');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  });

  it('underlines the active link and toggles the mobile menu', async () => {
    renderApp('/signup');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Sign Up' }).getAttribute('aria-current')).toBe('page'));
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(nav.className).toContain('nav--open');
    await userEvent.click(within(nav).getByRole('link', { name: 'Log In' }));
    expect(nav.className).not.toContain('nav--open');
  });

  it('Email Confirmed sends logged-out people to log in', async () => {
    renderApp('/email-confirmation');
    expect(await screen.findByRole('heading', { name: 'Email Confirmed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log In Now' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });

  it('Email Confirmed sends logged-in people to their profile', async () => {
    localStorage.setItem('jwt', 'token');
    localStorage.setItem('userId', '1');
    renderApp('/email-confirmation');
    await screen.findByRole('heading', { name: 'Email Confirmed' });
    expect(screen.getByRole('link', { name: 'Go to Profile' }).getAttribute('href')).toBe('/profile');
  });

  it('Log Out clears storage and closes the mobile menu', async () => {
    localStorage.setItem('jwt', 'token');
    localStorage.setItem('userId', '1');
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(within(nav).getByRole('button', { name: 'Log Out' }));
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(nav.className).not.toContain('nav--open');
    expect(within(nav).getByRole('link', { name: 'Log In' })).toBeTruthy();
  });
});
