// Claim in one tap (src/notify/claim.ts): the claim link of every source kind, asserted exactly.
import { describe, expect, test } from 'bun:test'
import { alertActions, claimUrl, DEFAULT_CLAIM_TEMPLATE, fillTemplate, type ClaimPost } from '../../../src/notify/claim'

const TEMPLATE = 'Hi {author}, {title} for {price}? {link}'
const post = (p: Partial<ClaimPost>): ClaimPost => ({ title: 'RMR T2', url: 'https://x.example/t', author: 'seller_1', price: 450, kind: 'feed', ...p })

describe('claim links per source kind', () => {
  const cases: [string, Partial<ClaimPost>, string][] = [
    [
      'reddit: a message to the author, prefilled',
      { kind: 'reddit', url: 'https://www.reddit.com/r/hardwareswap/comments/abc/x/' },
      'https://www.reddit.com/message/compose/?to=seller_1&subject=Re%3A+RMR+T2&message=Hi+seller_1%2C+RMR+T2+for+%24450%3F+https%3A%2F%2Fwww.reddit.com%2Fr%2Fhardwareswap%2Fcomments%2Fabc%2Fx%2F',
    ],
    [
      'reddit without an author: the post',
      { kind: 'reddit', author: '[deleted]', url: 'https://www.reddit.com/r/a/comments/b/' },
      'https://www.reddit.com/r/a/comments/b/',
    ],
    [
      'a post before sources, on reddit.com: as reddit',
      { kind: null, url: 'https://old.reddit.com/r/a/comments/b/', author: 'bob', price: null },
      'https://www.reddit.com/message/compose/?to=bob&subject=Re%3A+RMR+T2&message=Hi+bob%2C+RMR+T2+for+%3F+https%3A%2F%2Fold.reddit.com%2Fr%2Fa%2Fcomments%2Fb%2F',
    ],
    [
      'XenForo thread → its reply page',
      { url: 'https://forum.example.com/threads/rmr-t2-for-sale.12345/page-2#post-9' },
      'https://forum.example.com/threads/rmr-t2-for-sale.12345/reply',
    ],
    ['XenForo under a path', { url: 'https://example.com/community/threads/x.77/' }, 'https://example.com/community/threads/x.77/reply'],
    [
      'phpBB topic → posting.php reply',
      { url: 'https://board.example.org/forum/viewtopic.php?t=4321&start=15' },
      'https://board.example.org/forum/posting.php?mode=reply&t=4321',
    ],
    [
      'phpBB topic with f= keeps it',
      { url: 'https://board.example.org/viewtopic.php?f=12&t=4321' },
      'https://board.example.org/posting.php?mode=reply&f=12&t=4321',
    ],
    [
      'vBulletin showthread.php?t= → newreply.php',
      { url: 'https://vb.example.net/showthread.php?t=998877' },
      'https://vb.example.net/newreply.php?do=newreply&t=998877',
    ],
    [
      'vBulletin showthread.php?<id>-slug',
      { url: 'https://vb.example.net/forums/showthread.php?998877-RMR-for-sale' },
      'https://vb.example.net/forums/newreply.php?do=newreply&t=998877',
    ],
    [
      'Discourse topic → a prefilled message to the author',
      { url: 'https://talk.example.com/t/rmr-t2/5512/3', price: null },
      'https://talk.example.com/new-message?username=seller_1&title=Re%3A+RMR+T2&body=Hi+seller_1%2C+RMR+T2+for+%3F+https%3A%2F%2Ftalk.example.com%2Ft%2Frmr-t2%2F5512%2F3',
    ],
    ['an unknown forum: the thread URL', { url: 'https://shop.example.com/listing/55' }, 'https://shop.example.com/listing/55'],
    ['push: the post URL, whatever it looks like', { kind: 'push', url: 'https://forum.example.com/threads/x.1/' }, 'https://forum.example.com/threads/x.1/'],
  ]
  for (const [name, p, want] of cases) test(name, () => expect(claimUrl(post(p), TEMPLATE)).toBe(want))
})

describe('the claim template', () => {
  test('the default names the author, the title, the price and the link; without a price the brackets go', () => {
    const p = { title: '[WTS] RMR', url: 'https://r.example/1', author: 'ann', price: 425.5 }
    expect(fillTemplate(DEFAULT_CLAIM_TEMPLATE, p)).toBe('Hi ann, I\'d like to claim your "[WTS] RMR" ($425.50). Is it still available? https://r.example/1')
    expect(fillTemplate(DEFAULT_CLAIM_TEMPLATE, { ...p, price: null, author: '' })).toBe(
      'Hi there, I\'d like to claim your "[WTS] RMR". Is it still available? https://r.example/1',
    )
  })
  test('alertActions wraps Claim and Open in the channel link and adds Mark read; null template = the default', () => {
    const a = alertActions(post({ kind: 'push' }), null, (action, target) => `https://dibs.example/c/${action}?to=${target ?? ''}`)
    expect(a).toEqual({
      claim: 'https://dibs.example/c/claim?to=https://x.example/t',
      open: 'https://dibs.example/c/open?to=https://x.example/t',
      markRead: 'https://dibs.example/c/read?to=',
      claimTarget: 'https://x.example/t',
    })
  })
})
