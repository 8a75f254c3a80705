// axe-core in Chromium (issue 12 item 19): WCAG 2.1 A/AA plus heading-order, run inside the page.
// The app's CSP forbids injected scripts, so the context that runs axe is made with bypassCSP.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export type AxeFinding = { rule: string; impact: string; help: string; nodes: string[] }

type ContrastData = { messageKey?: string; contrastRatio?: number; expectedContrastRatio?: string; fgColor?: string; bgColor?: string }
type AxeNode = { target: unknown[]; failureSummary?: string; any: { data?: ContrastData | null }[] }
type AxeResult = { id: string; impact: string | null; help: string; nodes: AxeNode[] }

const describeNode = (n: AxeNode) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`

/** A contrast axe measured but left for review is still too low: same colour (1:1, 'equalRatio'), or
 * a short text such as a page number ('shortTextContent') below the ratio it needs. */
function tooLow(d: ContrastData | null | undefined): boolean {
  if (!d) return false
  if (d.messageKey === 'equalRatio') return true
  const need = parseFloat(d.expectedContrastRatio ?? '')
  return typeof d.contrastRatio === 'number' && d.contrastRatio > 0 && need > 0 && d.contrastRatio < need
}

const describeReview = (n: AxeNode) => {
  const d = n.any.find((c) => tooLow(c.data))?.data
  return `${n.target.join(' ')} — ${d?.messageKey === 'equalRatio' ? 'text is the colour of its background (1:1)' : `contrast ${d?.contrastRatio} (${d?.fgColor} on ${d?.bgColor}), needs ${d?.expectedContrastRatio}`}`
}

/**
 * Critical and serious findings on the page as it is now (or inside what `within` selects), and
 * every heading-order finding. A contrast axe leaves for review but measured too low is a finding
 * too: invisible text like the light theme's white-on-white MENU tab (1:1), or a current page
 * number at 4.4:1 (issue 12 items 4, 19).
 */
export async function axeFindings(page: Page, within?: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE })
  const results = await page.evaluate(
    (selector) =>
      (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult[]; incomplete: AxeResult[] }> } }).axe.run(
        selector ?? document,
        {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          rules: { 'heading-order': { enabled: true } },
          resultTypes: ['violations', 'incomplete'],
        },
      ),
    within,
  )
  const findings: AxeFinding[] = results.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.id === 'heading-order')
    .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.map(describeNode) }))
  const unreadable = results.incomplete.filter((r) => r.id === 'color-contrast').flatMap((r) => r.nodes.filter((n) => n.any.some((c) => tooLow(c.data))))
  if (unreadable.length)
    findings.push({ rule: 'color-contrast (review)', impact: 'serious', help: 'Text contrast too low', nodes: unreadable.map(describeReview) })
  return findings
}
