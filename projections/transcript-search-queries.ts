import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, doubledForIndex, ftsPhrase, highlightWords, normaliseForSearch, INDEXED_WORD_LENGTH } from './search-text.ts';
import { SEGMENTS_PER_WORKSPACE } from './transcript-search.ts';

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
 * How a query chooses its plan (tests force each plan with extreme values; the defaults are measured in
 * bench/search.ts and bench/analytics.ts).
 */
export interface SearchTuning {
  /**
   * A word with fewer hits than this in the workspace (counted up to this cap, so the probe itself is cheap) is
   * "rare": a phrase whose rarest word is rare is driven by that word's hits.
   */
  rareHits: number;
  /**
   * The page is read in result order (walking the workspace's segments newest first, testing each) when that is
   * expected to visit fewer rows than sorting every anchor: (offset + limit) × segments / total × walkCost < total.
   */
  walkCost: number;
}

export const DEFAULT_SEARCH_TUNING: SearchTuning = { rareHits: 1_000, walkCost: 1 };

interface Workspace {
  /** The workspace's segment id range (projections/transcript-search.ts): every FTS MATCH is restricted to it. */
  low: number;
  high: number;
  segments: number;
}

/** Where a query's SQL and its bound parameters grow together, so user text only ever travels as a parameter. */
class Sql {
  readonly parameters: unknown[] = [];
  bind(value: unknown): string {
    this.parameters.push(value);
    return '?';
  }
}

/**
 * One result per segment holding the first word (the anchor) such that every other word occurs in a segment of
 * the same transcript whose time span lies within 5 seconds of the anchor's (overlapping spans are 0 seconds apart;
 * a segment has no word timings, so the segment's span is the word's position). Newest transcript first, then by
 * time in the transcript. `total` is exact.
 *
 * Everything is SQL over the FTS index, every MATCH restricted to the workspace's rowid range; JavaScript only
 * chooses the plan and shapes the page. The plans (docs/analysis.md, Search, "Query plans"):
 * - the total of one word without filters is a bare FTS5 count over the workspace's range, no join;
 * - a phrase whose rarest word is rare is driven by that word's hits and their neighbours within 5 s; otherwise
 *   its total is the FTS5 count of the segments holding every word plus the anchors found among the others;
 * - the page either sorts every anchor (few of them) or walks the workspace's segments in result order through the
 *   time index, testing each, and stops at the page's end (many of them: no sort over all hits).
 */
