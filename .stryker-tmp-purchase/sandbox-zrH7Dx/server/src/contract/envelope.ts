/** Strapi's error answer: `{ data: null, error: { status, name, message, details } }`. */
// @ts-nocheck

export type StrapiErrorBody = {
  data?: null;
  error?: { status?: number; name?: string; message?: unknown; details?: unknown };
};

/** The message a person should read from an error answer, if the server sent one. */
export function serverErrorMessage(body: unknown): string | undefined {
  const message = (body as StrapiErrorBody | null | undefined)?.error?.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** A single type's answer (the legal pages): its fields under data. */
export type SingleTypeResponse = { data?: Record<string, unknown> | null };
