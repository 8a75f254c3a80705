// Where the browser finds the libraries the app bundle leaves out (served by src/web/vendor.ts).
// uPlot (~50 KB, only the admin charts draw with it) is its own cacheable file, so the first load
// stays small: Bun's HTML bundler does not code-split, and an import() would be inlined.
// The URLs carry the package version: the lockfile pins the bytes, so they may be cached forever.
import { version } from 'uplot/package.json'

export const UPLOT_JS = `/vendor/uplot-${version}.min.js`
export const UPLOT_CSS = `/vendor/uplot-${version}.min.css`
