// `bun scripts/screenshots.ts`: the README's screenshots (docs/screenshots/*.png), taken from a
// real server with the fake Reddit, in Chromium, desktop and 390 px, both themes.
import { mkdirSync } from 'node:fs'
import { addTerm } from '../src/terms/service'
import { startWorld } from '../tests/e2e/journey'

const OUT = 'docs/screenshots'
mkdirSync(OUT, { recursive: true })
const world = await startWorld()
const FULL = { role: 'product+gd', subscriptionStatus: 'active', accessExpiresAt: null } as never
try {
  const titles = ['[WTS] Trijicon RMR Type 2 RM06 3.25 MOA - $400 shipped', '[WTS] Aimpoint T2 with LaRue mount - $650', '[WTS] Holosun 509T X2 - $330']
  for (const theme of ['dark', 'light'] as const) {
    const { page, context, userId } = await world.subscriber({ theme })
    for (const t of ['rmr', 'aimpoint t2', 'holosun <$400']) addTerm(world.server.deps, userId, FULL, 'wts', t)
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
    addTerm(world.server.deps, light.userId, FULL, 'wts', 'eotech exps3')
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
  console.log(`screenshots written to ${OUT}/`)
} finally {
  await world.stop()
}
