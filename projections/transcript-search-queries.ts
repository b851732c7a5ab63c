import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, doubledForIndex, ftsPhrase, highlightWords, likeContaining, normaliseForSearch, INDEXED_WORD_LENGTH } from './search-text.ts';

/** Words of a phrase must lie within this many seconds of the first word's segment (the spec's phrase proximity). */
export const PHRASE_PROXIMITY_SECONDS = 5;

export interface TranscriptSearch {
  workspaceId: string;
  /** Normalised words (search-text.ts `searchWords`), at least one. */
  words: string[];
  /** Bounds on the transcript's start (UTC ISO with milliseconds, inclusive). */
  from?: string;
  to?: string;
  language?: string;
  campaignId?: string;
  callId?: string;
  /** The speaker of the segment holding the first word. */
  speaker?: string;
  limit: number;
  offset: number;
}

export interface MatchedSegment {
  speaker: string;
  text: string;
  start_time: number;
  end_time: number;
}

export interface TranscriptSearchResult extends MatchedSegment {
  call_id: string | null;
  job_id: string;
  campaign_id: string | null;
  timestamp: string;
  /** The segments holding the phrase's other words, when not the result's own segment. */
  other_segments: MatchedSegment[];
}

interface SegmentRow {
  segment_id: number;
  job_id: string;
  call_id: string | null;
  campaign_id: string | null;
  started_at: string;
  speaker: string;
  text: string;
  start_time: number;
  end_time: number;
}

/**
 * One result per segment holding the first word (the anchor) such that every other word occurs in a segment of
 * the same transcript whose time span lies within 5 seconds of the anchor's (overlapping spans are 0 seconds apart;
 * a segment has no word timings, so the segment's span is the word's position). Newest transcript first, then by
 * time in the transcript. Everything is SQL over the FTS index; JavaScript only shapes the page it returns.
 */
export function searchTranscripts(db: Database, search: TranscriptSearch): { total: number; results: TranscriptSearchResult[] } {
  const { sql, parameters } = matchingSegments(search);
  const statements = statementsOf(db);
  // One pass for the page and the exact total (the window count runs over every match before LIMIT applies); a
  // page past the end has no row to carry the total, so only then is it counted on its own.
  const rows = statements
    .get(
      `SELECT s.segment_id, s.job_id, s.call_id, s.campaign_id, s.started_at, s.speaker, s.text, s.start_time, s.end_time,
         COUNT(*) OVER () AS total ${sql}
       ORDER BY s.started_at DESC, s.job_id DESC, s.start_time, s.segment_id LIMIT ? OFFSET ?`,
    )
    .all(...parameters, search.limit, search.offset) as Array<SegmentRow & { total: number }>;
  const total = rows[0]?.total ?? (statements.get(`SELECT COUNT(*) AS total ${sql}`).get(...parameters) as { total: number }).total;
  const neighbours = statements.get(
    `SELECT segment_id, speaker, text, start_time, end_time FROM search_segments
     WHERE job_id = ? AND start_time <= ? AND end_time >= ? ORDER BY start_time, segment_id`,
  );
  return {
    total,
    results: rows.map((row) => {
      const others =
        search.words.length > 1
          ? otherSegments(row, search.words.slice(1), neighbours.all(row.job_id, row.end_time + PHRASE_PROXIMITY_SECONDS, row.start_time - PHRASE_PROXIMITY_SECONDS) as SegmentRow[])
          : [];
      return {
        call_id: row.call_id,
        job_id: row.job_id,
        campaign_id: row.campaign_id,
        timestamp: new Date(Date.parse(row.started_at) + Math.round(row.start_time * 1000)).toISOString(),
        speaker: row.speaker,
        text: highlightWords(row.text, search.words),
        start_time: row.start_time,
        end_time: row.end_time,
        other_segments: others.map((segment) => ({
          speaker: segment.speaker,
          text: highlightWords(segment.text, search.words),
          start_time: segment.start_time,
          end_time: segment.end_time,
        })),
      };
    }),
  };
}

