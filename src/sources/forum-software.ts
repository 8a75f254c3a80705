// Which forum software wrote a feed, where the feed says it: first its generator (vBulletin writes
// "vBulletin", phpBB and Discourse name themselves when they set one), then what each one always
// writes: Discourse's `discourse:` namespace, XenForo 2's `/threads/<slug>.<id>/` links (its
// generator is the board's title), phpBB's "Statistics: Posted by" trailer and
// viewtopic.php links, vBulletin's showthread.php links. Null when nothing says it. Pure.
export type ForumSoftwareName = 'xenforo' | 'phpbb' | 'discourse' | 'vbulletin'
export type ForumSoftware = { name: ForumSoftwareName; evidence: string }

const GENERATORS: [RegExp, ForumSoftwareName][] = [
  [/xenforo/i, 'xenforo'],
  [/phpbb/i, 'phpbb'],
  [/discourse/i, 'discourse'],
  [/vbulletin/i, 'vbulletin'],
]

export function detectForumSoftware(feed: {
  generator: string | null
  namespaces: string[]
  items: { url: string | null; guid: string; body: string }[]
}): ForumSoftware | null {
  for (const [re, name] of GENERATORS) if (feed.generator && re.test(feed.generator)) return { name, evidence: `generator "${feed.generator.slice(0, 80)}"` }
  if (feed.namespaces.some((ns) => /discourse\.org/i.test(ns))) return { name: 'discourse', evidence: 'the discourse: namespace' }
  const links = feed.items.flatMap((i) => [i.url ?? '', i.guid])
  if (links.some((l) => /\/threads\/[^/]*\.\d+\/?/.test(l))) return { name: 'xenforo', evidence: 'thread links /threads/<slug>.<id>/' }
  if (feed.items.some((i) => /Statistics: Posted by/.test(i.body))) return { name: 'phpbb', evidence: 'the "Statistics: Posted by" line of its posts' }
  if (links.some((l) => /\/viewtopic\.php\?/.test(l))) return { name: 'phpbb', evidence: 'viewtopic.php links' }
  if (links.some((l) => /\/showthread\.php\?/.test(l))) return { name: 'vbulletin', evidence: 'showthread.php links' }
  return null
}
