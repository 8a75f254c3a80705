// Part 2 removes this file: the page files being edited elsewhere while part 1 ran still import from here.
export type { AdminDeps } from './shared/deps'
