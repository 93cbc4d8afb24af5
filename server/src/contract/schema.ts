import { optional, safeParse, string, type GenericSchema, type InferOutput } from 'valibot';

/**
 * Reading a contract schema (valibot): the forms ask for the first broken rule's message, the
 * server's guards for the parsed value or that message. Both read the same schema, so a rule and its
 * spec message are written once (docs/architecture.md#one-contract).
 */

/** The message of the first rule `value` breaks, in the schema's order, or null. */
export function firstError(schema: GenericSchema, value: unknown): string | null {
  const result = safeParse(schema, value, { abortEarly: true });
  return result.success ? null : result.issues[0].message;
}

/** The parsed value (trimmed, normalised as the schema says), or the first broken rule's message: the server's read. */
export function parseBody<TSchema extends GenericSchema>(
  schema: TSchema,
  value: unknown,
): { ok: true; value: InferOutput<TSchema> } | { ok: false; message: string } {
  const result = safeParse(schema, value, { abortEarly: true });
  return result.success ? { ok: true, value: result.output } : { ok: false, message: result.issues[0].message };
}

/** A text field of a form or body: '' when left out, and anything but text refused in the field's own words. */
/* @__NO_SIDE_EFFECTS__ */
export function textField(message: string) {
  return optional(string(message), '');
}
