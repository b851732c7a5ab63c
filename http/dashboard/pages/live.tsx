import type { Database } from 'better-sqlite3';
import type { Clock } from '../../../infra/clock/port.ts';
import { callsInProgress, listCalls, type LiveCall } from '../../../projections/calls.ts';
import { liveFragments } from '../live-stream.ts';
import { Badge, Empty, Layout, Time, ZoneNote } from '../view.tsx';
import { CallTable } from './calls.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

/** Calls in progress shown at most (the count above the table is exact). */
export const LIVE_CALLS_SHOWN = 50;
/** The latest calls placed, shown under those in progress. */
export const RECENT_CALLS_SHOWN = 10;

/**
 * Live call activity of the workspace: the calls ringing or in conversation now and the latest calls placed,
 * updated over Server-Sent Events by the same stream as a campaign's progress (live-stream.ts). Like that stream it
 * reads the calls read model directly (what GET /v1/calls answers from), once a second, within the session's
 * workspace only, so an open page does not spend the rate limit; the page's first render is the same fragment.
 */
export function livePages(app: DashboardApp, { clock, readDb }: PageDeps) {
  app.get('/live', async (c) => {
    const viewer = c.get('viewer');
    return c.html(
      <Layout title="Live calls" viewer={viewer} path="/live">
        <p class="muted small">Calls appear here as they are placed, ring, connect and end; the page updates by itself.</p>
        <div id="live-activity" aria-live="polite" data-live-progress="/live/stream">
          <Activity db={readDb} clock={clock} workspaceId={viewer.workspaceId} zone={viewer.timeZone} />
        </div>
        <ZoneNote zone={viewer.timeZone} />
      </Layout>,
    );
  });

  app.get('/live/stream', (c) => {
    const { workspaceId } = c.get('principal');
    const zone = c.get('viewer').timeZone;
    return liveFragments(c, async () => ({ html: String(await (<Activity db={readDb} clock={clock} workspaceId={workspaceId} zone={zone} />).toString()) }));
  });
}

function Activity({ db, clock, workspaceId, zone }: { db: Database; clock: Clock; workspaceId: string; zone: string }) {
  const live = callsInProgress(db, workspaceId, LIVE_CALLS_SHOWN);
  const recent = listCalls(db, workspaceId, {}, RECENT_CALLS_SHOWN, 0);
  const now = clock.now().getTime();
  const ringing = live.data.filter((call) => call.answered_at === null).length;
  return (
    <div>
      <div class="cards">
        <div class="metric" data-testid="in-progress"><div class="value">{live.total}</div><div class="label">Calls in progress</div></div>
        <div class="metric"><div class="value">{ringing}{live.total > live.data.length ? '+' : ''}</div><div class="label">Ringing</div></div>
      </div>
      <h2>In progress</h2>
      {live.total === 0 ? <Empty><p>No call is in progress. Start a <a href="/campaigns">campaign</a> and its calls show here as they are placed.</p></Empty> : (
        <div class="table-wrap">
          <table class="responsive" data-testid="live-calls">
            <thead><tr><th scope="col">Contact</th><th scope="col">State</th><th scope="col">For</th><th scope="col">Language</th><th scope="col">Started</th></tr></thead>
            <tbody>
              {live.data.map((call) => (
                <tr>
                  <td data-label="Contact"><a href={`/calls/${call.id}`}>{call.contact.name}</a> <span class="muted small">{call.contact.phone}</span></td>
                  <td data-label="State"><Badge value={call.answered_at === null ? 'ringing' : 'connected'} /></td>
                  <td data-label="For">{elapsed(call, now)}</td>
                  <td data-label="Language">{call.language}</td>
                  <td data-label="Started"><Time at={call.started_at} zone={zone} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {live.total > live.data.length ? <p class="muted small">The newest {live.data.length} of {live.total} shown.</p> : null}
        </div>
      )}
      <h2>Latest calls placed</h2>
      {recent.total === 0 ? <p class="muted">No call yet.</p> : <CallTable calls={recent.data} zone={zone} />}
    </div>
  );
}

/** How long the call has rung, or talked since it was answered (whole seconds, on the service clock). */
function elapsed(call: LiveCall, nowMs: number): string {
  const since = Date.parse(call.answered_at ?? call.started_at);
  const seconds = Math.max(0, Math.round((nowMs - since) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
