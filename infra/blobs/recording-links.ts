import type { Clock } from '../clock/port.ts';
import type { UrlSigner } from '../crypto/signed-url.ts';

/** How long a recording URL works after it is handed out (the spec: one hour). */
export const RECORDING_URL_VALIDITY_MS = 60 * 60 * 1000;

/** The path a call's recording is served at (GET /v1/recordings/{call_id}); what the URL signature covers. */
export function recordingPath(callId: string): string {
  return `/v1/recordings/${encodeURIComponent(callId)}`;
}

export type RecordingLinkVerdict = 'valid' | 'expired' | 'invalid';

/** The port: who builds call documents signs links; the public recordings route checks them. */
export interface RecordingLinks {
  urlFor(callId: string, blobKey: string | null): string | null;
  verify(callId: string, expires: string | undefined, signature: string | undefined): RecordingLinkVerdict;
}

/**
 * The signed `recording_url` of calls: valid one hour from when it is handed out (the service clock). Every reader
 * of a call (GET /v1/calls/{id}, webhook payloads) signs a fresh URL when it builds its document, and the public
 * recordings route checks it. The blob key itself is not in the URL: the route looks the recording up by call id,
 * so a URL can never name another object.
 */
export class SignedRecordingLinks implements RecordingLinks {
  constructor(
    private readonly options: {
      signer: UrlSigner;
      clock: Clock;
      /** Where clients reach this server (publicBaseUrl in infra/config.ts). */
      baseUrl: string;
    },
  ) {}

  /** The URL of the call's stored recording, or null when it has none (recording off, or not answered). */
  urlFor(callId: string, blobKey: string | null): string | null {
    if (blobKey === null) return null;
    const path = recordingPath(callId);
    const expiresAt = new Date(this.options.clock.now().getTime() + RECORDING_URL_VALIDITY_MS);
    return `${this.options.baseUrl}${path}?${this.options.signer.sign(path, expiresAt)}`;
  }

  /** Whether a request for the call's recording carries a valid, unexpired signature. */
  verify(callId: string, expires: string | undefined, signature: string | undefined): RecordingLinkVerdict {
    return this.options.signer.verify(recordingPath(callId), expires, signature, this.options.clock.now());
  }
}
