import type { UnitSystem } from '../../../../machines/rules/units';
import { chartLegend } from './chartData';

/**
 * The weight chart's legend as text (issue 21): each line named with its unit, the goal with its value
 * and only when one is set, the BMI bands with their shades. The keys beside the words are decoration.
 */
export function ChartLegend({ goalKg, heightCm, unit }: { goalKg: number; heightCm: number; unit: UnitSystem }) {
  return (
    <ul className="weight-chart-legend" aria-label="Chart legend">
      {chartLegend(goalKg, heightCm, unit).map((entry) => (
        <li key={entry.label}>
          <span
            className={`weight-chart-legend__key weight-chart-legend__key--${entry.kind}`}
            style={entry.fill ? { background: entry.fill } : undefined}
            aria-hidden="true"
          />
          {entry.label}
        </li>
      ))}
    </ul>
  );
}
