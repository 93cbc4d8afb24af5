import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { User } from '../../server/src/contract/users';
import type { ProfileTabId } from '../../src/features/profile/profileTabs';
import { profileShell } from '../../src/app/profileShell';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { sampleUser } from '../support/renderApp';
import { settle } from '../support/settle';

/**
 * The profile shell (src/app/profileShell.ts) paints, before the app runs, the page the app
 * then renders in its place: the same elements, attributes and words, compared here node by node
 * with the real app rendered for the same member.
 */

/** A node as the member sees it: tag, attributes in a fixed order, text; nothing else. */
function outline(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.textContent);
  if (!(node instanceof Element)) return '';
  // An image's address as the browser resolves it (the app writes it absolute, the shell as the API sent it).
  const value = (name: string, raw: string) => (node instanceof HTMLImageElement && name === 'src' ? node.src : raw);
  const attributes = [...node.attributes].map(({ name, value: raw }) => `${name}=${JSON.stringify(value(name, raw))}`).sort();
  const children = [...node.childNodes].map(outline).filter(Boolean);
  return `<${node.localName}${attributes.map((attribute) => ` ${attribute}`).join('')}>${children.join('')}</${node.localName}>`;
}

/**
 * The app's page without what it has beyond the shell: the router's own marks, the picture's hidden
 * file input, and the cards below the Information section (outside the first screen, left to the app).
 */
function appPageAsPainted(container: HTMLElement, shellContentLength: number): string {
  const page = container.cloneNode(true) as HTMLElement;
  page.querySelectorAll('[data-status]').forEach((element) => element.removeAttribute('data-status'));
  page.querySelectorAll('input[type="file"][hidden]').forEach((input) => input.remove());
  [...page.querySelector('.profile__content')!.children].slice(shellContentLength).forEach((card) => card.remove());
  return [...page.childNodes].map(outline).join('\n');
}

/** The shell and the app for `member` on /profile?tab=`tab` ('' names no tab: the Information tab). */
async function compare(tab: ProfileTabId | '', member: Partial<User>) {
  const shell = profileShell({ ...sampleUser, ...member }, tab);
  const { container } = renderProfile(tab, {}, member);
  await settle(() => screen.getByRole('heading', { name: 'Profile', level: 1 }));
  if (tab === 'information' || tab === '') await settle(() => screen.getByRole('region', { name: 'Information' }));
  const shellContentLength = shell.at(-1)!.querySelector('.profile__content')!.children.length;
  expect(shell.map(outline).join('\n')).toBe(appPageAsPainted(container, shellContentLength));
}

const measured = { id: 1, height: 180, currentWeight: 95, Gender: 'Female', date_of_birth: '1980-05-01', idealBmiWeight: null } as const;

describe('the profile shell paints the page the app renders', () => {
  afterEach(restoreProfileHarness);

  it('a new member: no measures, no picture', async () => {
    await compare('information', { bmi: null, profile_picture: null });
  });

  it('/profile naming no tab: the Information tab, its link current without being the very URL', async () => {
    await compare('', { bmi: null, profile_picture: null });
  });

  it('measures in metric, with the BMI and its category', async () => {
    await compare('information', { bmi: measured });
  });

  it('measures in imperial units, with a picture', async () => {
    const picture = { ...({} as NonNullable<User['profile_picture']>), id: 3, url: '/uploads/ribeye_1a2b.png', mime: 'image/png' };
    await compare('information', { bmi: measured, unit_system: 'imperial', profile_picture: picture });
  });

  it.each(['diet', 'goals', 'subscriptions'] as const)('the %s tab: the page around it, the tab itself left to the app', async (tab) => {
    await compare(tab, { bmi: measured });
  });

  it('writes what the member typed as text, never as markup', () => {
    const [, , main] = profileShell({ ...sampleUser, username: '<img src=x onerror=alert(1)>' }, null);
    expect(main.querySelector('img')).toBeNull();
    expect(main.querySelector('.profile__greeting strong')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });
});

describe("the app takes the shell's profile request over", () => {
  afterEach(() => {
    delete window.carnivoEarlyProfile;
    restoreProfileHarness();
  });

  const early = (jwt: string, user: User | null) => {
    window.carnivoEarlyProfile = { jwt, user: Promise.resolve(user) };
  };

  it('renders from its answer without asking again; a later load (after a change) asks the server', async () => {
    early('member-token', { ...sampleUser, username: 'early-answer' });
    const page = renderProfile('information', {});
    await settle(() => screen.getByText('early-answer', { selector: '.profile__greeting strong' }));
    expect(page.server.profileLoads).toBe(0);
    expect(window.carnivoEarlyProfile).toBeUndefined();
    await act(() => page.router.invalidate());
    await settle(() => screen.getByText('ribeye', { selector: '.profile__greeting strong' }));
    expect(page.server.profileLoads).toBe(1);
  });

  it('asks the server itself when the early request failed', async () => {
    early('member-token', null);
    const page = renderProfile('information', {});
    await settle(() => screen.getByText('ribeye', { selector: '.profile__greeting strong' }));
    expect(page.server.profileLoads).toBe(1);
  });

  it('ignores an answer sent with another token than the one stored now', async () => {
    early('an-earlier-token', { ...sampleUser, username: 'someone-else' });
    const page = renderProfile('information', {});
    await settle(() => screen.getByText('ribeye', { selector: '.profile__greeting strong' }));
    expect(page.server.profileLoads).toBe(1);
    expect(screen.queryByText('someone-else')).toBeNull();
  });
});
