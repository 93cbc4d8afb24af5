import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
// Inlined into this chunk: the app's one stylesheet loads on every page, uPlot's rules only with the chart.
import uPlotCss from 'uplot/dist/uPlot.min.css?inline';
import type { WeightEntry } from '../../../../server/src/contract/progress';
import { weightUnit, type UnitSystem } from '../../../../machines/rules/units';
import { chartSeries, weightBands } from './chartData';
import { ChartLegend } from './ChartLegend';

const HEIGHT_PX = 260;

export type WeightChartProps = { entries: readonly WeightEntry[]; goalKg: number; heightCm: number; unit: UnitSystem };

const WEIGHT_STROKE = '#b91c1c';
const GOAL_STROKE = '#1f2937';
const GOAL_DASH = [6, 4];

/**
 * Weight over time with the goal as a dashed line and the BMI bands behind (uPlot, in this lazy chunk
 * so it loads only with the Goals tab). The canvas is hidden from screen readers: the table beside it
 * has the same data. The legend is ours, in words: uPlot's shows cursor values, '--' until hovered.
 */
export function WeightChart({ entries, goalKg, heightCm, unit }: WeightChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    // jsdom and very old browsers have no 2D canvas: the table alone serves them.
    if (!element || typeof CanvasRenderingContext2D === 'undefined') return undefined;
    const series = chartSeries(entries, goalKg, unit);
    const bands = weightBands(heightCm, unit);
    const values = [...series.weights, ...(series.goal ?? [])];
    const low = Math.min(...values);
    const high = Math.max(...values);
    const padding = Math.max(2, (high - low) * 0.15);
    const label = weightUnit(unit);
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height: HEIGHT_PX,
        scales: { x: { time: true }, y: { range: () => [Math.floor(low - padding), Math.ceil(high + padding)] } },
        axes: [{}, { label: `Weight (${label})` }],
        legend: { show: false },
        series: [
          {},
          { label: `Weight (${label})`, stroke: WEIGHT_STROKE, width: 2, points: { show: true, size: 6 } },
          ...(series.goal ? [{ label: `Goal (${label})`, stroke: GOAL_STROKE, width: 1.5, dash: GOAL_DASH, points: { show: false } }] : []),
        ],
        hooks: {
          // The BMI bands go under the lines, clipped to the plotting area.
          drawClear: [
            (self) => {
              const { ctx, bbox } = self;
              ctx.save();
              for (const band of bands) {
                const top = Math.max(bbox.top, self.valToPos(Math.min(band.to, self.scales.y.max ?? band.to), 'y', true));
                const bottom = Math.min(
                  bbox.top + bbox.height,
                  self.valToPos(Math.max(band.from, self.scales.y.min ?? band.from), 'y', true),
                );
                if (bottom <= top) continue;
                ctx.fillStyle = band.fill;
                ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
              }
              ctx.restore();
            },
          ],
        },
      },
      series.goal ? [series.days, series.weights, series.goal] : [series.days, series.weights],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT_PX }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [entries, goalKg, heightCm, unit]);

  return (
    <>
      <style>{uPlotCss}</style>
      <div ref={container} className="weight-chart" data-testid="weight-chart" aria-hidden="true" />
      <ChartLegend goalKg={goalKg} heightCm={heightCm} unit={unit} />
    </>
  );
}
