import { useId, type InputHTMLAttributes } from 'react';

type TextFieldProps = { label: string; name: string } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete'>;

/** A labelled one-line input in the forms' field layout; the id that ties label and input is its own. */
export function TextField({ label, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  );
}
