import type { WeightEntry } from '../../../../server/src/contract/progress';
import { formatWeight, weightInUnit, weightUnit, type UnitSystem } from '../../../../machines/rules/units';

/** SPEC §9 BMI categories as BMI ranges, with the badge colours as translucent fills. */
const BMI_BANDS = [
  { label: 'Underweight', from: 0, to: 18.5, fill: 'rgba(59, 130, 246, 0.16)' },
  { label: 'Normal', from: 18.5, to: 25, fill: 'rgba(34, 197, 94, 0.16)' },
  { label: 'Overweight', from: 25, to: 30, fill: 'rgba(234, 179, 8, 0.2)' },
  { label: 'Obese', from: 30, to: Number.POSITIVE_INFINITY, fill: 'rgba(239, 68, 68, 0.16)' },
] as const;

export type WeightBand = { label: string; from: number; to: number; fill: string };

/** The BMI bands as weights in the member's unit for their height (BMI × m²); none without a height. */
export function weightBands(heightCm: number, unit: UnitSystem): WeightBand[] {
  if (!(heightCm > 0)) return [];
  const squared = (heightCm / 100) ** 2;
  const inUnit = (bmi: number) => (Number.isFinite(bmi) ? weightInUnit(bmi * squared, unit) : Number.POSITIVE_INFINITY);
  return BMI_BANDS.map((band) => ({ label: band.label, from: inUnit(band.from), to: inUnit(band.to), fill: band.fill }));
}

/** An entry's day as the chart's x value: local midnight, in seconds (uPlot's time unit). */
export function dayToSeconds(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).getTime() / 1000;
}

/** The chart's series: days, weights in the unit, and the goal as a flat line, or null: no goal, no line. */
export function chartSeries(entries: readonly WeightEntry[], goalKg: number, unit: UnitSystem) {
  const goal = goalKg > 0 ? weightInUnit(goalKg, unit) : null;
  return {
    days: entries.map((entry) => dayToSeconds(entry.date)),
    weights: entries.map((entry) => weightInUnit(entry.weight, unit)),
    goal: goal === null ? null : entries.map(() => goal),
  };
}

export type LegendEntry = { kind: 'weight' | 'goal' | 'band'; label: string; fill?: string };

/**
 * What the chart shows, in words: the weight with its unit, the goal with its value (only when one
 * is set), and the BMI bands (only with a height). Replaces uPlot's live legend ("Time: --").
 */
export function chartLegend(goalKg: number, heightCm: number, unit: UnitSystem): LegendEntry[] {
  return [
    { kind: 'weight', label: `Weight (${weightUnit(unit)})` },
    ...(goalKg > 0 ? [{ kind: 'goal' as const, label: `Goal ${formatWeight(goalKg, unit)}` }] : []),
    ...weightBands(heightCm, unit).map((band) => ({ kind: 'band' as const, label: band.label, fill: band.fill })),
  ];
}
