import { DISPOSITIONS } from '../../../domain/shared/disposition.ts';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { addDays, isCalendarDay, startOfLocalDate } from '../../../domain/shared/time-zone.ts';
import { ApiCallError, unwrap, type ApiResult } from '../api-client.ts';
import { inPlace, Badge, Empty, ErrorBox, Layout, Pager, Time, ZoneNote } from '../view.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

export interface CallListItem {
  id: string;
  campaign_id: string | null;
  contact: { phone: string; name: string };
  status: string;
  disposition: string | null;
  duration_seconds: number;
  language: string;
  started_at: string;
  ended_at: string | null;
}

interface Call extends CallListItem {
  transcript_job_id: string | null;
  recording_url: string | null;
  script_id: string;
  script_version: number;
  attempt: number | null;
  answered_at: string | null;
  agent_id: string | null;
  escalation: { escalation_reason: string; summary: string; agent_id: string | null } | null;
  failure_reason: string | null;
}

interface Segment { speaker: string; text: string; start_time: number; end_time: number; confidence?: number }
interface CallTranscript {
  status: 'processing' | 'completed' | 'failed';
  transcript?: Segment[];
  summary?: string | null;
  sentiment?: { overall: number; by_speaker: Record<string, number> } | null;
  error?: { code: string; message: string };
}
interface Job {
  intent: string | null;
  qa_score?: { overall_score: number; passed: boolean; pass_threshold: number; parameter_scores: { parameter_name: string; score: number; max_score: number; passed: boolean }[] } | null;
}

interface Violation { check: string; description: string; severity: 'critical' | 'warning'; rule_pack: { id: string; version: string }; evidence: Segment | null }
/** GET /v1/analytics/compliance?call_id=: the result, or `status` while pending / when nothing applies. */
type ComplianceAnswer =
  | { compliance_score: number; passed_checks: string[]; violations: Violation[]; rule_packs: { id: string; version: string }[]; classifier: string | null; evaluated_at: string; status?: undefined }
  | { status: 'processing' | 'not_applicable' | 'failed'; error?: { code: string; message: string } };


export const secondsLabel = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

const sentimentWord = (score: number) => (score > 0.25 ? 'positive' : score < -0.25 ? 'negative' : 'neutral');

