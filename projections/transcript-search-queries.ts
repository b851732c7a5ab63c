import type { Database, Statement } from 'better-sqlite3';
import { codePointLength, ftsPhrase, highlightWords, normaliseForSearch, INDEXED_WORD_LENGTH } from './search-text.ts';
import { SEGMENTS_PER_WORKSPACE } from './transcript-search.ts';
import { totalKey, type SearchTotals } from './transcript-search-totals.ts';

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
  longest_segment: number;
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

/** One search, resolved: the workspace's segment id range and each word's FTS5 expression. */
interface Query {
  search: TranscriptSearch;
  /**
   * A range of the workspace's segment ids (projections/transcript-search.ts), every FTS MATCH restricted to it:
   * the workspace's indexed segments, or those past a remembered total's watermark.
   */
  low: number;
  high: number;
  segments: number;
  /** Each distinct word's FTS5 expression (`wordExpression`). */
  expressions: Map<string, string>;
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
export function searchTranscripts(
  db: Database,
  search: TranscriptSearch,
  tuning: SearchTuning = DEFAULT_SEARCH_TUNING,
  totals?: SearchTotals,
): { total: number; results: TranscriptSearchResult[] } {
  // One read transaction: the workspace's watermark, the total and the page all see the same snapshot, while the
  // projection keeps committing.
  return db.transaction(() => searchInSnapshot(db, search, tuning, totals))();
}

function searchInSnapshot(db: Database, search: TranscriptSearch, tuning: SearchTuning, totals: SearchTotals | undefined): { total: number; results: TranscriptSearchResult[] } {
  const statements = statementsOf(db);
  const workspace = statements
    .get('SELECT number, segments, generation FROM search_workspaces WHERE workspace_id = ?')
    .get(search.workspaceId) as { number: number; segments: number; generation: number } | undefined;
  if (workspace === undefined) return { total: 0, results: [] };
  const expressions = new Map<string, string>();
  for (const word of search.words) {
    const expression = expressions.get(word) ?? wordExpression(db, word);
    // A word no indexed text contains: nothing can match.
    if (expression === undefined) return { total: 0, results: [] };
    expressions.set(word, expression);
  }
  // Ids past the workspace's count are not in this snapshot: the range stops there, so a total covers exactly
  // segments 1..watermark.
  const first = workspace.number * SEGMENTS_PER_WORKSPACE;
  const query: Query = { search, low: first, high: first + workspace.segments, segments: workspace.segments, expressions };
  const rarest = search.words.length > 1 ? rarestWord(statements, query, tuning) : undefined;
  const total = exactTotal(statements, query, rarest, workspace, totals);
  if (total === 0 || search.offset >= total) return { total, results: [] };

  let rows: SegmentRow[];
  const sql = new Sql();
  const columns = 's.segment_id, s.job_id, s.call_id, s.campaign_id, s.started_at, s.speaker, s.text, s.start_time, s.end_time, s.longest_segment';
  const order = 'ORDER BY s.started_at DESC, s.job_id DESC, s.start_time, s.segment_id';
  const page = () => `LIMIT ${sql.bind(search.limit)} OFFSET ${sql.bind(search.offset)}`;
  const pageEnd = search.offset + search.limit;
  if (rarest !== undefined) {
    const from = rareDrivenAnchors(sql, query, rarest);
    rows = statements.get(`SELECT DISTINCT ${columns} ${from} ${order} ${page()}`).all(...sql.parameters) as SegmentRow[];
  } else if (pageEnd * (query.segments / total) * tuning.walkCost < total) {
    // Many anchors: read the workspace in result order and stop at the page's end.
    const where = [`s.workspace_id = ${sql.bind(search.workspaceId)}`, ...filterConditions(sql, search), inOrder([holds('f', search.words[0]!, sql), ...nearConditions(sql, search.words.slice(1))])];
    rows = statements
      .get(`SELECT ${columns} FROM search_segments s INDEXED BY search_segments_by_time CROSS JOIN ${INDEXED_TEXT} f ON f.id = s.segment_id WHERE ${where.join(' AND ')} ${order} ${page()}`)
      .all(...sql.parameters) as SegmentRow[];
  } else {
    const from = firstWordAnchors(sql, query, search.words.slice(1));
    rows = statements.get(`SELECT ${columns} ${from} ${order} ${page()}`).all(...sql.parameters) as SegmentRow[];
  }

  const neighbours = statements.get(
    `SELECT segment_id, speaker, text, start_time, end_time FROM search_segments
     WHERE job_id = ? AND start_time BETWEEN ? AND ? AND end_time >= ? ORDER BY start_time, segment_id`,
  );
  return {
    total,
    results: rows.map((row) => {
      const others =
        search.words.length > 1
          ? otherSegments(row, search.words.slice(1), neighbours.all(row.job_id, row.start_time - PHRASE_PROXIMITY_SECONDS - row.longest_segment, row.end_time + PHRASE_PROXIMITY_SECONDS, row.start_time - PHRASE_PROXIMITY_SECONDS) as SegmentRow[])
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
 * The FTS5 expression finding `word` in the index, or undefined when no indexed text contains it. From three
 * characters, the phrase of its trigrams. A shorter word is found as the prefix of the trigrams that start with it
 * (every character starts one, search-text.ts `indexedText`): the expression is the OR of those trigrams, listed
 * by fts5vocab from the index's term list (the list's cost follows those trigrams' postings, as the query's does).
 */
export function wordExpression(db: Database, word: string): string | undefined {
  if (codePointLength(word) >= INDEXED_WORD_LENGTH) return ftsPhrase(word);
  if (!withTerms.has(db)) {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TERMS} USING fts5vocab(main, 'search_segments_fts', 'row')`);
    withTerms.add(db);
  }
  const terms = statementsOf(db)
    .get(`SELECT term FROM temp.${TERMS} WHERE term >= ? AND term <= ?`)
    .all(word, `${word}\u{10FFFF}`) as Array<{ term: string }>;
  return terms.length === 0 ? undefined : terms.map(({ term }) => ftsPhrase(term)).join(' OR ');
}

/** The term list of the trigram index, a connection's own (temp) view: nothing to keep in read.db. */
const TERMS = 'search_segments_terms';
const withTerms = new WeakSet<Database>();

/**
 * The exact total: remembered up to a watermark plus the anchors indexed since (transcript-search-totals.ts), or
 * counted afresh. Any of countAnchors' plans counts exactly over any range of whole transcripts.
 */
function exactTotal(
  statements: Statements,
  query: Query,
  rarest: string | undefined,
  workspace: { segments: number; generation: number },
  totals: SearchTotals | undefined,
): number {
  if (totals === undefined) return countAnchors(statements, query, rarest);
  const key = totalKey(query.search);
  const { schema_version: schemaVersion } = statements.get('PRAGMA schema_version').get() as { schema_version: number };
  const epoch = `${schemaVersion}:${workspace.generation}`;
  const known = totals.get(key);
  let total: number;
  if (known === undefined || known.epoch !== epoch || known.watermark > workspace.segments) total = countAnchors(statements, query, rarest);
  else if (known.watermark === workspace.segments) return known.total;
  else total = known.total + countAnchors(statements, { ...query, low: query.low + known.watermark + 1 }, rarest);
  totals.set(key, { epoch, watermark: workspace.segments, total });
  return total;
}

/** The exact number of anchors among the segments of `query.low..query.high`, by the cheapest of the plans above. */
function countAnchors(statements: Statements, query: Query, rarest: string | undefined): number {
  const { search } = query;
  const [first, ...others] = search.words;
  const filtered = filterConditions(new Sql(), search).length > 0;
  const count = (sql: Sql, from: string, what = '*') => (statements.get(`SELECT count(${what}) AS total ${from}`).get(...sql.parameters) as { total: number }).total;

  if (others.length === 0 && !filtered) {
    // A bare count over the workspace's part of the index: FTS5's own doclist walk, with no join.
    const sql = new Sql();
    return count(sql, `FROM search_segments_fts f WHERE ${matches('f', query.expressions.get(first!)!, sql)} AND ${inRange('f', query, sql)}`);
  }
  if (rarest !== undefined) {
    const sql = new Sql();
    return count(sql, rareDrivenAnchors(sql, query, rarest), 'DISTINCT s.segment_id');
  }
  if (others.length > 0) {
    // Every word common: the segments holding them all are anchors whatever their neighbours, and FTS5 counts
    // them by intersecting the words' postings; only the other segments holding the first word need their
    // neighbours looked at.
    const group = (word: string) => `(${query.expressions.get(word)!})`;
    const every = search.words.map(group).join(' AND ');
    const together = new Sql();
    const holdingAll = filtered
      ? count(together, `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${matches('f', every, together)} AND ${inRange('f', query, together)} AND ${filterConditions(together, search).join(' AND ')}`)
      : count(together, `FROM search_segments_fts f WHERE ${matches('f', every, together)} AND ${inRange('f', query, together)}`);
    const apart = new Sql();
    const notAll = `${group(first!)} NOT (${others.map(group).join(' AND ')})`;
    const where = [matches('f', notAll, apart), inRange('f', query, apart), ...filterConditions(apart, search), ...nearHits(apart, query, others)];
    return holdingAll + count(apart, `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${where.join(' AND ')}`);
  }
  const sql = new Sql();
  return count(sql, firstWordAnchors(sql, query, others));
}

/**
 * The rarest word of a phrase after the first, when it has fewer than `tuning.rareHits` hits in the workspace;
 * each word's hits are counted only up to the cap, so probing a common word costs little. The first word is not
 * probed: a rare word elsewhere bounds the work whether or not the first is rarer.
 */
function rarestWord(statements: Statements, query: Query, tuning: SearchTuning): string | undefined {
  const [first, ...others] = query.search.words;
  let rarest: { word: string; hits: number } | undefined;
  for (const word of new Set(others)) {
    if (word === first) continue;
    const sql = new Sql();
    const { hits } = statements
      .get(`SELECT count(*) AS hits FROM (SELECT 1 FROM search_segments_fts f WHERE ${matches('f', query.expressions.get(word)!, sql)} AND ${inRange('f', query, sql)} LIMIT ${sql.bind(tuning.rareHits)})`)
      .get(...sql.parameters) as { hits: number };
    if (hits < tuning.rareHits && (rarest === undefined || hits < rarest.hits)) rarest = { word, hits };
  }
  return rarest?.word;
}

/**
 * `FROM ... WHERE ...` of the anchors, driven by the first word's hits (CROSS JOIN fixes that order: SQLite would
 * otherwise walk the whole workspace by date and probe each segment), so the cost follows the number of hits.
 */
function firstWordAnchors(sql: Sql, query: Query, others: string[]): string {
  const { search } = query;
  const where = [
    matches('f', query.expressions.get(search.words[0]!)!, sql),
    inRange('f', query, sql),
    `s.workspace_id = ${sql.bind(search.workspaceId)}`,
    ...filterConditions(sql, search),
    ...nearConditions(sql, others),
  ];
  return `FROM search_segments_fts f CROSS JOIN search_segments s ON s.segment_id = f.rowid WHERE ${where.join(' AND ')}`;
}

/**
 * `FROM ... WHERE ...` of the anchors, driven by the hits of a rare word `rare` of the phrase: the segments of the
 * same transcript within 5 s of one of them that hold the first word and have every other word within reach.
 * An anchor near several hits appears once per hit: count and select DISTINCT.
 */
function rareDrivenAnchors(sql: Sql, query: Query, rare: string): string {
  const { search } = query;
  const where = [
    matches('r', query.expressions.get(rare)!, sql),
    inRange('r', query, sql),
    `s.workspace_id = ${sql.bind(search.workspaceId)}`,
    ...filterConditions(sql, search),
    inOrder([holds('f', search.words[0]!, sql), ...nearConditions(sql, search.words.slice(1).filter((word) => word !== rare))]),
  ];
  return `FROM search_segments_fts r CROSS JOIN search_segments rs ON rs.segment_id = r.rowid
    CROSS JOIN search_segments s ON s.job_id = rs.job_id AND ${within('s', 'rs')}
    CROSS JOIN ${INDEXED_TEXT} f ON f.id = s.segment_id
    WHERE ${where.join(' AND ')}`;
}

/**
 * Conditions tested in this order, each only when the previous ones hold. SQLite splits a WHERE clause at its ANDs
 * and tests each part at the first join level where its tables are available: the neighbour look-ups, which need
 * only the anchor, would run for every anchor candidate before the (cheap) test of its text joined after it. One
 * CASE keeps them together, in order.
 */
function inOrder(conditions: string[]): string {
  return conditions.reduceRight((rest, condition) => `CASE WHEN ${condition} THEN ${rest} ELSE 0 END`, '1');
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
      WHERE o.job_id = s.job_id AND ${within('o', 's')} AND ${holds('w', word, sql)})`,
  );
}

/**
 * Segment `near`'s span lies within 5 s of segment `anchor`'s (same transcript). The lower bound on `near`'s start
 * (the transcript's longest segment before the window) adds nothing logically but keeps the look-up to the few
 * rows around the anchor in the transcript's time index.
 */
function within(near: string, anchor: string): string {
  const reach = PHRASE_PROXIMITY_SECONDS;
  return `${near}.start_time BETWEEN ${anchor}.start_time - ${reach} - ${anchor}.longest_segment AND ${anchor}.end_time + ${reach} AND ${near}.end_time >= ${anchor}.start_time - ${reach}`;
}

/**
 * As nearConditions, but each word's hits in the workspace are listed once (SQLite keeps the uncorrelated
 * subquery's rowids in a temporary index) and the segments around the anchor are looked up in that list: no
 * text read per neighbour. For the dense phrase count, where the candidates are many and the words' postings
 * are read anyway by the count of the segments holding them all.
 */
function nearHits(sql: Sql, query: Query, words: string[]): string[] {
  return words.map(
    (word) => `EXISTS (SELECT 1 FROM search_segments o WHERE o.job_id = s.job_id AND ${within('o', 's')}
      AND o.segment_id IN (SELECT h.rowid FROM search_segments_fts h WHERE ${matches('h', query.expressions.get(word)!, sql)} AND ${inRange('h', query, sql)}))`,
  );
}

/** The FTS table (alias `table`) matches an expression (`wordExpression`, or several combined). */
function matches(table: string, expression: string, sql: Sql): string {
  return `${table}.search_segments_fts MATCH ${sql.bind(expression)}`;
}

/**
 * The condition that the indexed text `table` (INDEXED_TEXT, joined to one segment by id) holds `word`. A MATCH
 * there would look the word's postings up again for every row.
 */
function holds(table: string, word: string, sql: Sql): string {
  return `instr(${table}.c0, ${sql.bind(word)}) > 0`;
}

/**
 * The FTS table's own store of its indexed text (FTS5's `%_content` shadow table: `id` the rowid, `c0` the first
 * column), read directly where a query only needs one row's text by id: a plain b-tree lookup, about three times
 * cheaper than the same row through the virtual table.
 */
const INDEXED_TEXT = 'search_segments_fts_content';

function inRange(table: string, query: Query, sql: Sql): string {
  return `${table}.rowid BETWEEN ${sql.bind(query.low)} AND ${sql.bind(query.high)}`;
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
