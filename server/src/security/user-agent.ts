/**
 * A signed-in device as a person names it, from the User-Agent header alone: no address, no place,
 * nothing stored but these two words. Order matters: Edge and Opera also say "Chrome", Chrome also
 * says "Safari", Android also says "Linux", iPadOS may say "Macintosh".
 */
export interface DeviceSummary {
  device: string;
  browser: string;
}

const DEVICES: readonly (readonly [RegExp, string])[] = [
  [/iPad/, 'iPad'],
  [/iPhone|iPod/, 'iPhone'],
  [/Android[^;]*;.*Mobile/, 'Android phone'],
  [/Android/, 'Android tablet'],
  [/CrOS/, 'Chromebook'],
  [/Windows/, 'Windows computer'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Linux|X11/, 'Linux computer'],
];

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const UNKNOWN: DeviceSummary = { device: 'Unknown device', browser: 'Unknown browser' };

/** Longer than any real header needs; a giant one is not scanned. */
const MAX_SCANNED = 512;

export function summarizeUserAgent(header: string | undefined): DeviceSummary {
  if (!header) return UNKNOWN;
  const agent = header.slice(0, MAX_SCANNED);
  const pick = (table: readonly (readonly [RegExp, string])[], fallback: string) =>
    table.find(([pattern]) => pattern.test(agent))?.[1] ?? fallback;
  return { device: pick(DEVICES, UNKNOWN.device), browser: pick(BROWSERS, UNKNOWN.browser) };
}
