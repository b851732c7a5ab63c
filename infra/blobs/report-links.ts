import type { Clock } from '../clock/port.ts';
import type { UrlSigner } from '../crypto/signed-url.ts';

/** How long a report's download_url works after GET /v1/reports/{id} hands it out. */
export const REPORT_URL_VALIDITY_MS = 60 * 60 * 1000;
/** How long the link in a report e-mail works (a file too large to attach). */
export const REPORT_EMAIL_LINK_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/** The path a run's file is served at; what the signature covers. */
export function reportFilePath(runId: string): string {
  return `/v1/report-files/${encodeURIComponent(runId)}`;
}

/**
 * Signed download URLs of report files, like recording URLs (recording-links.ts): the run id is in the path, the
 * blob key never is, so a URL names one run's file and nothing else.
 */
export class ReportLinks {
  constructor(private readonly options: { signer: UrlSigner; clock: Clock; baseUrl: string }) {}

  urlFor(runId: string, validityMs = REPORT_URL_VALIDITY_MS): { url: string; expires_at: string } {
    const path = reportFilePath(runId);
    const expiresAt = new Date(Math.floor((this.options.clock.now().getTime() + validityMs) / 1000) * 1000);
    return { url: `${this.options.baseUrl}${path}?${this.options.signer.sign(path, expiresAt)}`, expires_at: expiresAt.toISOString() };
  }

  verify(runId: string, expires: string | undefined, signature: string | undefined): 'valid' | 'expired' | 'invalid' {
    return this.options.signer.verify(reportFilePath(runId), expires, signature, this.options.clock.now());
  }
}
