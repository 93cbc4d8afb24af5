import { useId, useState } from 'react';

type CodeFieldProps = {
  label: string;
  hint?: string;
  /** The field takes a recovery code too (letters): a toggle gives a phone its full keyboard. */
  recovery?: boolean;
  autoFocus?: boolean;
};

/**
 * A two-factor code input: a phone shows its number pad and offers the code it just received
 * (`inputmode="numeric"`, `autocomplete="one-time-code"`).
 */
export function CodeField({ label, hint, recovery, autoFocus }: CodeFieldProps) {
  const id = useId();
  const hintId = useId();
  const [letters, setLetters] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="code"
        inputMode={letters ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        required
        autoFocus={autoFocus}
        aria-describedby={hint ? hintId : undefined}
      />
      {hint && (
        <p id={hintId} className="muted">
          {hint}
        </p>
      )}
      {recovery && (
        <button type="button" className="field__toggle" aria-pressed={letters} onClick={() => setLetters((on) => !on)}>
          Use a recovery code
        </button>
      )}
    </div>
  );
}
