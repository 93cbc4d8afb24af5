import { describe, expect, it } from 'vitest';
import { bodyMassIndex } from '../../machines/rules/bmi';
import {
  cmToFeetInches,
  formatHeight,
  formatWeight,
  goalDifferenceIn,
  heightFromInput,
  messageInUnits,
  unitSystemOf,
  weightFromInput,
  weightInUnit,
} from '../../machines/rules/units';

describe('units (issue 12: imperial shown and typed, kg and cm stored)', () => {
  it('reads the setting as metric unless it says imperial', () => {
    expect(unitSystemOf('imperial')).toBe('imperial');
    expect(unitSystemOf('metric')).toBe('metric');
    expect(unitSystemOf(null)).toBe('metric');
    expect(unitSystemOf('Imperial')).toBe('metric');
  });

  it('converts pounds with exactly 0.45359237 kg and inches with exactly 2.54 cm', () => {
    expect(weightFromInput('180', 'imperial')).toBeCloseTo(81.6466266, 10);
    expect(weightFromInput('1', 'imperial')).toBe(0.45359237);
    expect(heightFromInput({ feet: '5', inches: '11' }, 'imperial')).toBeCloseTo(180.34, 10);
    expect(heightFromInput({ feet: '6', inches: '' }, 'imperial')).toBeCloseTo(182.88, 10);
    expect(heightFromInput({ feet: '', inches: '70' }, 'imperial')).toBeCloseTo(177.8, 10);
  });

  it('parses metric input as SPEC §5 does (decimal comma, 0 when invalid), ignoring imperial fields', () => {
    expect(weightFromInput('80,5', 'metric')).toBe(80.5);
    expect(weightFromInput('heavy', 'metric')).toBe(0);
    expect(weightFromInput('heavy', 'imperial')).toBe(0);
    expect(heightFromInput({ cm: '180', feet: '5', inches: '11' }, 'metric')).toBe(180);
    expect(heightFromInput({ feet: 'x', inches: 'y' }, 'imperial')).toBe(0);
  });

  it('keeps the saved kg and cm when the pounds or feet and inches shown are saved untouched', () => {
    expect(weightInUnit(80, 'imperial')).toBe(176.4);
    expect(weightFromInput('176.4', 'imperial', 80)).toBe(80);
    expect(weightFromInput('176.5', 'imperial', 80)).toBeCloseTo(80.05905, 4);
    expect(weightFromInput('80', 'metric', 70)).toBe(80);
    expect(cmToFeetInches(180)).toEqual({ feet: 5, inches: 10.9 });
    expect(heightFromInput({ feet: '5', inches: '10.9' }, 'imperial', 180)).toBe(180);
    expect(heightFromInput({ feet: '5', inches: '11' }, 'imperial', 180)).toBeCloseTo(180.34, 10);
    expect(heightFromInput({ feet: '6', inches: '10.9' }, 'imperial', 180)).toBeCloseTo(210.566, 3);
  });

  it('shows weights to 0.1 in the unit, heights in cm or feet and inches', () => {
    expect(formatWeight(81.6466266, 'imperial')).toBe('180 lb');
    expect(formatWeight(81.6466266, 'metric')).toBe('81.6 kg');
    expect(formatWeight(0, 'imperial')).toBe('Not set');
    expect(formatWeight(null, 'metric')).toBe('Not set');
    expect(formatHeight(180.34, 'imperial')).toBe('5 ft 11 in');
    expect(formatHeight(180.34, 'metric')).toBe('180.3 cm');
    expect(formatHeight(0, 'imperial')).toBe('Not set');
    // 71.97 in rounds to 72.0: a whole 6 ft, not 5 ft 12 in.
    expect(cmToFeetInches(182.8)).toEqual({ feet: 6, inches: 0 });
  });

  it('gives the same SPEC §9 BMI for 180 lb and 5 ft 11 in as for the metric values', () => {
    const kg = weightFromInput('180', 'imperial');
    const cm = heightFromInput({ feet: '5', inches: '11' }, 'imperial');
    expect(bodyMassIndex(kg, cm)).toBe(25.1);
    expect(bodyMassIndex(81.6, 180.3)).toBe(25.1);
  });

  it('words the range rules in the member unit, rounded inwards, and keeps the metric messages word for word', () => {
    expect(messageInUnits('Weight must be between 30-300 kg', 'imperial')).toBe('Weight must be between 67-661 lb');
    expect(messageInUnits('Goal weight must be between 30-300 kg', 'imperial')).toBe('Goal weight must be between 67-661 lb');
    expect(messageInUnits('Height must be between 100-250 cm', 'imperial')).toBe('Height must be between 3 ft 4 in and 8 ft 2 in');
    expect(messageInUnits('Weight must be between 30-300 kg', 'metric')).toBe('Weight must be between 30-300 kg');
    expect(messageInUnits('Height must be between 100-250 cm', 'metric')).toBe('Height must be between 100-250 cm');
    expect(messageInUnits('Height and weight must be positive', 'imperial')).toBe('Height and weight must be positive');
    expect(messageInUnits(null, 'imperial')).toBeNull();
    // Every limit named is accepted: 67 lb and 661 lb are within 30-300 kg, 66 lb is not.
    expect(weightFromInput('67', 'imperial')).toBeGreaterThanOrEqual(30);
    expect(weightFromInput('66', 'imperial')).toBeLessThan(30);
    expect(weightFromInput('661', 'imperial')).toBeLessThanOrEqual(300);
    expect(heightFromInput({ feet: '3', inches: '4' }, 'imperial')).toBeGreaterThanOrEqual(100);
    expect(heightFromInput({ feet: '8', inches: '2' }, 'imperial')).toBeLessThanOrEqual(250);
  });

  it("says the difference to the goal in the member's unit", () => {
    expect(goalDifferenceIn(70, 80, 'metric')).toBe('10 kg to lose');
    expect(goalDifferenceIn(80, 70, 'imperial')).toBe('22.1 lb to gain');
    expect(goalDifferenceIn(70, 80, 'imperial')).toBe('22.1 lb to lose');
    expect(goalDifferenceIn(70, 70, 'imperial')).toBe('You are at your goal weight');
    expect(goalDifferenceIn(0, 70, 'imperial')).toBeNull();
    expect(goalDifferenceIn(70, 0, 'metric')).toBeNull();
  });
});
