// One daily chart of the admin Trends and Alerts pages: a uPlot canvas (drawn to the width of its
// box, redrawn when that changes or the theme flips), captioned, with a one-line summary per series
// and the same numbers as a table. The canvas is hidden from assistive technology; the caption,
// summary and table carry its content.
import { useEffect, useRef } from 'react'
import type uPlot from 'uplot'
import { loadUPlot, type UPlotCtor } from '../../uplot'
import { formatCount, seriesSummary } from './data-format'
import { TableScroll } from './TableScroll'

export type ChartSeries = { label: string; values: (number | null)[]; color: string; dash?: number[] }

const HEIGHT = 220

/** Series colours that keep 3:1 against both the light and the dark page. */
export const CHART_COLORS = ['#2f80ed', '#d97706', '#16a34a', '#dc2626', '#9333ea', '#0891b2']

const cssVar = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback

/** Tick steps of count axes: whole numbers only. */
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7]

function options(uPlotLib: UPlotCtor, width: number, series: ChartSeries[], unit: string | undefined, whole: boolean): uPlot.Options {
  const text = cssVar('--pico-color', '#888')
  const grid = cssVar('--pico-muted-border-color', 'rgba(128,128,128,0.25)')
  const axis = (values?: uPlot.Axis['values'], incrs?: number[]): uPlot.Axis => ({
    stroke: text,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
    values,
    incrs,
  })
  return {
    width,
    height: HEIGHT,
    tzDate: (ts) => uPlotLib.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [axis(), axis((_u, ticks) => ticks.map((v) => (unit ? `${formatCount(v)} ${unit}` : formatCount(v))), whole ? WHOLE : undefined)],
    series: [
      { label: 'Day' },
      ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, dash: s.dash, points: { size: 5, fill: s.color }, spanGaps: false })),
    ],
    legend: { show: true },
  }
}

export function DataChart({
  id,
  title,
  description,
  labels,
  series,
  unit,
  format = formatCount,
  summarize = seriesSummary,
}: {
  id: string
  title: string
  description?: string
  labels: string[]
  series: ChartSeries[]
  unit?: string
  /** values are counts (whole-number ticks, the default) or a measure */
  format?: (v: number) => string
  /** the one-line summary of a series (default: its total and busiest day) */
  summarize?: (labels: string[], values: (number | null)[]) => string
}) {
  const whole = format === formatCount
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current!
    const x = labels.map((l) => Date.parse(`${l}T00:00:00Z`) / 1000)
    const data: uPlot.AlignedData = [x, ...series.map((s) => s.values)]
    let chart: uPlot | null = null
    let lib: UPlotCtor | null = null
    let gone = false
    const draw = () => {
      if (!lib) return
      chart?.destroy()
      chart = new lib(options(lib, Math.max(240, el.clientWidth), series, unit, whole), data, el)
    }
    // Without the library (offline on first visit) the summary and table still carry the numbers.
    loadUPlot().then(
      (ctor) => {
        lib = ctor
        if (!gone) draw()
      },
      () => undefined,
    )
    const resize = new ResizeObserver(() => chart?.setSize({ width: Math.max(240, el.clientWidth), height: HEIGHT }))
    resize.observe(el)
    // Axis and grid colours come from the theme: draw again when it changes.
    const theme = new MutationObserver(draw)
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    return () => {
      gone = true
      resize.disconnect()
      theme.disconnect()
      chart?.destroy()
    }
  }, [labels, series, unit, whole])
  const cell = (v: number | null) => (v === null ? '—' : format(v))
  return (
    <figure className="ad-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        <strong>{title}</strong>
        {description ? <small className="ad-muted"> {description}</small> : null}
      </figcaption>
      <ul className="ad-chart-summary">
        {series.map((s) => (
          <li key={s.label}>
            <span className="ad-swatch" style={{ background: s.color }} aria-hidden="true" /> {s.label}: {summarize(labels, s.values)}
          </li>
        ))}
      </ul>
      <div ref={box} className="ad-chart-canvas" aria-hidden="true" data-testid={`chart-${id}`} />
      <details>
        <summary>Data table</summary>
        <TableScroll label={`${title}: data table`}>
          <table className="striped">
            <caption className="visually-hidden">{title}, per day (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => (
                  <th key={s.label} scope="col">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((day, i) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map((s) => (
                    <td key={s.label}>{cell(s.values[i] ?? null)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  )
}