export function CallTable({ calls, zone }: { calls: CallListItem[]; zone: string }) {
  return (
    <div class="table-wrap">
      <table class="responsive">
        <thead><tr><th scope="col">Contact</th><th scope="col">Status</th><th scope="col">Disposition</th><th scope="col">Duration</th><th scope="col">Language</th><th scope="col">Started</th></tr></thead>
        <tbody>
          {calls.map((call) => (
            <tr>
              <td data-label="Contact"><a href={`/calls/${call.id}`}>{call.contact.name}</a> <span class="muted small">{call.contact.phone}</span></td>
              <td data-label="Status"><Badge value={call.status} /></td>
              <td data-label="Disposition"><Badge value={call.disposition} /></td>
              <td data-label="Duration">{secondsLabel(call.duration_seconds)}</td>
              <td data-label="Language">{call.language}</td>
              <td data-label="Started"><Time at={call.started_at} zone={zone} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Where the page's audio player fetches a call's recording: through the dashboard, which signs the API's link afresh
 * for each request (the link itself works for an hour, and a player fetches more of the file as it plays and seeks).
 * Same origin as the page (CSP media-src 'self').
 */
function recordingPath(callId: string): string {
  return `/calls/${encodeURIComponent(callId)}/recording`;
}

export function callPages(app: DashboardApp, _deps: PageDeps) {
  app.get('/calls', async (c) => {
    const viewer = c.get('viewer');
    const zone = viewer.timeZone;
    const query = {
      campaign_id: c.req.query('campaign_id'),
      disposition: c.req.query('disposition'),
      language: c.req.query('language'),
      agent_id: c.req.query('agent_id'),
      from: c.req.query('from'),
      to: c.req.query('to'),
    };
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    // Dates are the viewer's local days; the API takes instants.
    // A value that is no local day goes to the API as it is, which refuses it (the page shows why) rather than
    // listing every call as if no date had been given.
    const from = query.from ? (isCalendarDay(query.from) ? startOfLocalDate(query.from, zone).toISOString() : query.from) : undefined;
    const to = query.to ? (isCalendarDay(query.to) ? new Date(startOfLocalDate(addDays(query.to, 1), zone).getTime() - 1).toISOString() : query.to) : undefined;
    const [result, agents] = await Promise.all([
      c.get('api').get<{ data: CallListItem[]; total: number; limit: number; offset: number }>('/calls', { ...query, from, to, offset, limit: 25 }),
      c.get('api').get<{ data: Array<{ id: string; name: string }> }>('/agents', { limit: 100 }),
    ]);
    const filtered = Object.values(query).some(Boolean);
    return c.html(
      <Layout title="Calls" viewer={viewer} path="/calls">
        <form class="filters" method="get" action="/calls" {...inPlace('/calls')}>
          <div><label for="f-campaign">Campaign id</label><input id="f-campaign" name="campaign_id" value={query.campaign_id ?? ''} size={18} /></div>
          <div>
            <label for="f-disposition">Disposition</label>
            <select id="f-disposition" name="disposition">
              <option value="">Any</option>
              {DISPOSITIONS.map((value) => <option value={value} selected={query.disposition === value}>{value.replaceAll('_', ' ')}</option>)}
            </select>
          </div>
          <div>
            <label for="f-language">Language</label>
            <select id="f-language" name="language">
              <option value="">Any</option>
              {SUPPORTED_LANGUAGES.map((value) => <option value={value} selected={query.language === value}>{value}</option>)}
            </select>
          </div>
          {agents.ok && agents.body.data.length > 0 ? (
            <div>
              <label for="f-agent">Agent</label>
              <select id="f-agent" name="agent_id">
                <option value="">Any</option>
                {agents.body.data.map((agent) => <option value={agent.id} selected={query.agent_id === agent.id}>{agent.name}</option>)}
              </select>
            </div>
          ) : null}
          <div><label for="f-from">From ({zone})</label><input id="f-from" name="from" type="date" value={query.from ?? ''} /></div>
          <div><label for="f-to">To</label><input id="f-to" name="to" type="date" value={query.to ?? ''} /></div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <ErrorBox error={result.ok ? undefined : result.error} />
        {result.ok && result.body.total === 0 ? (
          <Empty>
            <p>{filtered ? 'No call matches these filters.' : 'No calls yet.'}</p>
            <p>Calls appear here when a <a href="/campaigns">campaign</a> runs or a call is placed through the API (POST /v1/calls).</p>
          </Empty>
        ) : result.ok ? (
          <>
            <CallTable calls={result.body.data} zone={zone} />
            <Pager path="/calls" query={query} total={result.body.total} limit={result.body.limit} offset={result.body.offset} />
            <ZoneNote zone={zone} />
          </>
        ) : null}
      </Layout>,
    );
  });

  app.get('/calls/:id/recording', async (c) => {
    const recording = await c.get('api').recording(c.req.param('id'), c.req.header('range'));
    if (!recording) throw new ApiCallError(404, { code: 'resource_not_found', message: 'This call has no recording.', details: {} });
    return recording;
  });

  app.get('/calls/:id', async (c) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const id = encodeURIComponent(c.req.param('id'));
    const call = unwrap(await api.get<Call>(`/calls/${id}`));
    const transcript = call.answered_at ? await api.get<CallTranscript>(`/calls/${id}/transcript`) : undefined;
    const analysis = transcript?.ok && transcript.body.status === 'completed' && call.transcript_job_id ? await api.get<Job>(`/transcription/${encodeURIComponent(call.transcript_job_id)}`) : undefined;
    const job = analysis?.ok ? analysis.body : undefined;
    const compliance = call.answered_at ? await api.get<ComplianceAnswer>('/analytics/compliance', { call_id: call.id }) : undefined;
    // The campaign by its name, as an operator knows it (the id alone told them nothing); the id if it cannot be read.
    const campaign = call.campaign_id ? await api.get<{ name: string }>(`/campaigns/${encodeURIComponent(call.campaign_id)}`) : undefined;
    const startAt = Math.max(0, Number(c.req.query('t') ?? 0) || 0);
    const segments = transcript?.ok ? transcript.body.transcript ?? [] : [];
    return c.html(
      <Layout title={`Call with ${call.contact.name}`} viewer={viewer} path="/calls">
        <dl class="facts card">
          <dt>Phone</dt><dd>{call.contact.phone}</dd>
          <dt>Status</dt><dd><Badge value={call.status} /> <Badge value={call.disposition} />{call.failure_reason ? ` (${call.failure_reason.replaceAll('_', ' ')})` : ''}</dd>
          <dt>Campaign</dt><dd data-testid="campaign">{call.campaign_id ? <a href={`/campaigns/${call.campaign_id}`}>{campaign?.ok ? campaign.body.name : call.campaign_id}</a> : 'single call'}{call.attempt ? `, attempt ${call.attempt}` : ''}</dd>
          <dt>Started</dt><dd><Time at={call.started_at} zone={viewer.timeZone} withZone /></dd>
          <dt>Duration</dt><dd>{secondsLabel(call.duration_seconds)}</dd>
          <dt>Language</dt><dd>{call.language}</dd>
          {call.agent_id ? <><dt>Agent</dt><dd><a href={`/agents/${call.agent_id}`}>{call.agent_id}</a></dd></> : null}
          {call.escalation ? <><dt>Escalated</dt><dd>{call.escalation.summary}</dd></> : null}
        </dl>
        <div class="split">
          <section class="card" aria-labelledby="rec-h">
            <h2 id="rec-h">Recording and transcript</h2>
            {call.recording_url ? (
              <audio controls preload="metadata" src={recordingPath(call.id)} data-transcript="transcript" data-start-at={String(startAt)}>
                Your browser cannot play the recording; <a href={recordingPath(call.id)}>download it</a>.
              </audio>
            ) : (
              <p class="muted">No recording: {call.answered_at ? 'recording was off for this call.' : 'the call was not answered.'}</p>
            )}
            {transcript === undefined ? null : !transcript.ok ? (
              <p class="muted">{transcript.error.message}</p>
            ) : transcript.body.status === 'processing' ? (
              <p class="muted">The conversation is being analysed; reload in a moment.</p>
            ) : transcript.body.status === 'failed' ? (
              <p class="flash flash-error">Analysis failed: {transcript.body.error?.message}</p>
            ) : (
              <ol id="transcript" class="transcript" aria-label="Transcript; choose a line to play from there">
                {segments.map((segment) => (
                  <li data-start={String(segment.start_time)} data-end={String(segment.end_time)} class={startAt >= segment.start_time && startAt < segment.end_time ? 'playing' : undefined}>
                    <button type="button">
                      <span class="at">{secondsLabel(segment.start_time)}</span>
                      <span class="speaker">{segment.speaker}</span>
                      <span lang={call.language}>{segment.text}</span>
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="card" aria-labelledby="analysis-h">
            <h2 id="analysis-h">Analysis</h2>
            {transcript?.ok && transcript.body.status === 'completed' ? (
              <>
                <h3 class="small muted">Summary</h3>
                <p lang={call.language}>{transcript.body.summary ?? '—'}</p>
                <dl class="facts">
                  <dt>Sentiment</dt>
                  <dd>{transcript.body.sentiment ? <><Badge value={sentimentWord(transcript.body.sentiment.overall)} /> {transcript.body.sentiment.overall.toFixed(2)}</> : '—'}</dd>
                  {transcript.body.sentiment ? Object.entries(transcript.body.sentiment.by_speaker).map(([speaker, score]) => <><dt>… {speaker}</dt><dd>{score.toFixed(2)}</dd></>) : null}
                  <dt>Intent</dt><dd>{job?.intent ?? '—'}</dd>
                </dl>
                <h3 class="small muted">QA</h3>
                {job?.qa_score ? (
                  <>
                    <p><strong>{Math.round(job.qa_score.overall_score)} / 100</strong> <Badge value={job.qa_score.passed ? 'passed' : 'failed'} /> (pass mark {job.qa_score.pass_threshold})</p>
                    <table>
                      <thead><tr><th scope="col">Parameter</th><th scope="col">Score</th><th scope="col">Result</th></tr></thead>
                      <tbody>
                        {job.qa_score.parameter_scores.map((score) => <tr><td>{score.parameter_name}</td><td>{score.score} / {score.max_score}</td><td><Badge value={score.passed ? 'passed' : 'failed'} /></td></tr>)}
                      </tbody>
                    </table>
                  </>
                ) : <p class="muted">Not scored (no QA scorecard applied to this call).</p>}
              </>
            ) : <Empty><p>Analysis appears here once an answered call has been transcribed.</p></Empty>}
            <ComplianceSection answer={compliance} canSeek={Boolean(call.recording_url)} language={call.language} />
          </section>
        </div>
      </Layout>,
    );
  });
}

/** The call's compliance result: score, checks passed, each violation with its evidence (which seeks the audio). */
function ComplianceSection({ answer, canSeek, language }: { answer: ApiResult<ComplianceAnswer> | undefined; canSeek: boolean; language: string }) {
  const heading = <h3 class="small muted" id="compliance-h">Compliance</h3>;
  if (!answer) return <section aria-labelledby="compliance-h">{heading}<p class="muted">Not applicable: the call was not answered.</p></section>;
  if (!answer.ok) return <section aria-labelledby="compliance-h">{heading}<p class="muted">{answer.error.message}</p></section>;
  const result = answer.body;
  if (result.status !== undefined) {
    const text =
      result.status === 'processing' ? 'Not evaluated yet; reload in a moment.' : result.status === 'not_applicable' ? 'Not applicable: the call ended without a conversation.' : `Evaluation failed: ${result.error?.message ?? 'unknown error'}`;
    return <section aria-labelledby="compliance-h">{heading}<p class="muted">{text}</p></section>;
  }
  return (
    <section aria-labelledby="compliance-h" data-testid="compliance">
      {heading}
      <p>
        <strong data-testid="compliance-score">{Math.round(result.compliance_score)} / 100</strong>{' '}
        <Badge value={result.violations.some((violation) => violation.severity === 'critical') ? 'failed' : 'passed'} />{' '}
        <span class="muted small">
          under {result.rule_packs.map((pack) => `${pack.id} ${pack.version}`).join(', ') || 'no pack'}; judged by {result.classifier ?? 'the rules alone'}
        </span>
      </p>
      {result.violations.length === 0 ? (
        <p>No violation.</p>
      ) : (
        <ul class="violations">
          {result.violations.map((violation) => (
            <li>
              <Badge value={violation.severity} /> <strong>{violation.check.replaceAll('_', ' ')}</strong> <span class="muted small">({violation.rule_pack.id})</span>
              <div>{violation.description}</div>
              {violation.evidence ? (
                <blockquote>
                  {canSeek ? (
                    <button type="button" class="link" data-seek={String(violation.evidence.start_time)} aria-label={`Play from ${secondsLabel(violation.evidence.start_time)}`}>
                      {secondsLabel(violation.evidence.start_time)}
                    </button>
                  ) : (
                    <span class="at">{secondsLabel(violation.evidence.start_time)}</span>
                  )}{' '}
                  <span class="speaker">{violation.evidence.speaker}</span>: <span lang={language}>{violation.evidence.text}</span>
                </blockquote>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {result.passed_checks.length ? (
        <details>
          <summary>{result.passed_checks.length} checks passed</summary>
          <ul class="small">{result.passed_checks.map((check) => <li>{check.replaceAll('_', ' ')}</li>)}</ul>
        </details>
      ) : null}
    </section>
  );
}

