// @ts-nocheck
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#7a1f1f" />
      <path d="M20 42c-4-8 0-22 14-24 9-1 14 6 12 13-2 8-10 8-14 13-3 4-9 5-12-2z" fill="#f4d9c6" />
      <circle cx="36" cy="29" r="4" fill="#7a1f1f" />
    </svg>
  );
}
