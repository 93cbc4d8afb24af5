/** A form's alert area: the error in red, a notice in green. */
// @ts-nocheck

export function FormMessages({ error, notice }: { error?: string | null; notice?: string | null }) {
  return (
    <>
      {notice && (
        <p role="status" className="alert alert--success">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      )}
    </>
  );
}
