import { Link } from '@tanstack/react-router';
import { useIsLoggedIn } from '../app/appContext';
import { Logo } from '../components/Logo';
import { site } from '../config/site';

/** A plain home page until the full landing page (marketing site issue) lands. */
export function HomePage() {
  const loggedIn = useIsLoggedIn();
  return (
    <section className="page hero">
      <Logo size={72} />
      <h1>{site.brand}</h1>
      <p className="hero__subtitle">{site.tagline}.</p>
      <p className="placeholder__badge">Placeholder page: the full landing page is coming soon.</p>
      <div className="hero__actions">
        {loggedIn ? (
          <Link to="/profile" className="button button--primary">
            Go to Profile
          </Link>
        ) : (
          <>
            <Link to="/signup" className="button button--primary">
              Sign Up
            </Link>
            <Link to="/login" className="button">
              Log In
            </Link>
          </>
        )}
      </div>
    </section>
  );
}
