// The labelled quality corpus: every post table and the saved terms (README.md: how it is labelled).
import { GD_POSTS_1 } from './posts-gd-1'
import { GD_POSTS_2 } from './posts-gd-2'
import { WTB_POSTS } from './posts-wtb'
import { WTS_POSTS_1 } from './posts-wts-1'
import { WTS_POSTS_2 } from './posts-wts-2'
import { WTS_POSTS_3 } from './posts-wts-3'
import type { QualityPost } from './types'

export { TERMS } from './terms'
export const POSTS: QualityPost[] = [...WTS_POSTS_1, ...WTS_POSTS_2, ...WTS_POSTS_3, ...WTB_POSTS, ...GD_POSTS_1, ...GD_POSTS_2]
