import type { Principal } from '../context.ts';
import { internalRequest } from '../internal-caller.ts';

/** The API's answer: the JSON body and status, or the spec's error envelope. */
export type ApiResult<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; error: { code: string; message: string; details: Record<string, unknown> } };

export type ApiFetch = (request: Request) => Response | Promise<Response>;

const ORIGIN = 'http://in-process';

/**
 * The API as the dashboard's pages use it: in-process requests through the whole API chain on behalf of the
 * session's key (see internal-caller.ts). Pages hold no business logic: every read and write is an API operation.
 */
export class ApiClient {
  constructor(
    private readonly fetchApi: ApiFetch,
    private readonly principal: Principal,
  ) {}

  get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<ApiResult<T>> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
    const search = params.size ? `?${params}` : '';
    return this.send<T>('GET', `${path}${search}`);
  }

  /** A write; `idempotencyKey` (POST) makes a form submitted twice act once. */
  send<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<ApiResult<T>> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey && method === 'POST') headers['idempotency-key'] = idempotencyKey;
    const request = internalRequest(this.principal, `${ORIGIN}/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return Promise.resolve(this.fetchApi(request)).then(async (response) => {
      const text = await response.text();
      const parsed = text ? (JSON.parse(text) as unknown) : null;
      if (response.ok) return { ok: true, status: response.status, body: parsed as T };
      const error = (parsed as { error?: { code: string; message: string; details?: Record<string, unknown> } } | null)?.error;
      return {
        ok: false,
        status: response.status,
        error: { code: error?.code ?? 'internal_error', message: error?.message ?? `HTTP ${response.status}`, details: error?.details ?? {} },
      };
    });
  }

  /**
   * A call's recording as the API's signed link serves it (a single `Range` passed on, 206 answered as is), signed
   * afresh for each request: an audio player on a page left open past the link's hour still plays and seeks.
   * Undefined when the call has no recording; the call's refusals (scope, another workspace's call) throw as `unwrap`.
   */
  async recording(callId: string, range: string | undefined): Promise<Response | undefined> {
    const call = unwrap(await this.get<{ recording_url: string | null }>(`/calls/${encodeURIComponent(callId)}`));
    if (!call.recording_url) return undefined;
    const signed = new URL(call.recording_url);
    return this.fetchApi(new Request(`${ORIGIN}${signed.pathname}${signed.search}`, { headers: range ? { range } : {} }));
  }
}

/** The body of a successful answer, or an Error with the API's message (a page shows it). */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.ok) return result.body;
  throw new ApiCallError(result.status, result.error);
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly error: { code: string; message: string; details: Record<string, unknown> },
  ) {
    super(error.message);
    this.name = 'ApiCallError';
  }
}