export function searchTranscripts(db: Database, search: TranscriptSearch, tuning: SearchTuning = DEFAULT_SEARCH_TUNING): { total: number; results: TranscriptSearchResult[] } {
  const statements = statementsOf(db);
  const workspaceRow = statements
    .get('SELECT number, segments FROM search_workspaces WHERE workspace_id = ?')
    .get(search.workspaceId) as { number: number; segments: number } | undefined;
  if (workspaceRow === undefined) return { total: 0, results: [] };
  const workspace: Workspace = {
    low: workspaceRow.number * SEGMENTS_PER_WORKSPACE,
    high: (workspaceRow.number + 1) * SEGMENTS_PER_WORKSPACE - 1,
    segments: workspaceRow.segments,
  };
  const rarest = search.words.length > 1 ? rarestWord(statements, workspace, search.words, tuning) : undefined;
  const total = countAnchors(statements, workspace, search, rarest);
  if (total === 0 || search.offset >= total) return { total, results: [] };

  let rows: SegmentRow[];
  const sql = new Sql();
  const columns = 's.segment_id, s.job_id, s.call_id, s.campaign_id, s.started_at, s.speaker, s.text, s.start_time, s.end_time';
  const order = 'ORDER BY s.started_at DESC, s.job_id DESC, s.start_time, s.segment_id';
  const pageEnd = search.offset + search.limit;
  if (rarest !== undefined) {
    const from = rareDrivenAnchors(sql, workspace, search, rarest);
    rows = statements.get(`SELECT DISTINCT ${columns} ${from} ${order} LIMIT ${sql.bind(search.limit)} OFFSET ${sql.bind(search.offset)}`).all(...sql.parameters) as SegmentRow[];
  } else if (pageEnd * (workspace.segments / total) * tuning.walkCost < total) {
    // Many anchors: read the workspace in result order and stop at the page's end.
    const where = [`s.workspace_id = ${sql.bind(search.workspaceId)}`, holds('f', search.words[0]!, sql), ...filterConditions(sql, search), ...nearConditions(sql, search.words.slice(1))];
    rows = statements
      .get(
        `SELECT ${columns} FROM search_segments s INDEXED BY search_segments_by_time CROSS JOIN ${INDEXED_TEXT} f ON f.id = s.segment_id
         WHERE ${where.join(' AND ')} ${order} LIMIT ${sql.bind(search.limit)} OFFSET ${sql.bind(search.offset)}`,
      )
      .all(...sql.parameters) as SegmentRow[];
  } else {
    const from = firstWordAnchors(sql, workspace, search, search.words.slice(1));
    rows = statements.get(`SELECT ${columns} ${from} ${order} LIMIT ${sql.bind(search.limit)} OFFSET ${sql.bind(search.offset)}`).all(...sql.parameters) as SegmentRow[];
  }

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

/** The exact number of anchors, by the cheapest of the plans above. */
function countAnchors(statements: Statements, workspace: Workspace, search: TranscriptSearch, rarest: string | undefined): number {
  const [first, ...others] = search.words;
  const filtered = filterConditions(new Sql(), search).length > 0;
  const count = (sql: Sql, from: string, what = '*') => (statements.get(`SELECT count(${what}) AS total ${from}`).get(...sql.parameters) as { total: number }).total;

  if (others.length === 0 && !filtered) {
    // A bare count over the workspace's part of the index: FTS5's own doclist walk, or the text scan of one
    // character, with no join.
    const sql = new Sql();
    return count(sql, `FROM search_segments_fts f WHERE ${contains('f', first!, sql)} AND ${inRange('f', workspace, sql)}`);
  }
  if (rarest !== undefined) {
    const sql = new Sql();
    return count(sql, rareDrivenAnchors(sql, workspace, search, rarest), 'DISTINCT s.segment_id');
  }
  if (others.length > 0 && search.words.every(indexed)) {
    // Every word common: the segments holding them all are anchors whatever their neighbours, and FTS5 counts
    // them by intersecting the words' postings; only the other segments holding the first word need their
    // neighbours looked at.
    const every = search.words.map((word) => ftsPhrase(doubledForIndex(word))).join(' AND ');
    const together = new Sql();
    const holdingAll = filtered
      ? count(together, `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE f.search_segments_fts MATCH ${together.bind(every)} AND ${inRange('f', workspace, together)} AND ${filterConditions(together, search).join(' AND ')}`)
      : count(together, `FROM search_segments_fts f WHERE f.search_segments_fts MATCH ${together.bind(every)} AND ${inRange('f', workspace, together)}`);
    const apart = new Sql();
    const notAll = `${ftsPhrase(doubledForIndex(first!))} NOT (${others.map((word) => ftsPhrase(doubledForIndex(word))).join(' AND ')})`;
    const where = [`f.search_segments_fts MATCH ${apart.bind(notAll)}`, inRange('f', workspace, apart), ...filterConditions(apart, search), ...nearConditions(apart, others)];
    return holdingAll + count(apart, `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${where.join(' AND ')}`);
  }
  const sql = new Sql();
  return count(sql, firstWordAnchors(sql, workspace, search, others));
}

/**
 * The rarest indexed word of a phrase after the first, when it has fewer than `tuning.rareHits` hits in the
 * workspace; each word's hits are counted only up to the cap, so probing a common word costs little.
 */
function rarestWord(statements: Statements, workspace: Workspace, words: string[], tuning: SearchTuning): string | undefined {
  let rarest: { word: string; hits: number } | undefined;
  // The first word is not probed: a rare word elsewhere bounds the work whether or not the first is rarer.
  for (const word of new Set(words.slice(1))) {
    if (!indexed(word) || word === words[0]) continue;
    const sql = new Sql();
    const { hits } = statements
      .get(`SELECT count(*) AS hits FROM (SELECT 1 FROM search_segments_fts f WHERE ${contains('f', word, sql)} AND ${inRange('f', workspace, sql)} LIMIT ${sql.bind(tuning.rareHits)})`)
      .get(...sql.parameters) as { hits: number };
    if (hits < tuning.rareHits && (rarest === undefined || hits < rarest.hits)) rarest = { word, hits };
  }
  return rarest?.word;
}

/**
 * `FROM ... WHERE ...` of the anchors, driven by the first word's hits (CROSS JOIN fixes that order: SQLite would
 * otherwise walk the whole workspace by date and probe each segment), so the cost follows the number of hits.
 */
function firstWordAnchors(sql: Sql, workspace: Workspace, search: TranscriptSearch, others: string[]): string {
  const where = [contains('f', search.words[0]!, sql), inRange('f', workspace, sql), `s.workspace_id = ${sql.bind(search.workspaceId)}`, ...filterConditions(sql, search), ...nearConditions(sql, others)];
  return `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${where.join(' AND ')}`;
}

/**
 * `FROM ... WHERE ...` of the anchors, driven by the hits of a rare word `rare` of the phrase: the segments of the
 * same transcript within 5 s of one of them that hold the first word and have every other word within reach.
 * An anchor near several hits appears once per hit: count and select DISTINCT.
 */
function rareDrivenAnchors(sql: Sql, workspace: Workspace, search: TranscriptSearch, rare: string): string {
  const where = [
    contains('r', rare, sql),
    inRange('r', workspace, sql),
    holds('f', search.words[0]!, sql),
    `s.workspace_id = ${sql.bind(search.workspaceId)}`,
    ...filterConditions(sql, search),
    ...nearConditions(sql, search.words.slice(1).filter((word) => word !== rare)),
  ];
  return `FROM search_segments_fts r CROSS JOIN search_segments rs ON rs.segment_id = r.rowid
    CROSS JOIN search_segments s ON s.job_id = rs.job_id AND s.start_time <= rs.end_time + ${PHRASE_PROXIMITY_SECONDS} AND s.end_time >= rs.start_time - ${PHRASE_PROXIMITY_SECONDS}
    CROSS JOIN ${INDEXED_TEXT} f ON f.id = s.segment_id
    WHERE ${where.join(' AND ')}`;
}

/** The optional filters, on the anchor segment `s`. */
function filterConditions(sql: Sql, search: TranscriptSearch): string[] {
  const filters: Array<[string, string | undefined]> = [
    ['s.started_at >=', search.from],
    ['s.started_at <=', search.to],
    ['s.language =', search.language],
    ['s.campaign_id =', search.campaignId],
    ['s.call_id =', search.callId],
    ['s.speaker =', search.speaker],
  ];
  return filters.filter(([, value]) => value !== undefined).map(([condition, value]) => `${condition} ${sql.bind(value)}`);
}

/**
 * For each word, that a segment of the anchor's transcript within 5 s of it holds the word: a look at the few
 * segments around the anchor (the transcript's time index, then each one's indexed text), never a set of every
 * hit of the word.
 */
function nearConditions(sql: Sql, words: string[]): string[] {
  return words.map(
    (word) => `EXISTS (SELECT 1 FROM search_segments o CROSS JOIN ${INDEXED_TEXT} w ON w.id = o.segment_id
      WHERE o.job_id = s.job_id AND o.start_time <= s.end_time + ${PHRASE_PROXIMITY_SECONDS} AND o.end_time >= s.start_time - ${PHRASE_PROXIMITY_SECONDS}
        AND ${holds('w', word, sql)})`,
  );
}

/**
 * The condition on the FTS table (alias `table`) that its text contains `word`: through the trigram index from
 * two characters (doubled, see search-text.ts); a single character tests the text itself (over the workspace's
 * range: the cost grows with the workspace's segments, not with the results; such a query matches most segments).
 */
function contains(table: string, word: string, sql: Sql): string {
  const doubled = doubledForIndex(word);
  if (indexed(word)) return `${table}.search_segments_fts MATCH ${sql.bind(ftsPhrase(doubled))}`;
  return `instr(${table}.norm, ${sql.bind(doubled)}) > 0`;
}

/**
 * The condition that the indexed text `table` (INDEXED_TEXT, joined to one segment by id) holds `word`. A MATCH
 * there would look the word's postings up again for every row.
 */
function holds(table: string, word: string, sql: Sql): string {
  return `instr(${table}.c0, ${sql.bind(doubledForIndex(word))}) > 0`;
}

/**
 * The FTS table's own store of its indexed text (FTS5's `%_content` shadow table: `id` the rowid, `c0` the first
 * column), read directly where a query only needs one row's text by id: a plain b-tree lookup, about three times
 * cheaper than the same row through the virtual table.
 */
const INDEXED_TEXT = 'search_segments_fts_content';

function inRange(table: string, workspace: Workspace, sql: Sql): string {
  return `${table}.rowid BETWEEN ${sql.bind(workspace.low)} AND ${sql.bind(workspace.high)}`;
}

function indexed(word: string): boolean {
  return codePointLength(word) >= INDEXED_WORD_LENGTH;
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

interface Statements {
  get(sql: string): Statement;
}

function statementsOf(db: Database): Statements {
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
