import { Link, type LinkProps } from '@tanstack/react-router';
import { useIsLoggedIn } from '../../hooks/appContext';
import { site } from '../../config/site';

type FooterLink = { to: LinkProps['to']; label: string };

/**
 * SPEC §2 footers. The landing variant always shows /privacy-policy, /terms and /contact, plus
 * /profile logged in, or /signup, /login and /features logged out. The Contact variant shows
 * Privacy Policy, Terms of Service and Contact Us, plus Profile logged in, or Sign Up, Log In and
 * Learn More (/features) logged out.
 */
export const footerLinks = {
  landing: {
    always: [
      { to: '/privacy-policy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms and Conditions' },
      { to: '/contact', label: 'Contact' },
    ],
    loggedIn: [{ to: '/profile', label: 'Profile' }],
    loggedOut: [
      { to: '/signup', label: 'Start Carnivore Journey' },
      { to: '/login', label: 'Log In' },
      { to: '/features', label: 'Carnivore Diet Features' },
    ],
  },
  contact: {
    always: [
      { to: '/privacy-policy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/contact', label: 'Contact Us' },
    ],
    loggedIn: [{ to: '/profile', label: 'Profile' }],
    loggedOut: [
      { to: '/signup', label: 'Sign Up' },
      { to: '/login', label: 'Log In' },
      { to: '/features', label: 'Learn More' },
    ],
  },
} satisfies Record<string, { always: FooterLink[]; loggedIn: FooterLink[]; loggedOut: FooterLink[] }>;

export type FooterVariant = keyof typeof footerLinks;

export function Footer({ variant }: { variant: FooterVariant }) {
  const loggedIn = useIsLoggedIn();
  const links = footerLinks[variant];
  const accountLinks: FooterLink[] = loggedIn ? links.loggedIn : links.loggedOut;
  return (
    <footer className={`site-footer site-footer--${variant}`}>
      <div className="site-footer__inner">
        <p className="site-footer__brand">
          <strong>{site.brand}</strong> · {site.tagline}
        </p>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            {[...accountLinks, ...links.always].map(({ to, label }) => (
              <li key={label}>
                <Link to={to}>{label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-footer__copyright">
          © {site.copyrightYear} {site.brand}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
