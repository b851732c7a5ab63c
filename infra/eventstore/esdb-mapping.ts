import type { AppendExpectedRevision, EventData, ReadPosition, ResolvedEvent, AllStreamResolvedEvent } from '@eventstore/db-client';
import { esdbClient } from './esdb-client.ts';
import {
  WrongExpectedVersion,
  type EventMetadata,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
} from './port.ts';

/**
 * Pure translation between our event-store port and `@eventstore/db-client` 6.x, kept apart from the adapter
 * so it can be tested without a server.
 *
 * Positions: our `position` is the ESDB commit position (a byte offset in the transaction log) as a JS number.
 * Writes through the gRPC API are implicit transactions, so every event has its own commit position equal to
 * its prepare position; that is what lets one number stand for the client's `{commit, prepare}` pair. A JS
 * number is exact up to 2^53 (9 PB of log); past that we refuse (RangeError) rather than round silently.
 */

/** A client event read from a stream or from `$all` (the two shapes differ only in how sure `position` is). */
export type EsdbResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;

/** ESDB metadata as we store it: ours, plus the keys ESDB's own projections read. */
export type EsdbEventMetadata = EventMetadata & { $correlationId: string; $causationId?: string };

// Servers older than 22.6 send "no position" on stream reads as the all-ones u64 (or -1 once signed).
const NO_POSITION = (1n << 64n) - 1n;

export function bigintToNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${what} ${value} is beyond 2^53 and cannot be represented exactly as a number`);
  }
  return Number(value);
}

/** Our `after` (0 = from the beginning) as a client read position. Reads from it are inclusive: skip `after`. */
export function toReadPosition(after: number): ReadPosition {
  if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`invalid position ${after}`);
  if (after === 0) return esdbClient().START;
  const position = BigInt(after);
  return { commit: position, prepare: position };
}

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return 'no_stream';
    case 'any':
      return 'any';
    case 'stream_exists':
      return 'stream_exists';
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) throw new RangeError(`invalid expected revision ${expected}`);
      return BigInt(expected);
  }
}

export function toEsdbMetadata(metadata: EventMetadata): EsdbEventMetadata {
  const esdbMetadata: EsdbEventMetadata = { ...metadata, $correlationId: metadata.correlation_id };
  // ESDB's `$by_correlation_id` projection and the UI read these; a missing causation is left out, not null.
  if (metadata.causation_id !== null) esdbMetadata.$causationId = metadata.causation_id;
  return esdbMetadata;
}

export function toEsdbEvent(event: EventToAppend): EventData {
  return esdbClient().jsonEvent({
    // jsonEvent generates a uuid when id is undefined; passing our id keeps appends idempotent on retry.
    ...(event.id !== undefined ? { id: event.id } : {}),
    type: event.type,
    data: event.data,
    metadata: toEsdbMetadata(event.metadata),
  });
}

/** Streams and event types beginning with `$` belong to EventStoreDB itself (stats, projections, links, metadata). */
export function isSystemName(name: string): boolean {
  return name.startsWith('$');
}

/**
 * The recorded event behind a client event, or null when it is not one of ours to deliver: system events,
 * events outside `streamPrefix`, and unresolved links. `streamPrefix` is stripped from the stream name.
 */
export function toRecordedEvent(resolved: EsdbResolvedEvent, streamPrefix = ''): RecordedEvent | null {
  const event = resolved.event;
  if (!event) return null;
  if (isSystemName(event.streamId) || isSystemName(event.type)) return null;
  if (!event.streamId.startsWith(streamPrefix)) return null;
  return {
    id: event.id,
    stream: event.streamId.slice(streamPrefix.length),
    revision: bigintToNumber(event.revision, 'revision'),
    position: positionOf(resolved),
    type: event.type,
    data: toEventData(event.isJson, event.data),
    metadata: fromEsdbMetadata(event.metadata, event.id, event.created),
  };
}

/**
 * The commit position of a client event. The event's own position is preferred over `commitPosition`, which for
 * a resolved link is the link's. 0 when the server did not say (stream reads on servers before 22.6).
 */
export function positionOf(resolved: EsdbResolvedEvent): number {
  const commit = resolved.event?.position?.commit ?? resolved.commitPosition;
  if (commit === undefined || commit === NO_POSITION || commit < 0n) return 0;
  return bigintToNumber(commit, 'commit position');
}

/** Our data is always a JSON object; anything else (written by another tool) is wrapped so it still reads. */
export function toEventData(isJson: boolean, data: unknown): Record<string, unknown> {
  if (!isJson || data instanceof Uint8Array) {
    return { binary_base64: Buffer.from(data as Uint8Array).toString('base64') };
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
  return { value: data };
}

/**
 * Our metadata back from ESDB metadata: the `$`-keys ESDB reads are dropped. Events appended by another tool
 * lack some fields; they get neutral values (the event id as correlation, the server's time as occurred_at)
 * rather than failing every reader of `$all`.
 */
export function fromEsdbMetadata(raw: unknown, eventId: string, created: Date): EventMetadata {
  const source = raw !== null && typeof raw === 'object' && !(raw instanceof Uint8Array) && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)
    : {};
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    workspace_id: text(source.workspace_id),
    actor: text(source.actor) ?? 'unknown',
    correlation_id: text(source.correlation_id) ?? text(source.$correlationId) ?? eventId,
    causation_id: text(source.causation_id) ?? text(source.$causationId),
    occurred_at: text(source.occurred_at) ?? created.toISOString(),
    schema_version: typeof source.schema_version === 'number' ? source.schema_version : 1,
  };
}

function errorType(error: unknown): unknown {
  return error !== null && typeof error === 'object' ? (error as { type?: unknown }).type : undefined;
}

export function isStreamNotFound(error: unknown): boolean {
  return errorType(error) === esdbClient().ErrorType.STREAM_NOT_FOUND;
}

/**
 * The client's WrongExpectedVersionError as our WrongExpectedVersion (with our stream name, without the
 * prefix); any other error unchanged. `expected` is what we asked for, which the server echoes anyway.
 */
export function toAppendError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if (errorType(error) !== esdbClient().ErrorType.WRONG_EXPECTED_VERSION) return error;
  const actualVersion = (error as { actualVersion?: unknown }).actualVersion;
  const actual =
    typeof actualVersion === 'bigint' && actualVersion >= 0n ? bigintToNumber(actualVersion, 'revision') : 'no_stream';
  return new WrongExpectedVersion(stream, expected, actual);
}

/**
 * The stream a `$streams` link points at. The system projection writes one link per stream, to its first
 * event, with data `<eventNumber>@<stream>` (text, not JSON). Null for anything else.
 */
export function streamOfLink(resolved: EsdbResolvedEvent): string | null {
  const link = resolved.link ?? resolved.event;
  if (!link || link.type !== '$>') return null;
  const text = link.data instanceof Uint8Array ? Buffer.from(link.data).toString('utf8') : String(link.data);
  const at = text.indexOf('@');
  return at < 0 ? null : text.slice(at + 1);
}
