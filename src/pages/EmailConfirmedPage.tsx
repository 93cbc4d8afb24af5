import { Link } from '@tanstack/react-router';
import { useIsLoggedIn } from '../hooks/appContext';
import { pageTitle, site } from '../config/site';
import { usePageHead } from '../hooks/usePageHead';

export function EmailConfirmedPage() {
  usePageHead({ title: pageTitle('Email Confirmed'), description: `Your ${site.brand} e-mail address is confirmed.` });
  const loggedIn = useIsLoggedIn();
  return (
    <section className="page page--narrow confirmation">
      <div className="confirmation__icon" aria-hidden="true">
        ✓
      </div>
      <h1>Email Confirmed</h1>
      <p>Your email address has been verified. Your account is ready to use.</p>
      <Link to={loggedIn ? '/profile' : '/login'} className="button button--primary">
        {loggedIn ? 'Go to Profile' : 'Log In Now'}
      </Link>
      <p>
        <Link to="/">Back to Home</Link>
      </p>
    </section>
  );
}
