import type { FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { signUpMachine } from '../../../machines/signUp.machine';
import { useAuthActor, useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { pageTitle, site } from '../../config/site';
import { AuthMessages } from './AuthMessages';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { TextField } from '../../components/form/TextField';
import { usePageHead } from '../../hooks/usePageHead';
import { useHydrated } from '../../hooks/useHydrated';

export function SignUpPage() {
  // Prerendered: until the app takes over, a submit would be a plain page request, so wait.
  const hydrated = useHydrated();
  usePageHead({ title: pageTitle('Sign Up'), description: `Create your ${site.brand} account.` });
  const auth = useAuthActor();
  const signUp = useFlowActor(useFlows().signUp ?? signUpMachine, { input: { auth } });
  const signingUp = useSelector(signUp, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(signUp, (snapshot) => snapshot.context.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signUp.send({ type: 'signup.submitted', ...formValues(event.currentTarget, ['username', 'email', 'password'] as const) });
  };

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Sign Up</h1>
        <p className="auth-card__lead">Create your {site.brand} account and start your carnivore journey.</p>
        <AuthMessages auth={auth} error={error} />
        <form method="post" onSubmit={submit} noValidate aria-busy={signingUp}>
          <TextField label="Username" name="username" autoComplete="username" />
          <TextField label="Email" name="email" type="email" autoComplete="email" />
          <PasswordField label="Password" name="password" autoComplete="new-password" />
          <button type="submit" className="button button--primary button--block" disabled={signingUp || !hydrated}>
            {signingUp ? 'Signing Up...' : 'Sign Up'}
          </button>
        </form>
        <div className="auth-card__divider">or</div>
        <div className="social-buttons">
          {['Google', 'Facebook'].map((provider) => (
            <button
              key={provider}
              type="button"
              className="button button--social"
              disabled={!hydrated}
              onClick={() => window.alert(`${provider} sign-up not implemented`)}
            >
              {provider}
            </button>
          ))}
        </div>
        <p className="auth-card__links">
          <Link to="/">Back to Home</Link>
          <span>
            Already a member? <Link to="/login">Log In</Link>
          </span>
        </p>
      </div>
    </section>
  );
}
