// The fan-out's `load` (src/cluster/fanout.ts): an event announced by another node, read back from
// the shared database by its ref (src/cluster/fanout-refs.ts) through the owners' reads. null when
// what it names is gone (a match deleted since, a scan row pruned): nothing to deliver.
//   match.new comes back with notify: false — the node that found it queued its alerts already; this
//   node's dispatcher must not queue them again (it only delivers the socket message).
import type { BusEvents } from '../contract/events'
import type { Deps } from '../deps'
import { feedItem, postById } from '../forums/store'
import { asPostState } from '../forums/post-state'
import { announcedMatch } from '../matches/owed'
import { unreadCounts } from '../matches/service'
import { usersMatchedOn } from '../matches/store'
import { scanById } from '../scanner/scan-history'
import { getSetting } from '../settings/service'
import type { FanoutEventName, FanoutRefs } from './fanout-refs'

type Loader = <K extends FanoutEventName>(name: K, ref: FanoutRefs[K]) => Promise<BusEvents[K] | null>

export function fanoutLoader(deps: Pick<Deps, 'db'>): Loader {
  const load = async (name: FanoutEventName, ref: FanoutRefs[FanoutEventName]): Promise<BusEvents[FanoutEventName] | null> => {
    switch (name) {
      case 'post.new': {
        const post = await postById(deps, (ref as FanoutRefs['post.new']).postId)
        return post ? { post: feedItem(post) } : null
      }
      case 'match.new': {
        const { userId, matchId } = ref as FanoutRefs['match.new']
        const found = await announcedMatch(deps, matchId)
        return found && found.userId === userId ? { userId, match: found.match, notify: false } : null
      }
      case 'match.updated':
        return ref as FanoutRefs['match.updated']
      case 'unread': {
        const { userId } = ref as FanoutRefs['unread']
        return { userId, counts: await unreadCounts(deps, userId) }
      }
      case 'access.changed':
      case 'sessions.revoked':
        return { userId: (ref as { userId: number }).userId }
      case 'settings.changed': {
        const { name: setting } = ref as FanoutRefs['settings.changed']
        return { name: setting, active: await getSetting(deps, setting) }
      }
      case 'scan.metric': {
        const metric = await scanById(deps, (ref as FanoutRefs['scan.metric']).metricId)
        return metric ? { metric } : null
      }
      case 'scan.next':
        return { at: (ref as FanoutRefs['scan.next']).at }
      case 'post.updated': {
        const postId = (ref as FanoutRefs['post.updated']).postId
        const post = await postById(deps, postId)
        if (!post) return null
        return {
          post: {
            postId,
            redditId: post.redditId,
            state: asPostState(post.state),
            stateChangedAt: post.stateChangedAt === null ? null : post.stateChangedAt.toISOString(),
            price: post.price,
          },
          userIds: await usersMatchedOn(deps, postId),
        }
      }
    }
  }
  return load as Loader
}
