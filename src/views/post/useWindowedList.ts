import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'

// Window-scrolled list virtualization: only the rows near the viewport are in the DOM (a few dozen, whatever the list
// holds), placed absolutely at their offsets inside a container as tall as the whole list. Row heights are measured
// with one ResizeObserver and remembered by key; rows not measured yet count as `estimate`. When a row above the
// viewport changes height (an image's box settles, a sensitive post is revealed), the page scrolls by the difference so
// what the member is reading does not move.

export interface WindowedRow {
  index: number
  key: string
  /** Offset from the top of the list, in px. */
  start: number
}

export interface WindowedListOptions {
  count: number
  keyOf: (index: number) => string
  /** Height assumed for a row never measured. */
  estimate: number
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number
}

export interface WindowedList {
  /** Put on the list's container (position: relative; its height is `totalHeight`). */
  containerRef: (element: HTMLElement | null) => void
  totalHeight: number
  rows: WindowedRow[]
  /** Put on each row (`ref={measure}`, with `data-key` and `data-start`); React 19 calls the cleanup on unmount. */
  measure: (element: HTMLElement | null) => (() => void) | undefined
}

interface Range {
  first: number
  last: number
}

/** The first index whose row ends below `offset` (binary search over the row starts). */
function indexAt(starts: Float64Array, count: number, offset: number): number {
  let low = 0
  let high = count - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if ((starts[mid + 1] ?? 0) <= offset) low = mid + 1
    else high = mid
  }
  return Math.max(0, low)
}

/** Rows rendered before the list has measured where it is (the layout effect corrects it before paint). */
const FIRST_ROWS = 4

export function useWindowedList({ count, keyOf, estimate, overscan }: WindowedListOptions): WindowedList {
  const heights = useRef(new Map<string, number>())
  const container = useRef<HTMLElement | null>(null)
  const [version, setVersion] = useState(0)
  const [range, setRange] = useState<Range>({ first: 0, last: Math.min(count, FIRST_ROWS) - 1 })
  // The first rows render on their own (the viewport's, no overscan) and the overscan follows a frame later, so the
  // first screen's posts paint after one short task rather than one long one (a slow phone's first load).
  const [warm, setWarm] = useState(false)
  const reach = warm ? overscan : 0
  useEffect(() => {
    if (warm || count === 0) return
    let timer = 0
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setWarm(true))
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [warm, count])

  // starts[i] is row i's top; starts[count] is the list's height.
  const starts = useMemo(() => {
    const result = new Float64Array(count + 1)
    for (let i = 0; i < count; i += 1) result[i + 1] = (result[i] ?? 0) + (heights.current.get(keyOf(i)) ?? estimate)
    return result
    // `version` changes when a measured height changes (the map itself is mutable).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [count, keyOf, estimate, version])
  const startsRef = useRef(starts)
  startsRef.current = starts

  const computeRange = useCallback((): Range => {
    const element = container.current
    if (!element || count === 0) return { first: 0, last: -1 }
    const top = -element.getBoundingClientRect().top
    const bottom = top + window.innerHeight
    const first = Math.max(0, indexAt(startsRef.current, count, top) - reach)
    const last = Math.min(count - 1, indexAt(startsRef.current, count, bottom) + reach)
    return { first, last }
  }, [count, reach])

  const update = useCallback(() => {
    const next = computeRange()
    setRange((current) => (current.first === next.first && current.last === next.last ? current : next))
  }, [computeRange])

  // Recompute after every layout change (count, measurements) and on scroll/resize, at most once per frame.
  useLayoutEffect(update, [update, starts])
  useEffect(() => {
    let frame = 0
    const schedule = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        update()
      })
    }
    window.addEventListener('scroll', schedule, { passive: true })
    window.addEventListener('resize', schedule)
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('scroll', schedule)
      window.removeEventListener('resize', schedule)
    }
  }, [update])

  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null
    let frame = 0
    return new ResizeObserver((entries) => {
      let changed = false
      let shift = 0
      const listTop = container.current ? -container.current.getBoundingClientRect().top : 0
      for (const entry of entries) {
        const element = entry.target as HTMLElement
        const key = element.dataset.key
        if (!key) continue
        const height = entry.borderBoxSize[0]?.blockSize ?? element.getBoundingClientRect().height
        const before = heights.current.get(key) ?? estimate
        if (Math.abs(before - height) < 0.5) continue
        heights.current.set(key, height)
        changed = true
        // A row entirely above the viewport grew or shrank: keep the reading position.
        const start = Number(element.dataset.start ?? 0)
        if (start + before <= listTop) shift += height - before
      }
      if (shift !== 0) window.scrollBy(0, shift)
      if (changed && !frame) {
        frame = requestAnimationFrame(() => {
          frame = 0
          setVersion((v) => v + 1)
        })
      }
    })
  }, [estimate])
  useEffect(() => () => observer?.disconnect(), [observer])

  const measure = useCallback(
    (element: HTMLElement | null) => {
      if (!element || !observer) return undefined
      observer.observe(element)
      return () => observer.unobserve(element)
    },
    [observer],
  )

  const containerRef = useCallback((element: HTMLElement | null) => {
    container.current = element
  }, [])

  const rows: WindowedRow[] = []
  const last = Math.min(range.last, count - 1)
  for (let index = Math.max(0, range.first); index <= last; index += 1) {
    rows.push({ index, key: keyOf(index), start: starts[index] ?? 0 })
  }

  return { containerRef, totalHeight: starts[count] ?? 0, rows, measure }
}
