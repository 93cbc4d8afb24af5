import type { FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { twoFactorLogInMachine } from '../../../machines/twoFactorLogIn.machine';
import { CodeField } from '../../components/form/CodeField';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';

/** The second step of a log-in with two-factor on: a code from the authenticator app, or a recovery code. */
export function SecondFactorStep({ step }: { step: ActorRefFrom<typeof twoFactorLogInMachine> }) {
  const verifying = useSelector(step, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(step, (snapshot) => snapshot.context.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { code } = formValues(event.currentTarget, ['code'] as const);
    step.send({ type: 'twoFactor.submitted', code });
  };

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Log In</h1>
        <p className="auth-card__lead">One more step: two-factor authentication is on for this account.</p>
        <form method="post" onSubmit={submit} aria-busy={verifying} aria-label="Two-factor authentication">
          <FormMessages error={error} />
          <CodeField
            label="Authentication code"
            hint="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
            recovery
            autoFocus
          />
          <button type="submit" className="button button--primary button--block" disabled={verifying}>
            {verifying ? 'Verifying...' : 'Verify'}
          </button>
          <button
            type="button"
            className="button button--block"
            disabled={verifying}
            onClick={() => step.send({ type: 'twoFactor.cancelled' })}
          >
            Back
          </button>
        </form>
      </div>
    </section>
  );
}
