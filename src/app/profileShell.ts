import type { User } from '../../server/src/contract/users';
import { BRAND } from '../config/brand';
import { publicLinks } from '../components/navLinks';
import { bottomBarTabs, isProfileTab, profileTabs, type ProfileTabId } from '../features/profile/profileTabs';
import { bmiBadgeClassName, informationDetails } from '../features/profile/informationDetails';

/**
 * The profile page as the app renders it for this member (RootLayout, NavBar, ProfilePage and the
 * Information tab's picture and Information cards, everything in view before the app runs), built
 * with plain DOM calls: the profile shell (src/entry-profile-shell.ts) paints it before the app's
 * code has loaded. Same elements, classes and words as the app's, so the app replaces it without
 * a visible change (tests/views/profileShell.test.tsx compares them). Other tabs get the page
 * around their content; the app brings the content.
 */

type Child = Node | string | null | undefined | false;

/** An element with its attributes and children; text is set as text, never parsed as markup. */
function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children.filter((child): child is Node | string => child !== null && child !== undefined && child !== false));
  return element;
}

/** src/components/Logo.tsx at 32 px (static markup, no member data). */
const LOGO =
  '<svg width="32" height="32" viewBox="0 0 64 64" aria-hidden="true" focusable="false"><rect width="64" height="64" rx="14" fill="#7a1f1f"></rect>' +
  '<path d="M20 42c-4-8 0-22 14-24 9-1 14 6 12 13-2 8-10 8-14 13-3 4-9 5-12-2z" fill="#f4d9c6"></path><circle cx="36" cy="29" r="4" fill="#7a1f1f"></circle></svg>';

/**
 * A link item of a list; the current page's link is marked as the app marks it, with the router's
 * own "active" class when the link is the very URL (a tab link, when the URL names its tab).
 */
function linkItem(className: string, href: string, label: string, current: 'no' | 'page' | 'url'): HTMLElement {
  const classes = current === 'no' ? className : `${className} ${className}--active${current === 'url' ? ' active' : ''}`;
  return h('li', {}, h('a', current === 'no' ? { class: classes, href } : { class: classes, 'aria-current': 'page', href }, label));
}

/** NavBar for a member, menu closed. */
function siteHeader(): HTMLElement {
  const brand = h('a', { class: 'brand', href: '/' });
  brand.innerHTML = LOGO;
  brand.append(h('span', {}, BRAND));
  const toggle = h(
    'button',
    { type: 'button', class: 'nav-toggle', 'aria-expanded': 'false', 'aria-controls': 'main-navigation', 'aria-label': 'Open menu' },
    h('span', { 'aria-hidden': 'true' }, '☰'),
  );
  const links = [...publicLinks, { to: '/profile', label: 'Profile' }].map(({ to, label }) =>
    linkItem('nav__link', to, label, to === '/profile' ? 'page' : 'no'),
  );
  const logOut = h('li', {}, h('button', { type: 'button', class: 'nav__link nav__button' }, 'Log Out'));
  return h(
    'header',
    { class: 'site-header' },
    h('div', { class: 'site-header__bar' }, brand, toggle),
    h('nav', { id: 'main-navigation', 'aria-label': 'Main', class: 'nav' }, h('ul', { class: 'nav__list' }, ...links, logOut)),
  );
}

type ShownTab = { id: ProfileTabId; named: boolean };

function tabLinks(shown: ShownTab, ids: readonly ProfileTabId[]): HTMLElement {
  const tabs = profileTabs.filter((tab) => ids.includes(tab.id));
  const current = (id: ProfileTabId) => (id !== shown.id ? 'no' : shown.named ? 'url' : 'page');
  return h(
    'ul',
    { class: 'profile-tabs__list' },
    ...tabs.map((tab) => linkItem('profile-tabs__link', `/profile?tab=${tab.id}`, tab.label, current(tab.id))),
  );
}

/** ProfilePicture at rest. */
function pictureCard(user: User): HTMLElement {
  const picture = user.profile_picture;
  const shown = picture
    ? h('img', { src: picture.url, alt: 'Your profile picture', width: '120', height: '120' })
    : h('span', { class: 'profile-picture__initial', 'aria-hidden': 'true' }, user.username.slice(0, 1).toUpperCase());
  return h(
    'section',
    { class: 'profile-card profile-picture', 'aria-label': 'Profile picture' },
    h('div', { class: 'profile-picture__frame' }, shown),
    h(
      'div',
      { class: 'profile-picture__controls' },
      h('button', { type: 'button', class: 'button' }, picture ? 'Change Photo' : 'Upload Photo'),
    ),
  );
}

/** The Information section (EditableSection) viewed. */
function informationCard(user: User): HTMLElement {
  const details = informationDetails(user).flatMap(({ label, value, category }) => [
    h('dt', {}, label),
    h('dd', {}, value, category && ' ', category && h('span', { class: bmiBadgeClassName(category) }, category.label)),
  ]);
  return h(
    'section',
    { class: 'profile-card', 'aria-label': 'Information' },
    h('header', { class: 'profile-card__header' }, h('h2', {}, 'Information')),
    h('dl', { class: 'details' }, ...details),
    h('div', { class: 'profile-card__actions' }, h('button', { type: 'button', class: 'button button--primary' }, 'Edit Profile')),
  );
}

/** The children of the app's root element for `user` on /profile?tab=`requestedTab` (the Information tab unless it names another). */
export function profileShell(user: User, requestedTab: string | null): HTMLElement[] {
  const named = isProfileTab(requestedTab);
  const tab = named ? requestedTab : 'information';
  const shown = { id: tab, named };
  const allTabs = profileTabs.map((candidate) => candidate.id);
  const activeLabel = profileTabs.find((candidate) => candidate.id === tab)?.label ?? '';
  const content = tab === 'information' ? [pictureCard(user), informationCard(user)] : [];
  const profile = h(
    'div',
    { class: 'profile' },
    h(
      'aside',
      { class: 'profile__sidebar' },
      h('p', { class: 'profile__greeting' }, 'Hello, ', h('strong', {}, user.username)),
      h('nav', { 'aria-label': 'Profile sections' }, tabLinks(shown, allTabs)),
    ),
    h(
      'div',
      { class: 'profile__mobile-bar' },
      h('button', { type: 'button', class: 'button', 'aria-expanded': 'false', 'aria-controls': 'profile-menu' }, 'All sections'),
      h('span', { class: 'profile__mobile-title' }, activeLabel),
    ),
    h('nav', { id: 'profile-menu', 'aria-label': 'All profile sections', class: 'profile__drawer' }, tabLinks(shown, allTabs)),
    h('div', { class: 'profile__content' }, h('h1', { class: 'profile__title' }, 'Profile'), ...content),
    h('nav', { 'aria-label': 'Profile quick links', class: 'profile__bottom-bar' }, tabLinks(shown, bottomBarTabs)),
  );
  return [
    h('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
    siteHeader(),
    h('main', { id: 'main', tabindex: '-1' }, profile),
  ];
}
