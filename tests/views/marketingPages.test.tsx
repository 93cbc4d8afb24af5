import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { site } from '../../src/config/site';
import { CONTACT_DISABLED_MESSAGE } from '../../src/features/marketing/ContactPage';
import { SCREENSHOT_PLACEHOLDER, STAT_ROTATION_MS, heroStats } from '../../src/features/marketing/content';
import { useRotatingIndex } from '../../src/features/marketing/useRotatingIndex';
import { renderApp } from '../support/renderApp';

function logIn() {
  localStorage.setItem('jwt', 'test-jwt');
  localStorage.setItem('userId', '7');
}

async function openPage(path: string, heading: string | RegExp) {
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: heading });
  return { ...app, main: within(screen.getByRole('main')) };
}

const meta = (name: string) => document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

function footerLinks() {
  const footer = within(screen.getByRole('navigation', { name: 'Footer' }));
  return footer.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Landing page', () => {
  it('sets title, description and keywords, and carries the JSON-LD of SPEC §2 and §9', async () => {
    await openPage('/', 'The diet app made for carnivore and ketovore eaters');
    await waitFor(() => expect(document.title).toBe('Carnivo - Carnivore & Ketovore Diet App'));
    await waitFor(() => expect(meta('description')).toContain('carnivore and ketovore diet app'));
    expect(meta('keywords')).toContain('carnivore diet app');

    const scripts = [...document.querySelectorAll('script[type="application/ld+json"]')];
    expect(scripts).toHaveLength(1);
    const data = JSON.parse(scripts[0].textContent ?? '') as { '@context': string; '@graph': Array<Record<string, any>> };
    expect(data['@context']).toBe('https://schema.org');
    const byType = Object.fromEntries(data['@graph'].map((node) => [node['@type'], node]));
    expect(Object.keys(byType).sort()).toEqual(['MobileApplication', 'Organization', 'WebSite']);
    expect(byType.MobileApplication.aggregateRating).toMatchObject({ ratingValue: 4.8, reviewCount: 50000 });
    expect(byType.MobileApplication.offers).toMatchObject({ price: 0, priceCurrency: 'USD' });
    expect(byType.Organization).toMatchObject({ name: 'Carnivo', email: site.contactEmail, telephone: site.phone });
    expect(byType.WebSite.potentialAction['@type']).toBe('SearchAction');
    const target = new URL(byType.WebSite.potentialAction.target.urlTemplate.replace('{search_term_string}', 'ribeye'));
    expect(target.pathname).toBe('/search');
    expect(target.searchParams.get('q')).toBe('ribeye');
    expect(byType.WebSite.potentialAction['query-input']).toBe('required name=search_term_string');
  });

  it('has the hero, three categories, three testimonials, the three FAQ entries and the call to action', async () => {
    const { main } = await openPage('/', /carnivore and ketovore eaters/);
    expect(main.getByTestId('hero-stat').textContent).toContain('50,000+');
    expect(main.getByText('Free 21-day meal plan')).toBeTruthy();
    for (const category of ['Personalization', 'Health and Weight Tracking', 'Meal Planning and Support']) {
      main.getByRole('heading', { level: 3, name: category });
    }
    expect(main.getAllByRole('figure')).toHaveLength(3);
    const questions = [...document.querySelectorAll('.faq summary')].map((summary) => summary.textContent);
    expect(questions).toEqual([
      'What is the best carnivore diet app?',
      'Does it support both carnivore and ketovore diets?',
      'How does the elimination diet feature work?',
    ]);
    for (const badge of ['No credit card required', '30-day money-back guarantee', 'Free download']) main.getByText(badge);
    const appStore = main.getByRole('link', { name: /Download on the App Store/ });
    const googlePlay = main.getByRole('link', { name: /Get it on Google Play/ });
    for (const [link, href] of [
      [appStore, site.stores.appStore],
      [googlePlay, site.stores.googlePlay],
    ] as const) {
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    // Screen readers get every stat at once.
    for (const { value, label } of heroStats) main.getByText(`${value} ${label}`);
  });

  it('footer logged out: Start Carnivore Journey, Log In, Carnivore Diet Features, plus the three always-there links', async () => {
    await openPage('/', /carnivore and ketovore eaters/);
    expect(footerLinks()).toEqual([
      ['Start Carnivore Journey', '/signup'],
      ['Log In', '/login'],
      ['Carnivore Diet Features', '/features'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms and Conditions', '/terms'],
      ['Contact', '/contact'],
    ]);
    expect(screen.getByText(/© 2025 Carnivo/)).toBeTruthy();
  });

  it('footer logged in: only Profile added', async () => {
    logIn();
    await openPage('/', /carnivore and ketovore eaters/);
    expect(footerLinks()).toEqual([
      ['Profile', '/profile'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms and Conditions', '/terms'],
      ['Contact', '/contact'],
    ]);
  });
});

describe('hero stat rotation', () => {
  const stubReducedMotion = (matches: boolean) =>
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: matches && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));

  afterEach(() => vi.unstubAllGlobals());

  it('moves to the next of the three stats every 3000 ms', () => {
    expect(STAT_ROTATION_MS).toBe(3000);
    vi.useFakeTimers();
    const { result } = renderHook(() => useRotatingIndex(heroStats.length, STAT_ROTATION_MS));
    expect(result.current.index).toBe(0);
    act(() => vi.advanceTimersByTime(2999));
    expect(result.current.index).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.index).toBe(1);
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.index).toBe(2);
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.index).toBe(0);
  });

  it('stands still when the visitor prefers reduced motion', () => {
    stubReducedMotion(true);
    vi.useFakeTimers();
    const { result } = renderHook(() => useRotatingIndex(heroStats.length, STAT_ROTATION_MS));
    act(() => vi.advanceTimersByTime(30_000));
    expect(result.current).toMatchObject({ index: 0, running: false, reducedMotion: true });
    act(() => result.current.select(2));
    expect(result.current.index).toBe(2);
  });

  it('pauses and plays on request', () => {
    stubReducedMotion(false);
    vi.useFakeTimers();
    const { result } = renderHook(() => useRotatingIndex(heroStats.length, STAT_ROTATION_MS));
    act(() => result.current.togglePaused());
    act(() => vi.advanceTimersByTime(9000));
    expect(result.current.index).toBe(0);
    act(() => result.current.togglePaused());
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.index).toBe(1);
  });

  it('on the page, the dots pick a stat and the Pause button stops the rotation', async () => {
    const { main } = await openPage('/', /carnivore and ketovore eaters/);
    await userEvent.click(main.getByRole('button', { name: 'Pause stats' }));
    await userEvent.click(main.getByRole('button', { name: `Show stat: ${heroStats[2].value} ${heroStats[2].label}` }));
    expect(main.getByTestId('hero-stat').textContent).toBe(`${heroStats[2].value}${heroStats[2].label}`);
    expect(main.getByRole('button', { name: 'Play stats' })).toBeTruthy();
  });
});

