import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
// Inlined into this chunk: the app's one stylesheet loads on every page, uPlot's rules only with the chart.
import uPlotCss from 'uplot/dist/uPlot.min.css?inline';
import type { WeightEntry } from '../../../../server/src/contract/progress';
import { weightUnit, type UnitSystem } from '../../../lib/units';
import { chartSeries, weightBands } from './chartData';

const HEIGHT_PX = 260;

export type WeightChartProps = { entries: readonly WeightEntry[]; goalKg: number; heightCm: number; unit: UnitSystem };

/**
 * Weight over time with the goal as a dashed line and the BMI bands behind (uPlot, in this lazy chunk
 * so it loads only with the Goals tab). Hidden from screen readers: the table beside it has the same data.
 */
export function WeightChart({ entries, goalKg, heightCm, unit }: WeightChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    // jsdom and very old browsers have no 2D canvas: the table alone serves them.
    if (!element || typeof CanvasRenderingContext2D === 'undefined') return undefined;
    const series = chartSeries(entries, goalKg, unit);
    const bands = weightBands(heightCm, unit);
    const values = [...series.weights, ...series.goal.filter((goal): goal is number => goal !== null)];
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
        series: [
          {},
          { label: `Weight (${label})`, stroke: '#b91c1c', width: 2, points: { show: true, size: 6 } },
          { label: `Goal (${label})`, stroke: '#1f2937', width: 1.5, dash: [6, 4], points: { show: false } },
        ],
        hooks: {
          // The BMI bands go under the lines, clipped to the plotting area.
          drawClear: [
            (self) => {
              const { ctx, bbox } = self;
              ctx.save();
              for (const band of bands) {
                const top = Math.max(bbox.top, self.valToPos(Math.min(band.to, self.scales.y.max ?? band.to), 'y', true));
                const bottom = Math.min(bbox.top + bbox.height, self.valToPos(Math.max(band.from, self.scales.y.min ?? band.from), 'y', true));
                if (bottom <= top) continue;
                ctx.fillStyle = band.fill;
                ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
              }
              ctx.restore();
            },
          ],
        },
      },
      [series.days, series.weights, series.goal],
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
    </>
  );
}
