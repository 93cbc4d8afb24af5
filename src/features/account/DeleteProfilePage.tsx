import { useSelector } from '@xstate/react';
import { deleteAccountMachine } from '../../../machines/deleteAccount.machine';
import { useAuthActor, useFlows, useIsLoggedIn } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { FormMessages } from '../../components/form/FormMessages';
import { ConfirmDeletionDialog } from './ConfirmDeletionDialog';
import { SubscriptionAtDeletionNotice } from './SubscriptionAtDeletionNotice';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';

export function DeleteProfilePage() {
  usePageHead({ title: pageTitle('Delete Account'), description: `Permanently delete your ${site.brand} account.` });
  const loggedIn = useIsLoggedIn();
  // A login or logout elsewhere starts the flow afresh.
  return <DeleteAccountFlow key={String(loggedIn)} loggedIn={loggedIn} />;
}

function DeleteAccountFlow({ loggedIn }: { loggedIn: boolean }) {
  const auth = useAuthActor();
  const flow = useFlowActor(useFlows().deleteAccount ?? deleteAccountMachine, { input: { auth, loggedIn } });
  const loggedOut = useSelector(flow, (snapshot) => snapshot.matches('loggedOut') || snapshot.matches('redirected'));
  const dialogOpen = useSelector(flow, (snapshot) => snapshot.hasTag('dialog'));
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => (snapshot.matches('failure') ? snapshot.context.error : null));
  const checking = useSelector(flow, (snapshot) => snapshot.hasTag('checking'));
  const subscription = useSelector(flow, (snapshot) => snapshot.context.subscription);

  return (
    <section className="page page--narrow">
      <h1>Delete Account</h1>
      <p>Deleting your account permanently removes your profile, BMI records, meal plans and favorite recipes. This cannot be undone.</p>
      {loggedOut ? (
        <p role="status" className="alert alert--error">
          Please log in to delete your account. You will be redirected to the login page shortly.
        </p>
      ) : (
        <>
          <SubscriptionAtDeletionNotice subscription={subscription} />
          <FormMessages error={error} />
          {checking && (
            <p id="deletion-checking" className="muted">
              Checking your subscription…
            </p>
          )}
          <button
            type="button"
            className="button button--danger"
            disabled={checking}
            aria-describedby={checking ? 'deletion-checking' : undefined}
            onClick={() => flow.send({ type: 'deletion.requested' })}
          >
            Delete My Account
          </button>
        </>
      )}
      {dialogOpen && (
        <ConfirmDeletionDialog
          busy={busy}
          subscription={subscription}
          onConfirm={() => flow.send({ type: 'deletion.confirmed' })}
          onCancel={() => flow.send({ type: 'deletion.cancelled' })}
        />
      )}
    </section>
  );
}
