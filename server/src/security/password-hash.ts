/**
 * bcrypt's cost for members' passwords: users-permissions hashes with the user model's
 * `encryption.rounds`, set from here (extensions/users-permissions/strapi-server.ts). 10, as the
 * plugin's default and the admin panel's, which the log-in throttle's stand-in hash matches.
 */
export const PASSWORD_HASH_COST = 10;
/** The lowest cost bcrypt takes. */
const MIN_COST = 4;

/**
 * The cost in use: PASSWORD_HASH_COST, except under NODE_ENV=test, where TEST_PASSWORD_HASH_COST may
 * lower it (the server tests sign up thousands of members; at cost 10 hashing was their largest single
 * CPU cost). Outside tests the variable is ignored, so no deploy can weaken it.
 */
export function passwordHashCost(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TEST_PASSWORD_HASH_COST?.trim();
  if (env.NODE_ENV !== 'test' || !raw) return PASSWORD_HASH_COST;
  const cost = Number(raw);
  return Number.isInteger(cost) && cost >= MIN_COST && cost <= PASSWORD_HASH_COST ? cost : PASSWORD_HASH_COST;
}
