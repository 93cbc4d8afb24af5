import { errors } from '@strapi/utils';
import type { GenericSchema, InferOutput } from 'valibot';
import { parseBody } from './contract/schema';

/**
 * The server's read of a request body (or one field of it) by its contract schema: the parsed value, or that
 * schema's first broken rule as a 400 in its words. The SPA's forms read the same schema (contract/schema.ts).
 */
export function validBody<TSchema extends GenericSchema>(schema: TSchema, value: unknown): InferOutput<TSchema> {
  const parsed = parseBody(schema, value);
  if (!parsed.ok) throw new errors.ValidationError(parsed.message);
  return parsed.value;
}
