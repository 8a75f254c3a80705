// `bun scripts/screenshots.ts [dashboard] [alerts]`: the README's screenshots (docs/screenshots/*.png), taken from a
// real server with the fake Reddit, in Chromium, desktop and 390 px, both themes. `dashboard`: the dashboards, a
// repost, the phone, the landing page; `alerts`: the channel settings as a new user sees them (every kind, with
// stand-ins for the hosted services), the claim message, a match card with Claim and the seller's trust, and
// Admin → Logs → Sources. No argument: both.
import { mkdirSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import { recordAbout } from '../src/forums/authors'
import { storePosts } from '../src/forums/store'
import { matchPosts } from '../src/matches/runner'
import { addTerm } from '../src/terms/service'
import { forumPost } from '../tests/fakes/forum-post'
import { fakeTelegram } from '../tests/fakes/telegram'
import { startWorld } from '../tests/e2e/journey'

const OUT = 'docs/screenshots'
mkdirSync(OUT, { recursive: true })
const groups = process.argv.slice(2)
const wanted = (g: string) => groups.length === 0 || groups.includes(g)
// Telegram's Bot API stand-in answers getMe, so the dialog names the bot; Pushover and Apprise only need to be set
const telegram = fakeTelegram({ token: '42:screenshots', username: 'DibsAlertsBot' })
const world = await startWorld({
  CHANNELS_ALLOW_PRIVATE: '1',
  TELEGRAM_BOT_TOKEN: '42:screenshots',
  TELEGRAM_API_URL: telegram.apiUrl,
  PUSHOVER_APP_TOKEN: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  APPRISE_URL: 'http://127.0.0.1:8000',
})
const FULL = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null } as never

/**
 * A PNG of one element (down to the top of `until`, when given) with a small margin, at 1x: small files. An element
 * of the page is taken from the whole page, never scrolled, so the sticky header stays at the top and out of the
 * picture; one in a dialog (`inDialog`) where it is.
 */
async function crop(page: Page, element: Locator, name: string, opts: { until?: Locator; inDialog?: boolean } = {}) {
  if (opts.inDialog) await element.scrollIntoViewIfNeeded()
  const box = (await element.boundingBox())!
  const bottom = opts.until ? (await opts.until.boundingBox())!.y : box.y + box.height + 4
  await page.screenshot({
    path: `${OUT}/${name}.png`,
    fullPage: !opts.inDialog,
    clip: { x: Math.max(0, box.x - 12), y: Math.max(0, box.y - 12), width: box.width + 24, height: bottom - box.y + 12 },
  })
}

/** Notification Settings as a new subscriber sees it on their first visit. */
async function notificationSettings(theme: 'light' | 'dark') {
  const made = await world.subscriber({ theme, viewport: { width: 1280, height: 1000 } })
  await made.page.goto(world.server.url + '/settings/account#notification-settings')
  const dialog = made.page.getByTestId('notification-settings')
  await dialog.getByRole('switch', { name: 'Email notifications' }).waitFor()
  return { ...made, dialog }
}

async function alerts() {
  // each channel's setup: the 'Other channels' part of the dialog with the kind chosen (Telegram: added, with its code)
  for (const kind of ['telegram', 'pushover', 'gotify', 'matrix', 'slack', 'apprise']) {
    const { page, context, dialog } = await notificationSettings('light')
    const channels = dialog.getByTestId('external-channels')
    const add = channels.getByRole('form', { name: 'Add channel' })
    await add.getByRole('combobox', { name: 'Type' }).selectOption(kind)
    if (kind === 'telegram') {
      await add.getByRole('button', { name: 'Add channel' }).click()
      await channels.getByTestId('telegram-link').getByRole('link', { name: '@DibsAlertsBot' }).waitFor()
      await crop(page, channels.locator('li[data-kind="telegram"]'), 'channel-telegram', { inDialog: true })
    } else await crop(page, channels, `channel-${kind}`, { inDialog: true })
    await context.close()
  }
  {
    const { page, context, dialog } = await notificationSettings('dark')
    await crop(page, dialog.locator('form.claim-template'), 'claim-message', { inDialog: true })
    await context.close()
  }
  // a match card with Claim and the seller's trust: trades from the flair, age and karma from the cached look-up
  {
    const made = await world.subscriber({ theme: 'light', viewport: { width: 900, height: 700 } })
    await addTerm(world.server.deps, made.userId, FULL, 'wts', 'rmr')
    const now = Date.now()
    await recordAbout(world.server.deps, 'optics_trader', { status: 'found', accountCreatedAt: now - 1200 * 86_400_000, karma: 1240 }, now)
    const post = forumPost('[WTS] Trijicon RMR Type 2 RM06 3.25 MOA - $400 shipped', { author: 'optics_trader', authorFlair: 'Trades: 12', now, ageMs: 20_000 })
    await matchPosts(world.server.deps, await storePosts(world.server.deps, [post]), 'live', { receivedAt: now, storedAt: now })
    await made.page.goto(world.server.url + '/dashboard/gafs/wts')
    const card = made.page.getByTestId('match-card').first()
    await card.getByTestId('seller-trust').waitFor()
    await crop(made.page, card, 'match-card-claim')
    await made.context.close()
  }
  // Admin → Logs → Sources: the sources after a first poll, and the form that adds one
  await world.scan()
  const admin = await world.subscriber({ role: 'admin', theme: 'dark', viewport: { width: 1100, height: 2000 } })
  await admin.page.goto(world.server.url + '/admin/logs')
  const panel = admin.page.getByTestId('sources-panel')
  await panel.getByTestId('source-item').first().waitFor()
  await crop(admin.page, panel, 'admin-logs-sources', { until: panel.getByRole('form', { name: 'Feed politeness' }) })
  await admin.context.close()
}

