/** SPEC §9 body metrics. Heights are in cm, weights in kg. */

export type Gender = 'Male' | 'Female';

export function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

function squaredMetres(heightCm: number): number {
  const metres = heightCm / 100;
  return metres * metres;
}

/** BMI = weight / height² (m), to 1 decimal; null without a usable height or weight. */
export function bodyMassIndex(weightKg: number, heightCm: number): number | null {
  if (!(weightKg > 0) || !(heightCm > 0)) return null;
  return roundToTenth(weightKg / squaredMetres(heightCm));
}

/** Ideal BMI weight = 22.5 (Male) or 21.5 (other) × height² (m), to 1 decimal. */
export function idealBmiWeight(heightCm: number, gender: Gender | null | undefined): number | null {
  if (!(heightCm > 0)) return null;
  return roundToTenth((gender === 'Male' ? 22.5 : 21.5) * squaredMetres(heightCm));
}

export type BmiCategory = { label: 'Underweight' | 'Normal' | 'Overweight' | 'Obese'; colour: 'blue' | 'green' | 'yellow' | 'red' };

export function bmiCategory(bmi: number): BmiCategory {
  if (bmi < 18.5) return { label: 'Underweight', colour: 'blue' };
  if (bmi < 25) return { label: 'Normal', colour: 'green' };
  if (bmi < 30) return { label: 'Overweight', colour: 'yellow' };
  return { label: 'Obese', colour: 'red' };
}

/** SPEC §5: weight, height and goal weight inputs parse as decimals, 0 when invalid. */
export function parseDecimal(input: string | number | null | undefined): number {
  const value = typeof input === 'number' ? input : Number.parseFloat(String(input ?? '').replace(',', '.'));
  return Number.isFinite(value) ? value : 0;
}
