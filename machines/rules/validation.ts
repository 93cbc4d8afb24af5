/** SPEC §9: a social account created under 60 seconds ago is new and goes to /bmi first. */
export const NEW_ACCOUNT_WINDOW_MS = 60_000;

export function isNewAccount(createdAt: string | undefined, now: number): boolean {
  if (!createdAt) return false;
  const created = Date.parse(createdAt);
  return Number.isFinite(created) && now - created < NEW_ACCOUNT_WINDOW_MS;
}
