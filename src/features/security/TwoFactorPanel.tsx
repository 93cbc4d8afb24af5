import { useSelector } from '@xstate/react';
import { useId, type FormEvent, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { twoFactorSetupMachine } from '../../../machines/twoFactorSetup.machine';
import { spacedKey } from '../../../machines/rules/twoFactor';
import { useFlows } from '../../hooks/appContext';
import { useFlowActor } from '../../hooks/useFlowActor';
import { CodeField } from '../../components/form/CodeField';
import { FormMessages } from '../../components/form/FormMessages';
import { ActionButtons } from '../../components/form/ActionButtons';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { copyText, downloadFile, printText } from '../../components/handOver';

type Flow = ReturnType<typeof useFlowActor<typeof twoFactorSetupMachine>>;

const browserTwoFactorSetup = twoFactorSetupMachine.provide({
  actors: { copyText: fromPromise(({ input }) => copyText(input.text)) },
  actions: { saveCodes: (_, file) => downloadFile(file, 'text/plain'), printCodes: (_, text) => printText(text) },
});

const RECOVERY_HINT = 'From your authenticator app, or one of your recovery codes.';

/** Two-factor authentication with an authenticator app (docs/security.md#two-factor-authentication). */
export function TwoFactorPanel() {
  const flow = useFlowActor(useFlows().twoFactorSetup ?? browserTwoFactorSetup);
  const state = useSelector(flow, (snapshot) => snapshot.value);
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const notice = useSelector(flow, (snapshot) => snapshot.context.notice);
  const headingId = useId();

  return (
    <section className="profile-card" aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>Two-factor authentication</h2>
      <FormMessages error={error} notice={notice} />
      {state === 'loading' && <p className="muted">Loading...</p>}
      {state === 'loadFailed' && (
        <button type="button" className="button" onClick={() => flow.send({ type: 'status.retried' })}>
          Try again
        </button>
      )}
      {(state === 'disabled' || state === 'startingSetup') && <Off flow={flow} busy={busy} />}
      {(state === 'confirming' || state === 'copyingKey' || state === 'enabling') && <Confirm flow={flow} busy={busy} />}
      {(state === 'showingRecoveryCodes' || state === 'copyingCodes') && <RecoveryCodes flow={flow} />}
      {(state === 'enabled' || state === 'regenerating' || state === 'disabling') && <On flow={flow} busy={busy} state={state} />}
    </section>
  );
}

function Off({ flow, busy }: { flow: Flow; busy: boolean }) {
  return (
    <>
      <p>Add a second step to your log-in: a code from an authenticator app on your phone, as well as your password.</p>
      <button type="button" className="button button--primary" disabled={busy} onClick={() => flow.send({ type: 'setup.requested' })}>
        {busy ? 'Setting up...' : 'Set up two-factor authentication'}
      </button>
    </>
  );
}

function Confirm({ flow, busy }: { flow: Flow; busy: boolean }) {
  const setup = useSelector(flow, (snapshot) => snapshot.context.setup);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    flow.send({ type: 'code.submitted', code: formValues(event.currentTarget, ['code'] as const).code });
  };
  return (
    <>
      <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
      {setup && (
        <>
          <img src={setup.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
          <p>
            On this phone? <a href={setup.uri}>Open in authenticator app</a>
          </p>
          <p>
            No camera? Enter this key in the app instead:{' '}
            <code className="secret-key" aria-label="Secret key">
              {spacedKey(setup.secret)}
            </code>
          </p>
          <div className="profile-card__actions">
            <button type="button" className="button" disabled={busy} onClick={() => flow.send({ type: 'key.copyRequested' })}>
              Copy key
            </button>
          </div>
        </>
      )}
      <form className="profile-form" onSubmit={submit} noValidate aria-label="Turn on two-factor authentication" aria-busy={busy}>
        <CodeField label="6-digit code" />
        <ActionButtons busy={busy} label="Turn on" busyLabel="Turning on..." onCancel={() => flow.send({ type: 'setup.cancelled' })} />
      </form>
    </>
  );
}

function RecoveryCodes({ flow }: { flow: Flow }) {
  const codes = useSelector(flow, (snapshot) => snapshot.context.recoveryCodes);
  return (
    <>
      <p>
        Two-factor authentication is on. Save these recovery codes somewhere safe: each one signs you in once if you lose your phone. They
        will not be shown again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes?.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="profile-card__actions">
        <button type="button" className="button" onClick={() => flow.send({ type: 'codes.copyRequested' })}>
          Copy
        </button>
        <button type="button" className="button" onClick={() => flow.send({ type: 'codes.downloadRequested' })}>
          Download
        </button>
        <button type="button" className="button" onClick={() => flow.send({ type: 'codes.printRequested' })}>
          Print
        </button>
      </div>
      <button type="button" className="button button--primary" onClick={() => flow.send({ type: 'codes.saved' })}>
        I have saved them
      </button>
    </>
  );
}

function On({ flow, busy, state }: { flow: Flow; busy: boolean; state: string }) {
  const left = useSelector(flow, (snapshot) => snapshot.context.recoveryCodesLeft);
  const regenerate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    flow.send({ type: 'regenerate.submitted', code: formValues(event.currentTarget, ['code'] as const).code });
  };
  const disable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { password, code } = formValues(event.currentTarget, ['password', 'code'] as const);
    flow.send({ type: 'disable.submitted', password, code });
  };
  return (
    <>
      <p>
        Two-factor authentication is on. {left} recovery {left === 1 ? 'code' : 'codes'} left.
      </p>
      <ActionGroup
        heading="Get new recovery codes"
        note="Your current recovery codes stop working."
        formLabel="New recovery codes"
        onSubmit={regenerate}
        busy={busy}
        label={state === 'regenerating' ? 'Generating...' : 'Get new recovery codes'}
      >
        <CodeField label="Code for new recovery codes" hint={RECOVERY_HINT} recovery />
      </ActionGroup>
      <ActionGroup
        heading="Turn off"
        formLabel="Turn off two-factor authentication"
        onSubmit={disable}
        busy={busy}
        label={state === 'disabling' ? 'Turning off...' : 'Turn off two-factor authentication'}
      >
        <PasswordField label="Password" name="password" autoComplete="current-password" />
        <CodeField label="Code to turn off" hint={RECOVERY_HINT} recovery />
      </ActionGroup>
    </>
  );
}

type ActionGroupProps = {
  heading: string;
  note?: string;
  formLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  /** The button's words: what it does, or what it is doing while its own step runs. */
  label: string;
  /** The form's fields. */
  children: ReactNode;
};

/** One thing to do while two-factor is on: a titled group with its form, every button held while any step runs. */
function ActionGroup({ heading, note, formLabel, onSubmit, busy, label, children }: ActionGroupProps) {
  const headingId = useId();
  return (
    <div className="profile-card__group" role="group" aria-labelledby={headingId}>
      <h3 id={headingId}>{heading}</h3>
      {note && <p className="muted">{note}</p>}
      <form className="profile-form" onSubmit={onSubmit} noValidate aria-label={formLabel}>
        {children}
        <button type="submit" className="button" disabled={busy}>
          {label}
        </button>
      </form>
    </div>
  );
}
