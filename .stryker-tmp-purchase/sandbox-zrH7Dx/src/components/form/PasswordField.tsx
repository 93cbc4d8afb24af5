// @ts-nocheck
import { useId, useState } from 'react';

type PasswordFieldProps = {
  label: string;
  name: string;
  autoComplete: 'current-password' | 'new-password';
  required?: boolean;
};

/** A password input with the show/hide toggle of SPEC §2. */
export function PasswordField({ label, name, autoComplete, required }: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field__with-action">
        <input id={id} name={name} type={visible ? 'text' : 'password'} autoComplete={autoComplete} required={required} />
        <button
          type="button"
          className="field__action"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
