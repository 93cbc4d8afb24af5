import { describe, expect, it } from 'vitest';
import { bmiCategory, bodyMassIndex, idealBmiWeight, parseDecimal } from '../../machines/rules/bmi';
import { goalDifference } from '../../machines/rules/goals';
import { goalsError, informationError, profileMessages } from '../../server/src/contract/profileRules';

describe('BMI (SPEC §9)', () => {
  it('is weight over squared height in metres, to 1 decimal', () => {
    expect(bodyMassIndex(80, 180)).toBe(24.7);
    expect(bodyMassIndex(65, 170)).toBe(22.5);
    expect(bodyMassIndex(80, 0)).toBeNull();
    expect(bodyMassIndex(0, 180)).toBeNull();
  });

  it('ideal weight uses 22.5 for men and 21.5 otherwise', () => {
    expect(idealBmiWeight(180, 'Male')).toBe(72.9);
    expect(idealBmiWeight(180, 'Female')).toBe(69.7);
    expect(idealBmiWeight(170, null)).toBe(62.1);
    expect(idealBmiWeight(0, 'Male')).toBeNull();
  });

  it.each([
    [18.4, 'Underweight', 'blue'],
    [18.5, 'Normal', 'green'],
    [24.9, 'Normal', 'green'],
    [25, 'Overweight', 'yellow'],
    [29.9, 'Overweight', 'yellow'],
    [30, 'Obese', 'red'],
  ])('%d is %s (%s)', (bmi, label, colour) => {
    expect(bmiCategory(bmi)).toEqual({ label, colour });
  });

  it('parses decimals and turns anything else into 0', () => {
    expect(parseDecimal('72.5')).toBe(72.5);
    expect(parseDecimal('72,5')).toBe(72.5);
    expect(parseDecimal('abc')).toBe(0);
    expect(parseDecimal('')).toBe(0);
    expect(parseDecimal(null)).toBe(0);
  });
});

describe('profile validation (SPEC §5)', () => {
  const valid = { username: 'ribeye', email: 'ribeye@example.com', height: 180, currentWeight: 80 };
  it.each([
    [{ username: '  ' }, profileMessages.usernameRequired],
    [{ username: ' ab ' }, profileMessages.usernameTooShort],
    [{ email: 'ribeye.example.com' }, profileMessages.invalidEmail],
    [{ height: 0 }, profileMessages.notPositive],
    [{ currentWeight: -5 }, profileMessages.notPositive],
    [{ height: 99.9 }, profileMessages.heightRange],
    [{ height: 250.1 }, profileMessages.heightRange],
    [{ currentWeight: 29.9 }, profileMessages.weightRange],
    [{ currentWeight: 300.1 }, profileMessages.weightRange],
    [{ height: 100, currentWeight: 30 }, null],
    [{ height: 250, currentWeight: 300 }, null],
  ])('%j → %s', (change, message) => {
    expect(informationError({ ...valid, ...change })).toBe(message);
  });

  it('checks height and weight only when either is sent, and then both (issue 21)', () => {
    const { height: _height, currentWeight: _weight, ...unmeasured } = valid;
    expect(informationError(unmeasured)).toBeNull();
    expect(informationError({ ...unmeasured, username: 'ab' })).toBe(profileMessages.usernameTooShort);
    expect(informationError({ ...unmeasured, height: 180 })).toBe(profileMessages.notPositive);
    expect(informationError({ ...unmeasured, currentWeight: 80 })).toBe(profileMessages.notPositive);
    expect(informationError({ ...unmeasured, currentPassword: '' })).toBe(profileMessages.currentPasswordRequired);
  });

  it('checks a goal weight only when it is set', () => {
    expect(goalsError({ goal_weight: 0 })).toBeNull();
    expect(goalsError({ goal_weight: 29 })).toBe('Goal weight must be between 30-300 kg');
    expect(goalsError({ goal_weight: 301 })).toBe('Goal weight must be between 30-300 kg');
    expect(goalsError({ goal_weight: 30 })).toBeNull();
  });
});

describe('goal difference', () => {
  it('labels the gap to lose or to gain', () => {
    expect(goalDifference(75, 80)).toBe('5 kg to lose');
    expect(goalDifference(80, 72.5)).toBe('7.5 kg to gain');
    expect(goalDifference(80, 80)).toBe('You are at your goal weight');
    expect(goalDifference(0, 80)).toBeNull();
  });
});
