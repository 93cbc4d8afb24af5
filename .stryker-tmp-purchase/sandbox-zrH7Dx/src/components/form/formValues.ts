/** Reads named text fields of a submitted form. */
// @ts-nocheck

export function formValues<TName extends string>(form: HTMLFormElement, names: readonly TName[]): Record<TName, string> {
  const data = new FormData(form);
  return Object.fromEntries(names.map((name) => [name, String(data.get(name) ?? '')])) as Record<TName, string>;
}
