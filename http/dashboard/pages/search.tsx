import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { highlightRuns } from '../highlight.ts';
import { inPlace, Empty, ErrorBox, Layout, Pager, Time, ZoneNote } from '../view.tsx';
import { secondsLabel } from './calls.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

interface SearchResult {
  call_id: string | null;
  job_id: string;
  campaign_id: string | null;
  contact_name: string | null;
  speaker: string;
  text: string;
  start_time: number;
  timestamp: string;
}

function Highlighted({ text }: { text: string }) {
  return <>{highlightRuns(text).map((run) => (run.marked ? <mark>{run.text}</mark> : run.text))}</>;
}

/** Transcript search: each result links to its call at the second the words were said. */
export function searchPages(app: DashboardApp, _deps: PageDeps) {
  app.get('/search', async (c) => {
    const viewer = c.get('viewer');
    const query = { query: c.req.query('query')?.trim(), language: c.req.query('language'), campaign_id: c.req.query('campaign_id'), speaker: c.req.query('speaker') };
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const result = query.query ? await c.get('api').get<{ total_matches: number; limit: number; offset: number; results: SearchResult[] }>('/analytics/search', { ...query, offset, limit: 20 }) : undefined;
    return c.html(
      <Layout title="Search transcripts" viewer={viewer} path="/search">
        <form class="filters" method="get" action="/search" role="search" {...inPlace('/search')}>
          <div><label for="q">Words said in a call</label><input id="q" name="query" type="search" value={query.query ?? ''} size={30} required maxlength={200} /></div>
          <div>
            <label for="s-language">Language</label>
            <select id="s-language" name="language"><option value="">Any</option>{SUPPORTED_LANGUAGES.map((value) => <option value={value} selected={query.language === value}>{value}</option>)}</select>
          </div>
          <div>
            <label for="s-speaker">Speaker</label>
            <select id="s-speaker" name="speaker"><option value="">Anyone</option><option value="customer" selected={query.speaker === 'customer'}>customer</option><option value="agent" selected={query.speaker === 'agent'}>agent</option></select>
          </div>
          <div><label for="s-campaign">Campaign id</label><input id="s-campaign" name="campaign_id" value={query.campaign_id ?? ''} size={18} /></div>
          <button type="submit">Search</button>
        </form>
        {result === undefined ? (
          <Empty><p>Type a word or phrase customers or agents said (in any language, e.g. “renewal” or “नवीनीकरण”). Several words match when said within 5 seconds of each other.</p></Empty>
        ) : !result.ok ? (
          <ErrorBox error={result.error} />
        ) : result.body.total_matches === 0 ? (
          <Empty><p>Nothing matches “{query.query}”. Try fewer words or part of a word.</p></Empty>
        ) : (
          <>
            <p class="muted">{result.body.total_matches} match{result.body.total_matches === 1 ? '' : 'es'}</p>
            <ol class="card results">
              {result.body.results.map((hit) => (
                <li>
                  {hit.call_id ? <a href={`/calls/${hit.call_id}?t=${Math.floor(hit.start_time)}`}>{hit.contact_name ? `Call with ${hit.contact_name}` : 'Call'} at {secondsLabel(hit.start_time)}</a> : <span class="muted">Transcription job {hit.job_id}</span>}{' '}
                  <span class="muted small"><Time at={hit.timestamp} zone={viewer.timeZone} /></span>
                  <div><span class="speaker">{hit.speaker}</span> <Highlighted text={hit.text} /></div>
                </li>
              ))}
            </ol>
            <Pager path="/search" query={query} total={result.body.total_matches} limit={result.body.limit} offset={result.body.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        )}
      </Layout>,
    );
  });
}
