import { LIMITS, profileMessages } from '../../server/src/contract/profileRules';
import { CM_PER_INCH, INCHES_PER_FOOT, feetInchesToCm, kgToLb, lbToKg, type UnitSystem } from '../../server/src/contract/progress';
import { parseDecimal, roundToTenth } from './bmi';

/**
 * Metric or imperial display and input (issue 12). Values are always stored and sent in kg and cm;
 * only what the member reads and types changes. The exact factors live in the contract.
 */
export type { UnitSystem };

/** The stored setting, metric unless it says imperial (the server's default). */
export function unitSystemOf(value: unknown): UnitSystem {
  return value === 'imperial' ? 'imperial' : 'metric';
}

const cmToInches = (cm: number): number => cm / CM_PER_INCH;

export const weightUnit = (unit: UnitSystem): string => (unit === 'imperial' ? 'lb' : 'kg');

/** A weight as the member types it: kg or lb to 1 decimal. */
export function weightInUnit(kg: number, unit: UnitSystem): number {
  return roundToTenth(unit === 'imperial' ? kgToLb(kg) : kg);
}

/** "81.6 kg" or "180 lb"; 'Not set' without a weight. */
export function formatWeight(kg: number | null | undefined, unit: UnitSystem): string {
  return kg && kg > 0 ? `${weightInUnit(kg, unit)} ${weightUnit(unit)}` : 'Not set';
}

/** A height in feet and inches, the inches to 1 decimal (a rounded 12 in carries into the feet). */
export function cmToFeetInches(cm: number): { feet: number; inches: number } {
  const inches = roundToTenth(cmToInches(cm));
  const feet = Math.floor(inches / INCHES_PER_FOOT);
  return { feet, inches: roundToTenth(inches - feet * INCHES_PER_FOOT) };
}

/** "180.3 cm" or "5 ft 11 in"; 'Not set' without a height. */
export function formatHeight(cm: number | null | undefined, unit: UnitSystem): string {
  if (!cm || !(cm > 0)) return 'Not set';
  if (unit === 'metric') return `${roundToTenth(cm)} cm`;
  const { feet, inches } = cmToFeetInches(cm);
  return `${feet} ft ${inches} in`;
}

/**
 * A typed weight in kg (0 when invalid, as SPEC §5 parses inputs). Pounds that show the saved weight
 * unchanged give the saved kg back, so saving a form untouched never moves the weight by rounding.
 */
export function weightFromInput(typed: string, unit: UnitSystem, savedKg = 0): number {
  const value = parseDecimal(typed);
  if (unit === 'metric') return value;
  if (savedKg > 0 && value === weightInUnit(savedKg, unit)) return savedKg;
  return lbToKg(value);
}

/** Typed height fields in cm: cm, or feet plus inches (an empty inches field is 0); the saved cm when unchanged. */
export function heightFromInput(typed: { cm?: string; feet?: string; inches?: string }, unit: UnitSystem, savedCm = 0): number {
  if (unit === 'metric') return parseDecimal(typed.cm);
  const feet = parseDecimal(typed.feet);
  const inches = parseDecimal(typed.inches);
  if (savedCm > 0) {
    const saved = cmToFeetInches(savedCm);
    if (feet === saved.feet && inches === saved.inches) return savedCm;
  }
  return feetInchesToCm(feet, inches);
}

/**
 * The spec's limits in the member's unit, rounded inwards (67-661 lb for 30-300 kg) so that every
 * value the message names is one the rule accepts.
 */
export function weightLimitsInPounds(): { min: number; max: number } {
  return { min: Math.ceil(kgToLb(LIMITS.weightKg.min)), max: Math.floor(kgToLb(LIMITS.weightKg.max)) };
}

function feetAndInches(totalInches: number): string {
  return `${Math.floor(totalInches / INCHES_PER_FOOT)} ft ${totalInches % INCHES_PER_FOOT} in`;
}

export function heightLimitsInFeet(): { min: string; max: string } {
  return {
    min: feetAndInches(Math.ceil(cmToInches(LIMITS.heightCm.min))),
    max: feetAndInches(Math.floor(cmToInches(LIMITS.heightCm.max))),
  };
}

/**
 * A rule's message in the member's unit: the metric messages stay word for word, the range rules
 * name their limits in pounds or feet and inches. Other messages pass unchanged.
 */
export function messageInUnits(message: string, unit: UnitSystem): string;
export function messageInUnits(message: string | null, unit: UnitSystem): string | null;
export function messageInUnits(message: string | null, unit: UnitSystem): string | null {
  if (message === null || unit === 'metric') return message;
  const pounds = weightLimitsInPounds();
  const feet = heightLimitsInFeet();
  switch (message) {
    case profileMessages.weightRange:
      return `Weight must be between ${pounds.min}-${pounds.max} lb`;
    case profileMessages.goalWeightRange:
      return `Goal weight must be between ${pounds.min}-${pounds.max} lb`;
    case profileMessages.heightRange:
      return `Height must be between ${feet.min} and ${feet.max}`;
    default:
      return message;
  }
}

/** SPEC §2 Goals: "12.5 kg to lose" or "27.6 lb to gain", the goal against the current weight in the member's unit. */
export function goalDifferenceIn(goalKg: number, currentKg: number, unit: UnitSystem): string | null {
  if (!(goalKg > 0) || !(currentKg > 0)) return null;
  const difference = roundToTenth(weightInUnit(currentKg, unit) - weightInUnit(goalKg, unit));
  const label = weightUnit(unit);
  if (difference > 0) return `${difference} ${label} to lose`;
  if (difference < 0) return `${-difference} ${label} to gain`;
  return 'You are at your goal weight';
}
