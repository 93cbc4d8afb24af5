/** SPEC §9: plan amounts are cents, shown as dollars with 2 decimals. */
// @ts-nocheck

export function formatAmount(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}
