import crypto from 'node:crypto';

/**
 * The release before session rows, as the upgrade tests lay it out (src/security/sessions/legacy-tokens.ts):
 * revocation was a per-member cut-off column, and tokens carried no sid.
 */

export const CUT_OFF_COLUMN = 'sessions_valid_after';
export const USERS_TABLE = 'up_users';

/** A token as that release signed it: HS256 with the server's secret, no sid. */
export function oldToken(secret: string, payload: { id: number; iatMs?: number }): string {
  const issued = payload.iatMs ?? Date.now();
  const claims = {
    id: payload.id,
    iat: Math.floor(issued / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...(payload.iatMs === undefined ? {} : { iat_ms: payload.iatMs }),
  };
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${head}.${crypto.createHmac('sha256', secret).update(head).digest('base64url')}`;
}

type StoredSchema = { tables: { name: string; columns: { name: string; type: string }[] }[] };

/**
 * Strapi's stored schema (`strapi_database_schema.schema`) with the cut-off column tracked, as that release
 * left it: the schema sync then drops the column on the upgrade's boot. Null if the stored schema has no
 * bigInteger column to copy the column's shape from.
 */
export function schemaWithCutOff(stored: string | object): string | null {
  const schema = (typeof stored === 'string' ? JSON.parse(stored) : stored) as StoredSchema;
  const bigInteger = schema.tables.flatMap((table) => table.columns).find((column) => column.type === 'bigInteger');
  if (!bigInteger) return null;
  schema.tables.find((table) => table.name === USERS_TABLE)!.columns.push({ ...bigInteger, name: CUT_OFF_COLUMN });
  return JSON.stringify(schema);
}
