import { describe, expect, it } from 'vitest';
import { chartSeries, dayToSeconds } from '../../src/features/profile/progress/chartData';

const entries = [
  { id: 1, date: '2025-03-01', weight: 84 },
  { id: 2, date: '2025-03-08', weight: 81.6466266 },
];

describe('the weight chart (issue 12, issue 21)', () => {
  it('draws the goal as a flat line only when a goal is set', () => {
    expect(chartSeries(entries, 75, 'metric')).toEqual({
      days: [dayToSeconds('2025-03-01'), dayToSeconds('2025-03-08')],
      weights: [84, 81.6],
      goal: [75, 75],
    });
    expect(chartSeries(entries, 75, 'imperial')).toMatchObject({ weights: [185.2, 180], goal: [165.3, 165.3] });
    expect(chartSeries(entries, 0, 'metric').goal).toBeNull();
  });
});
