import type { TranscriptSearch } from './transcript-search-queries.ts';

/**
 * Exact totals of transcript searches, remembered between requests and kept current by a watermark (docs/analysis.md,
 * Search, "Exact totals kept current"). The exact `total_matches` of a common word over a large workspace is a
 * count over all its postings (over 10 ms at a million calls): a later request for the same search (the same query
 * again, its next page, another user of the workspace) adds to the remembered total only the matches among the
 * segments indexed since, which FTS5 counts over that rowid range alone.
 *
 * Why that stays exact: a workspace's segments are numbered in the order they are indexed and a transcript's
 * segments are all indexed at once (projections/transcript-search.ts), so the segments past the watermark are whole
 * transcripts, and a phrase's anchor and the words within 5 s of it are always in one transcript: the anchors among
 * the segments up to the watermark are the same as when they were counted. Anything that changes indexed segments
 * instead of adding new ones changes the entry's `epoch` (the projection's per-workspace generation and read.db's
 * schema version, which a rebuild moves), and the entry is then counted afresh.
 *
 * One instance per search thread, in memory; bounded by an estimate of its bytes, least recently used first out.
 */
export interface KnownTotal {
  /** What must be unchanged for `total` to still hold up to `watermark` (see above). */
  epoch: string;
  /** The workspace's segment sequence the total covers: its segments 1..watermark. */
  watermark: number;
  total: number;
}

/** Default bound of one thread's totals (SEARCH_TOTALS_CACHE_BYTES): thousands of searches even at the longest keys. */
export const DEFAULT_SEARCH_TOTALS_BYTES = 8 * 1024 * 1024;

/**
 * What one entry costs besides its strings (two UTF-16 bytes a character): the Map's slot, the entry object and its
 * numbers. An estimate on the high side, so the bound holds.
 */
const ENTRY_OVERHEAD_BYTES = 160;

export class SearchTotals {
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently used first.
  private readonly entries = new Map<string, { known: KnownTotal; bytes: number }>();
  private used = 0;

  constructor(readonly maxBytes: number = DEFAULT_SEARCH_TOTALS_BYTES) {}

  get(key: string): KnownTotal | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.known;
  }

  set(key: string, known: KnownTotal): void {
    this.delete(key);
    const bytes = (key.length + known.epoch.length) * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return;
    for (const [oldest] of this.entries) {
      if (this.used + bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, { known, bytes });
    this.used += bytes;
  }

  /** The estimated bytes held (at most maxBytes) and the number of entries. */
  get size(): { bytes: number; entries: number } {
    return { bytes: this.used, entries: this.entries.size };
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }
}

/**
 * What a total depends on: the workspace, the normalised words and every filter; not the page (limit, offset), so
 * every page of a search shares one entry.
 */
export function totalKey(search: TranscriptSearch): string {
  return JSON.stringify([
    search.workspaceId,
    search.words,
    search.from ?? null,
    search.to ?? null,
    search.language ?? null,
    search.campaignId ?? null,
    search.callId ?? null,
    search.speaker ?? null,
  ]);
}
