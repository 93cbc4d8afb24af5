import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { ChartLegend } from '../../src/features/profile/progress/ChartLegend';

const legendItems = () =>
  within(screen.getByRole('list', { name: 'Chart legend' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the weight chart legend (issue 21)', () => {
  it('names the weight with its unit, and the goal with its value only when one is set', () => {
    const { rerender } = render(<ChartLegend goalKg={80} heightCm={0} unit="metric" />);
    expect(legendItems()).toEqual(['Weight (kg)', 'Goal 80 kg']);
    rerender(<ChartLegend goalKg={0} heightCm={0} unit="metric" />);
    expect(legendItems()).toEqual(['Weight (kg)']);
    rerender(<ChartLegend goalKg={80} heightCm={0} unit="imperial" />);
    expect(legendItems()).toEqual(['Weight (lb)', 'Goal 176.4 lb']);
  });

  it('names the BMI bands with their shades when the height is known; the keys are hidden from screen readers', () => {
    const { container } = render(<ChartLegend goalKg={0} heightCm={180} unit="metric" />);
    expect(legendItems()).toEqual(['Weight (kg)', 'Underweight', 'Normal', 'Overweight', 'Obese']);
    const keys = [...container.querySelectorAll('.weight-chart-legend__key')] as HTMLElement[];
    expect(keys).toHaveLength(5);
    expect(keys.every((key) => key.getAttribute('aria-hidden') === 'true')).toBe(true);
    expect(keys[1].style.background).toBe('rgba(59, 130, 246, 0.16)');
  });
});
