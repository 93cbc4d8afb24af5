import { roundToTenth } from './bmi';

/** "12.5 kg to lose" or "3 kg to gain": the goal weight against the current weight. */
export function goalDifference(goalKg: number, currentKg: number): string | null {
  if (!(goalKg > 0) || !(currentKg > 0)) return null;
  const difference = roundToTenth(currentKg - goalKg);
  if (difference > 0) return `${difference} kg to lose`;
  if (difference < 0) return `${-difference} kg to gain`;
  return 'You are at your goal weight';
}