describe('About', () => {
  it('logged out: both calls to action go to /signup; the mission links to /company-details', async () => {
    const { main } = await openPage('/about', 'About Carnivo');
    await waitFor(() => expect(document.title).toBe('Carnivo - About'));
    expect(meta('description')).toBeTruthy();
    expect(main.getByRole('link', { name: 'Join the Community' }).getAttribute('href')).toBe('/signup');
    expect(main.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/signup');
    expect(main.getByRole('link', { name: 'Company Details' }).getAttribute('href')).toBe('/company-details');
    for (const value of ['Community', 'Quality', 'Creativity']) main.getByRole('heading', { level: 3, name: value });
  });

  it('logged in: both go to /profile', async () => {
    logIn();
    const { main } = await openPage('/about', 'About Carnivo');
    expect(main.getByRole('link', { name: 'Explore Your Profile' }).getAttribute('href')).toBe('/profile');
    expect(main.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/profile');
    expect(main.queryByRole('link', { name: 'Join the Community' })).toBeNull();
  });
});

describe('Company Details', () => {
  it('has the values, two co-founders, the milestones, contact cards and social links', async () => {
    const { main } = await openPage('/company-details', 'Company Details');
    await waitFor(() => expect(document.title).toBe('Carnivo - Company Details'));
    for (const value of ['Health First', 'Innovation', 'Community', 'Transparency']) main.getByRole('heading', { level: 3, name: value });
    expect(main.getAllByText(/^Co-founder/)).toHaveLength(2);
    const milestones = [...document.querySelectorAll('.timeline__item')].map((item) => item.textContent);
    expect(milestones).toHaveLength(5);
    expect(milestones[0]).toMatch(/^2023Company founded/);
    expect(milestones[1]).toMatch(/^2023App launched/);
    expect(milestones[2]).toMatch(/^202410,000 users/);
    expect(milestones[3]).toMatch(/^202450,000\+ community/);
    expect(milestones[4]).toMatch(new RegExp(`^${new Date().getFullYear()}Global expansion`));
    main.getByText(site.address.street, { exact: false });
    expect(main.getByRole('link', { name: site.businessEmail }).getAttribute('href')).toBe(`mailto:${site.businessEmail}`);
    main.getByRole('link', { name: site.phone });
    main.getByText('Monday to Friday, 9 AM to 5 PM Pacific');
    for (const [name, href] of [
      ['Facebook', site.social.facebook],
      ['Twitter', site.social.twitter],
      ['Instagram', site.social.instagram],
    ]) {
      const link = main.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
    }
  });
});

describe('Features', () => {
  it('has three categories and nine cards with lazy, sized screenshots, and says 7-day', async () => {
    const { main } = await openPage('/features', 'Carnivore Diet Features');
    await waitFor(() => expect(document.title).toBe('Carnivo - Features'));
    expect(
      main
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent)
        .slice(0, 3),
    ).toEqual(['Personalization', 'Health and Weight Tracking', 'Meal Planning and Support']);
    const cards = document.querySelectorAll('.feature-card');
    expect(cards).toHaveLength(9);
    for (const card of cards) {
      const img = card.querySelector('img')!;
      expect(img.getAttribute('loading')).toBe('lazy');
      expect(img.getAttribute('width')).toBe('240');
      expect(img.getAttribute('height')).toBe('480');
      expect(img.getAttribute('alt')).toBeTruthy();
    }
    expect(main.getAllByText(/free 7-day personalized meal plan/).length).toBeGreaterThan(0);
  });

  it('swaps a screenshot that fails to load for the placeholder', async () => {
    await openPage('/features', 'Carnivore Diet Features');
    const img = document.querySelector<HTMLImageElement>('.feature-card img')!;
    expect(img.getAttribute('src')).toBe('/images/screens/recipes.svg');
    fireEvent.error(img);
    await waitFor(() => expect(img.getAttribute('src')).toBe(SCREENSHOT_PLACEHOLDER));
    expect(img.getAttribute('alt')).toBe('Recipes and Meal Plans: screenshot not available');
    // The placeholder failing too does not loop.
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(SCREENSHOT_PLACEHOLDER);
  });
});

describe('Contact', () => {
  it('has phone, e-mail and address cards, and its form only shows the alert of SPEC §8', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { main } = await openPage('/contact', 'Contact Us');
    await waitFor(() => expect(document.title).toBe('Carnivo - Contact'));
    main.getByRole('heading', { level: 3, name: 'Phone' });
    main.getByRole('heading', { level: 3, name: 'E-mail' });
    main.getByRole('heading', { level: 3, name: 'Address' });
    expect(main.getByRole('link', { name: site.contactEmail }).getAttribute('href')).toBe(`mailto:${site.contactEmail}`);
    main.getByText(/free 7-day personalized meal plan/);

    await userEvent.type(main.getByLabelText('Name'), 'Ribeye Fan');
    await userEvent.type(main.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(main.getByLabelText('Message'), 'Hello');
    await userEvent.click(main.getByRole('button', { name: 'Send Message' }));
    expect(CONTACT_DISABLED_MESSAGE).toBe(
      'Form submission is disabled due to sandbox restrictions. Please email support@carnivo.app directly.',
    );
    expect(alert).toHaveBeenCalledWith(CONTACT_DISABLED_MESSAGE);
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('footer logged out: Sign Up, Log In, Learn More, plus Privacy Policy, Terms of Service and Contact Us', async () => {
    await openPage('/contact', 'Contact Us');
    expect(footerLinks()).toEqual([
      ['Sign Up', '/signup'],
      ['Log In', '/login'],
      ['Learn More', '/features'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms'],
      ['Contact Us', '/contact'],
    ]);
  });

  it('footer logged in: Profile', async () => {
    logIn();
    await openPage('/contact', 'Contact Us');
    expect(footerLinks()).toEqual([
      ['Profile', '/profile'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms'],
      ['Contact Us', '/contact'],
    ]);
  });
});
