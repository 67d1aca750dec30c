import { useLayoutEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { chartMax, dayLabel, dayLong } from '../../machines/analytics/analytics.rules'
import { formatCount } from '../post/format'

// The daily figures as a hand-drawn SVG chart (no chart library): one row of bars per series (views, likes, posts...)
// sharing the day columns, each row on its own scale so a busy day of views does not flatten the likes. Each day is
// one keyboard stop; hovering or focusing it shows that day's values over its bars (and a native tooltip). The same
// figures are in a table that screen readers read instead of the drawing.

export interface ChartSeries<K extends string> {
  key: K
  label: string
  /** A Panda color token for the bars. */
  tone: 'accent' | 'success' | 'warn'
}

const ROW_H = 64
const ROW_GAP = 22
const LABEL_W = 64
/** The drawing is as wide as its box (measured), so its text keeps its size on a phone; this until measured. */
const DEFAULT_WIDTH = 560
const AXIS_H = 34

const toneClass = {
  accent: css({ fill: 'accent' }),
  success: css({ fill: 'success' }),
  warn: css({ fill: { base: '#c77700', _dark: '#f0a830' } }),
} as const

const column = css({
  cursor: 'default',
  outline: 'none',
  '& .hover-bg': { fill: 'transparent' },
  '& .value': { opacity: 0 },
  '&:hover .hover-bg, &:focus-visible .hover-bg': { fill: 'bg.subtle' },
  '&:hover .value, &:focus-visible .value': { opacity: 1 },
  '&:focus-visible .hover-bg': { stroke: 'accent', strokeWidth: '2px' },
})

export function DailyChart<K extends string>({
  title,
  days,
  series,
}: {
  title: string
  days: ReadonlyArray<{ date: string } & Record<K, number>>
  series: ReadonlyArray<ChartSeries<K>>
}) {
  const box = useRef<HTMLElement>(null)
  const [width, setWidth] = useState(DEFAULT_WIDTH)
  useLayoutEffect(() => {
    const element = box.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const measure = () => setWidth(Math.max(240, Math.round(element.getBoundingClientRect().width)))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  const height = series.length * (ROW_H + ROW_GAP) + AXIS_H
  const slot = (width - LABEL_W) / Math.max(1, days.length)
  const barW = Math.min(36, slot * 0.56)
  const maxima = series.map((s) => chartMax(days.map((d) => d[s.key])))
  const describe = (d: { date: string } & Record<K, number>) =>
    `${dayLong(d.date)}: ${series.map((s) => `${d[s.key].toLocaleString('en-US')} ${s.label.toLowerCase()}`).join(', ')}`

  return (
    <figure ref={box} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <figcaption className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>{title}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="group"
        aria-label={`${title}: ${series.map((s) => s.label).join(', ')} per day`}
        className={css({ w: 'full', h: 'auto', overflow: 'visible', fontFamily: 'inherit' })}
      >
        {series.map((s, row) => {
          const top = row * (ROW_H + ROW_GAP) + 14
          return (
            <g key={s.key} aria-hidden="true">
              <text x={0} y={top + 4} className={css({ fill: 'fg.default', fontSize: '12px', fontWeight: 'semibold' })}>
                {s.label}
              </text>
              <text x={0} y={top + 20} className={css({ fill: 'fg.muted', fontSize: '11px' })}>
                max {formatCount(maxima[row] ?? 0)}
              </text>
              <line
                x1={LABEL_W}
                x2={width}
                y1={top + ROW_H}
                y2={top + ROW_H}
                className={css({ stroke: 'border.strong', strokeWidth: '1px' })}
              />
              <line
                x1={LABEL_W}
                x2={width}
                y1={top}
                y2={top}
                className={css({ stroke: 'border', strokeWidth: '1px', strokeDasharray: '3 4' })}
              />
            </g>
          )
        })}
        {days.map((d, i) => {
          const x = LABEL_W + i * slot
          return (
            <g key={d.date} tabIndex={0} role="img" aria-label={describe(d)} className={column} data-testid="chart-day">
              <title>{describe(d)}</title>
              <rect className="hover-bg" x={x + 2} y={2} width={slot - 4} height={height - AXIS_H - 4} rx={6} />
              {series.map((s, row) => {
                const top = row * (ROW_H + ROW_GAP) + 14
                const value = d[s.key]
                const h = value > 0 ? Math.max(2, (value / (maxima[row] ?? 1)) * ROW_H) : 0
                const cx0 = x + slot / 2
                return (
                  <g key={s.key}>
                    <rect x={cx0 - barW / 2} y={top + ROW_H - h} width={barW} height={h} rx={3} className={toneClass[s.tone]} />
                    <text
                      className={cx('value', css({ fill: 'fg.default', fontSize: '11px', fontWeight: 'bold' }))}
                      x={cx0}
                      y={Math.max(top - 3, top + ROW_H - h - 4)}
                      textAnchor="middle"
                    >
                      {formatCount(value)}
                    </text>
                  </g>
                )
              })}
              <text x={x + slot / 2} y={height - 20} textAnchor="middle" className={css({ fill: 'fg.muted', fontSize: '11px' })}>
                {dayLabel(d.date).split(' ')[0]}
              </text>
              <text
                x={x + slot / 2}
                y={height - 6}
                textAnchor="middle"
                className={css({ fill: 'fg.default', fontSize: '11px', fontWeight: 'semibold' })}
              >
                {dayLabel(d.date).split(' ')[1]}
              </text>
            </g>
          )
        })}
      </svg>
      <table className={css({ srOnly: true })}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{dayLong(d.date)}</th>
              {series.map((s) => (
                <td key={s.key}>{d[s.key].toLocaleString('en-US')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
