// uPlot, loaded on demand by the admin charts (ui/pages/admin/DataChart.tsx): its script and
// styles are separate files (ui/vendor-urls.ts) so the app bundle every visitor downloads stays
// small. Injected once; a failed load may be retried. The service worker keeps the fetched copies
// for offline use like any same-origin asset.
import type uPlotType from 'uplot'
import { UPLOT_CSS, UPLOT_JS } from './vendor-urls'

export type UPlotCtor = typeof uPlotType
type UPlotGlobal = { uPlot?: UPlotCtor }

let loading: Promise<UPlotCtor> | null = null

function inject<T extends HTMLElement>(el: T, attach: (el: T) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    el.onload = () => resolve()
    el.onerror = () => {
      el.remove()
      reject(new Error('The chart library could not be loaded'))
    }
    attach(el)
  })
}

export function loadUPlot(): Promise<UPlotCtor> {
  const existing = (window as unknown as UPlotGlobal).uPlot
  if (existing) return Promise.resolve(existing)
  if (loading) return loading
  const css = document.querySelector(`link[href="${UPLOT_CSS}"]`)
    ? Promise.resolve()
    : inject(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: UPLOT_CSS }), (el) => document.head.appendChild(el))
  const js = inject(Object.assign(document.createElement('script'), { src: UPLOT_JS, async: true }), (el) => document.head.appendChild(el))
  const current = Promise.all([js, css]).then(() => {
    const ctor = (window as unknown as UPlotGlobal).uPlot
    if (!ctor) throw new Error('The chart library loaded but did not define uPlot')
    return ctor
  })
  loading = current
  current.catch(() => {
    if (loading === current) loading = null
  })
  return current
}
