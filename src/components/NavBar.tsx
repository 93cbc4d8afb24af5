import { useState } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import { useAuthActor, useIsLoggedIn } from '../hooks/appContext';
import { BRAND } from '../config/brand';
import { Logo } from './Logo';
import { useHydrated } from '../hooks/useHydrated';
import { publicLinks } from './navLinks';

export function NavBar() {
  // Prerendered pages: the menu opens once the app has taken the page over.
  const hydrated = useHydrated();
  const auth = useAuthActor();
  const loggedIn = useIsLoggedIn();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  const logOut = () => {
    auth.send({ type: 'logout' });
    closeMenu();
  };

  const navLink = (to: LinkProps['to'], label: string) => (
    <li key={label}>
      <Link
        to={to}
        className="nav__link"
        activeProps={{ className: 'nav__link--active', 'aria-current': 'page' }}
        activeOptions={{ exact: true, includeSearch: false }}
        onClick={closeMenu}
      >
        {label}
      </Link>
    </li>
  );

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <Link to="/" className="brand" onClick={closeMenu}>
          <Logo size={32} />
          <span>{BRAND}</span>
        </Link>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          disabled={!hydrated}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span>
        </button>
      </div>
      {menuOpen && <div className="nav-backdrop" aria-hidden="true" onClick={closeMenu} />}
      <nav id="main-navigation" aria-label="Main" className={menuOpen ? 'nav nav--open' : 'nav'}>
        <ul className="nav__list">
          {publicLinks.map(({ to, label }) => navLink(to, label))}
          {loggedIn ? (
            <>
              {navLink('/profile', 'Profile')}
              <li>
                <button type="button" className="nav__link nav__button" onClick={logOut}>
                  Log Out
                </button>
              </li>
            </>
          ) : (
            <>
              {navLink('/login', 'Log In')}
              {navLink('/signup', 'Sign Up')}
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}