async function dashboards() {
  const titles = ['[WTS] Trijicon RMR Type 2 RM06 3.25 MOA - $400 shipped', '[WTS] Aimpoint T2 with LaRue mount - $650', '[WTS] Holosun 509T X2 - $330']
  for (const theme of ['dark', 'light'] as const) {
    const { page, context, userId } = await world.subscriber({ theme })
    for (const t of ['rmr', 'aimpoint t2', 'holosun <$400']) await addTerm(world.server.deps, userId, FULL, 'wts', t)
    for (const title of titles)
      world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title, author: 'seller_one', created_utc: Math.ceil(Date.now() / 1000) + 1 })
    await world.scan()
    await page.goto(world.server.url + '/dashboard/gafs/wts')
    await page.getByTestId('match-card').first().waitFor()
    await page.screenshot({ path: `${OUT}/dashboard-${theme}.png` })
    await context.close()
  }
  // Reposts and bumps: a listing posted 4 days ago, bumped 2 days ago, then cut to $400 (one 'Price drop' card),
  // seen by one subscriber in both themes
  {
    const at = (daysAgo: number) => Math.ceil(Date.now() / 1000) + 1 - daysAgo * 24 * 3600
    const light = await world.subscriber({ theme: 'light' })
    await addTerm(world.server.deps, light.userId, FULL, 'wts', 'eotech exps3')
    for (const [title, daysAgo] of [
      ['[WTS] EOTech EXPS3-2 - $450', 4],
      ['[WTS] BUMP EOTech EXPS3-2, $450 shipped', 2],
      ['[WTS] EOTech EXPS3-2 - $400', 0],
    ] as const)
      world.reddit.publish({ subreddit: 'GunAccessoriesForSale', title, author: 'exps3_seller', created_utc: at(daysAgo) })
    // one scan (a catch-up stores the three oldest first), once the rate budget lets it run
    while (((await world.scan()) as { status: string }).status !== 'success') await Bun.sleep(500)
    const dark = await world.visitor({ theme: 'dark' })
    await dark.context.addCookies(await light.context.cookies())
    for (const [theme, { page, context }] of [
      ['light', light],
      ['dark', dark],
    ] as const) {
      await page.goto(world.server.url + '/dashboard/gafs/wts')
      await page.getByTestId('listing-line').first().waitFor()
      await page
        .getByTestId('match-card')
        .first()
        .screenshot({ path: `${OUT}/repost-price-drop-${theme}.png` })
      await context.close()
    }
  }
  const phone = await world.subscriber({ viewport: { width: 390, height: 844 }, theme: 'light' })
  await phone.page.goto(world.server.url + '/dashboard/gafs/wts')
  await phone.page.getByRole('heading', { name: 'WTS Matches' }).waitFor()
  await phone.page.screenshot({ path: `${OUT}/dashboard-phone-light.png` })
  await phone.page.goto(world.server.url + '/settings/account')
  await phone.page.getByRole('heading', { name: 'Signed-in devices' }).waitFor()
  await phone.page.screenshot({ path: `${OUT}/settings-account-phone.png`, fullPage: true })
  await phone.context.close()
  const visitor = await world.visitor({ theme: 'dark' })
  await visitor.page.goto(world.server.url + '/')
  await visitor.page.getByText('Start Free Trial').first().waitFor()
  await visitor.page.screenshot({ path: `${OUT}/landing-dark.png` })
  await visitor.context.close()
}

try {
  if (wanted('dashboard')) await dashboards()
  if (wanted('alerts')) await alerts()
  console.log(`screenshots written to ${OUT}/`)
} finally {
  await world.stop()
  await telegram.stop()
}
