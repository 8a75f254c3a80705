// In-memory index of saved terms, one per category. See README.md "Index design".
// Layout: every distinct alternative (by signature) is a Group holding the terms that contain it.
// A group is filed under ONE key: its rarest required exact token (exact map), or — when it has
// only prefix words — the first ≤3 characters of its rarest prefix (prefix map). A post then costs
// one exact lookup per distinct token plus up to three prefix lookups, and each candidate group is
// verified once, however many users saved the same words.
// Add/remove are O(words of the term): swap-removal with stored positions, no rebuild.

import { alternativeMatches, compileTerm, type CompiledAlternative, type PreparedPost } from './compile';
import { parseTerm } from './parse';

export type Category = 'wts' | 'wtb' | 'gd';
export type TermRef = { termId: number; userId: number; category: Category; text: string };

const PREFIX_KEY = 3;

type Member = { rec: TermRecord; pos: number };
type Group = { alt: CompiledAlternative; members: Member[]; bucket: Group[]; bucketPos: number; shelf: Shelf; key: string };
type TermRecord = { ref: TermRef; stamp: number; memberships: { group: Group; member: Member }[] };
type Shelf = {
  exact: Map<string, Group[]>;
  prefix: Map<string, Group[]>;
  /** signature → group, so equal alternatives share one group. */
  groups: Map<string, Group>;
  /** how many prefix groups are keyed with 1, 2, 3 characters (index = length). */
  prefixLengths: number[];
};

function newShelf(): Shelf {
  return { exact: new Map(), prefix: new Map(), groups: new Map(), prefixLengths: [0, 0, 0, 0] };
}

export class TermIndex {
  private shelves: Record<Category, Shelf> = { wts: newShelf(), wtb: newShelf(), gd: newShelf() };
  private terms = new Map<number, TermRecord>();
  private stamp = 0;
  /** document frequency of tokens over observed posts; unseen tokens count as rarest. */
  private df = new Map<string, number>();
  private observed = 0;

  get size(): number {
    return this.terms.size;
  }

  /** Feeds token rarity. Only affects which key future terms are filed under, never results. */
  observe(post: PreparedPost): void {
    this.observed++;
    for (const t of post.distinct) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  /** Parses, compiles and files the term; replaces an existing term with the same id. */
  add(ref: TermRef): { ok: true } | { ok: false; error: string } {
    const parsed = parseTerm(ref.text);
    if (!parsed.ok) return parsed;
    if (this.terms.has(ref.termId)) this.remove(ref.termId);
    const shelf = this.shelves[ref.category];
    if (!shelf) return { ok: false, error: `Unknown category: ${String(ref.category)}` };
    const rec: TermRecord = { ref, stamp: 0, memberships: [] };
    for (const alt of compileTerm(parsed.query).alternatives) {
      let group = shelf.groups.get(alt.signature);
      if (!group) group = this.file(shelf, alt);
      const member: Member = { rec, pos: group.members.length };
      group.members.push(member);
      rec.memberships.push({ group, member });
    }
    this.terms.set(ref.termId, rec);
    return { ok: true };
  }

  remove(termId: number): void {
    const rec = this.terms.get(termId);
    if (rec === undefined) return;
    this.terms.delete(termId);
    for (const { group, member } of rec.memberships) {
      swapRemove(group.members, member.pos, (m, p) => (m.pos = p));
      if (group.members.length === 0) this.unfile(group);
    }
  }

  clear(): void {
    this.shelves = { wts: newShelf(), wtb: newShelf(), gd: newShelf() };
    this.terms.clear();
  }

  /** Every term of this category that matches the post, once each. */
  match(post: PreparedPost, category: Category): TermRef[] {
    const shelf = this.shelves[category];
    const out: TermRef[] = [];
    if (!shelf || this.terms.size === 0) return out;
    const stamp = ++this.stamp;
    const check = (bucket: Group[] | undefined) => {
      if (bucket === undefined) return;
      for (let i = 0; i < bucket.length; i++) {
        const g = bucket[i]!;
        if (!alternativeMatches(g.alt, post)) continue;
        const ms = g.members;
        for (let j = 0; j < ms.length; j++) {
          const rec = ms[j]!.rec;
          if (rec.stamp === stamp) continue; // another alternative of this term already matched
          rec.stamp = stamp;
          out.push(rec.ref);
        }
      }
    };
    const { exact, prefix, prefixLengths } = shelf;
    for (const t of post.distinct) check(exact.get(t));
    if (prefix.size > 0) {
      const seen = new Set<string>();
      for (const t of post.distinct) {
        for (let n = 1; n <= PREFIX_KEY && n <= t.length; n++) {
          if (prefixLengths[n] === 0) continue;
          const k = n === t.length ? t : t.slice(0, n);
          if (seen.has(k)) continue;
          seen.add(k);
          check(prefix.get(k));
        }
      }
    }
    return out;
  }

  /** Number of distinct alternatives stored (after sharing), for diagnostics. */
  get groupCount(): number {
    let n = 0;
    for (const s of Object.values(this.shelves)) n += s.groups.size;
    return n;
  }

  private rarity(token: string): number {
    return this.df.get(token) ?? 0;
  }

  /** Rarest first; ties → longer, then alphabetical (deterministic). */
  private rarer(a: string, b: string): boolean {
    const ra = this.rarity(a);
    const rb = this.rarity(b);
    if (ra !== rb) return ra < rb;
    if (a.length !== b.length) return a.length > b.length;
    return a < b;
  }

  private file(shelf: Shelf, alt: CompiledAlternative): Group {
    // Exact candidates: every token of every include sequence except a prefix sequence's last one.
    let best: string | null = null;
    for (const s of alt.include) {
      const n = s.prefix ? s.tokens.length - 1 : s.tokens.length;
      for (let i = 0; i < n; i++) if (best === null || this.rarer(s.tokens[i]!, best)) best = s.tokens[i]!;
    }
    let map = shelf.exact;
    let key: string;
    if (best !== null) key = best;
    else {
      // Only prefix words: file under the longest prefix's first ≤3 characters.
      let p = '';
      for (const s of alt.include) if (s.tokens[0]!.length > p.length) p = s.tokens[0]!;
      key = p.slice(0, PREFIX_KEY);
      map = shelf.prefix;
      shelf.prefixLengths[key.length]!++;
    }
    let bucket = map.get(key);
    if (!bucket) map.set(key, (bucket = []));
    const group: Group = { alt, members: [], bucket, bucketPos: bucket.length, shelf, key };
    bucket.push(group);
    shelf.groups.set(alt.signature, group);
    return group;
  }

  private unfile(group: Group): void {
    const { shelf, bucket, key } = group;
    shelf.groups.delete(group.alt.signature);
    swapRemove(bucket, group.bucketPos, (g, p) => (g.bucketPos = p));
    const isPrefix = shelf.prefix.get(key) === bucket;
    if (isPrefix) shelf.prefixLengths[key.length]!--;
    if (bucket.length === 0) (isPrefix ? shelf.prefix : shelf.exact).delete(key);
  }
}

function swapRemove<T>(arr: T[], pos: number, moved: (item: T, pos: number) => void): void {
  const last = arr.pop()!;
  if (pos < arr.length) {
    arr[pos] = last;
    moved(last, pos);
  }
}