/**
 * `FROM ... WHERE ...` of the anchors, with its parameters: user text only ever travels as a bound parameter.
 * The first word's matches drive the query (CROSS JOIN fixes that order: SQLite would otherwise walk the whole
 * workspace by date and probe each segment), so the cost follows the number of matches, not the index size.
 */
function matchingSegments(search: TranscriptSearch): { sql: string; parameters: unknown[] } {
  const [first, ...others] = search.words;
  const firstWord = wordCondition(first!, 'f');
  const conditions = [firstWord.sql, 's.workspace_id = ?'];
  const parameters: unknown[] = [firstWord.parameter, search.workspaceId];
  const filters: Array<[string, string | undefined]> = [
    ['s.started_at >= ?', search.from],
    ['s.started_at <= ?', search.to],
    ['s.language = ?', search.language],
    ['s.campaign_id = ?', search.campaignId],
    ['s.call_id = ?', search.callId],
    ['s.speaker = ?', search.speaker],
  ];
  for (const [condition, value] of filters) {
    if (value === undefined) continue;
    conditions.push(condition);
    parameters.push(value);
  }
  for (const word of others) {
    const wordSet = wordCondition(word, 'w');
    conditions.push(
      `EXISTS (SELECT 1 FROM search_segments o WHERE o.job_id = s.job_id AND o.start_time <= s.end_time + ${PHRASE_PROXIMITY_SECONDS}
         AND o.end_time >= s.start_time - ${PHRASE_PROXIMITY_SECONDS}
         AND o.segment_id IN (SELECT w.rowid FROM search_segments_fts w WHERE ${wordSet.sql}))`,
    );
    parameters.push(wordSet.parameter);
  }
  return {
    sql: `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${conditions.join(' AND ')}`,
    parameters,
  };
}

/**
 * The condition on the FTS table (alias `table`) that its text contains `word`: through the trigram index from
 * two characters (doubled, see search-text.ts); a single character scans the table's text with LIKE (the cost
 * grows with the whole index, not with the results; such a query matches most segments anyway).
 */
function wordCondition(word: string, table: string): { sql: string; parameter: string } {
  const indexed = doubledForIndex(word);
  if (codePointLength(word) >= INDEXED_WORD_LENGTH) return { sql: `${table}.search_segments_fts MATCH ?`, parameter: ftsPhrase(indexed) };
  return { sql: `${table}.norm LIKE ? ESCAPE '\\'`, parameter: likeContaining(indexed) };
}

/**
 * For each other word, the segment nearest the anchor (in start time) among those within the window that hold it;
 * the anchor itself when it holds the word. Distinct, in time order. The window is a handful of segments of one
 * transcript, so testing them here is cheap and says exactly what the SQL condition said.
 */
function otherSegments(anchor: SegmentRow, words: string[], window: SegmentRow[]): SegmentRow[] {
  const normalised = new Map(window.map((segment) => [segment.segment_id, normaliseForSearch(segment.text)]));
  const chosen = new Map<number, SegmentRow>();
  for (const word of words) {
    if (normaliseForSearch(anchor.text).includes(word)) continue;
    let nearest: SegmentRow | undefined;
    for (const segment of window) {
      if (!normalised.get(segment.segment_id)!.includes(word)) continue;
      if (nearest === undefined || Math.abs(segment.start_time - anchor.start_time) < Math.abs(nearest.start_time - anchor.start_time)) nearest = segment;
    }
    if (nearest !== undefined) chosen.set(nearest.segment_id, nearest);
  }
  return [...chosen.values()].sort((a, b) => a.start_time - b.start_time || a.segment_id - b.segment_id);
}

/**
 * Statements prepared once per database and query shape (which filters, how many words, index or LIKE per word):
 * a few hundred shapes at most, kept in a bounded map.
 */
const MAX_CACHED_SHAPES = 512;
const prepared = new WeakMap<Database, Map<string, Statement>>();

function statementsOf(db: Database): { get(sql: string): Statement } {
  let cache = prepared.get(db);
  if (cache === undefined) {
    cache = new Map();
    prepared.set(db, cache);
  }
  const statements = cache;
  return {
    get(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        if (statements.size >= MAX_CACHED_SHAPES) statements.clear();
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
