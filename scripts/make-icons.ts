// Renders the PWA icons (ui/icons/*.png) from ui/icon.svg with Chromium: 192 and 512 px, plus a
// maskable 512 px with the mark inside the 80% safe zone on a full-bleed background.
// Run after changing the logo: `bun scripts/make-icons.ts` (needs Chromium; see tests/e2e/browser.ts).
import { readFileSync } from 'node:fs'
import { launchBrowser } from '../tests/e2e/browser'

const svg = readFileSync(new URL('../ui/icon.svg', import.meta.url), 'utf8')
const browser = await launchBrowser()
const page = await browser.newPage()
const render = async (size: number, file: string, maskable: boolean) => {
  await page.setViewportSize({ width: size, height: size })
  const inner = maskable ? Math.round(size * 0.7) : size
  const mark = maskable ? svg.replace(/<rect[^>]*\/>/, '') : svg
  const bg = maskable ? '#f59e0b' : 'transparent'
  await page.setContent(`<html><body style="margin:0;background:${bg};display:grid;place-items:center;width:${size}px;height:${size}px">
    <div style="width:${inner}px;height:${inner}px">${mark.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`)
  await page.screenshot({ path: new URL(`../ui/icons/${file}`, import.meta.url).pathname, omitBackground: !maskable })
}
await render(192, 'icon-192.png', false)
await render(512, 'icon-512.png', false)
await render(512, 'maskable-512.png', true)
await render(180, 'apple-touch-icon.png', true)
await browser.close()
console.log('icons written to ui/icons/')
