/**
 * Upcasting: the one place where events recorded under an older shape are brought to the shape their type has
 * today, before anything reads them (deciders folding a stream, projections, process managers). The event store
 * applies `upcast` to every event it returns (infra/eventstore/upcasting.ts); stored events are never rewritten,
 * so an auditor reading raw streams (`cli streams read`) still sees exactly what was recorded.
 *
 * When an event type changes shape:
 * 1. write the new shape in the module's event type and bump `CURRENT_SCHEMA_VERSION` if the change is not
 *    backwards compatible (new events carry it in `metadata.schema_version`);
 * 2. add an upcaster here for the type: it receives the stored `data` and the `schema_version` it was recorded
 *    under and returns data of the current shape (pure; no I/O, no clock);
 * 3. add a case to tests/domain/upcasters.test.ts with a stored old event.
 * Readers then handle one shape only.
 */
export const CURRENT_SCHEMA_VERSION = 1;

type Upcaster = (data: Record<string, unknown>, schemaVersion: number) => Record<string, unknown>;

const UPCASTERS: Readonly<Record<string, Upcaster>> = {
  // Campaigns created before QA scorecards could be named on them (2026-11) name none.
  // ... and before campaigns had a purpose (issue 14, 2026-11) are service campaigns.
  CampaignCreated: (data) => {
    let upcast = data;
    if (upcast.qa_scorecard_id === undefined) upcast = { ...upcast, qa_scorecard_id: null };
    if (upcast.purpose === undefined) upcast = { ...upcast, purpose: 'service' };
    return upcast;
  },
  // Calls placed before calls had a purpose (issue 14, 2026-11) were service calls.
  CallPlaced: (data) => (data.purpose === undefined ? { ...data, purpose: 'service' } : data),
  // Escalations recorded before human agents existed (2026-11) name none.
  CallEscalated: (data) => (data.agent_id === undefined ? { ...data, agent_id: null, unassigned_reason: null } : data),
  // Registrations recorded before webhook secrets were sealed (2026-11) carry the secret in plain text and no flag.
  WebhookRegistered: (data) => (data.secret_sealed === undefined ? { ...data, secret_sealed: false } : data),
};

/**
 * The event with `data` in its type's current shape; the same object when nothing needed to change. An event whose
 * `data` is parsed only when read (the event store's) stays so: the upcaster runs at the first read, not before,
 * since a 20,000-contact CampaignCreated is read by every follower and most of them only look at its type.
 */
export function upcast<Event extends { type: string; data: Record<string, unknown>; metadata: { schema_version: number } }>(event: Event): Event {
  const upcaster = UPCASTERS[event.type];
  if (upcaster === undefined) return event;
  if (Object.getOwnPropertyDescriptor(event, 'data')?.get === undefined) {
    const data = upcaster(event.data, event.metadata.schema_version);
    return data === event.data ? event : { ...event, data };
  }
  let upcasted: Record<string, unknown> | undefined;
  // Copies the other fields as they are (a getter stays a getter: nothing is parsed here).
  const descriptors = Object.getOwnPropertyDescriptors(event);
  return Object.defineProperties({} as Event, {
    ...descriptors,
    data: {
      enumerable: true,
      configurable: true,
      get: () => (upcasted ??= upcaster(event.data, event.metadata.schema_version)),
    },
  });
}
