// Part 2 removes this file: health.ts (being edited elsewhere while part 1 ran) still imports from here.
// The series are ./shared/series.ts; the one percentile is src/lib/percentile.ts.
export { DAY_MS } from './shared/series'
export { percentile } from '../lib/percentile'
