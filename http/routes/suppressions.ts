import { E164_DESCRIPTION, isE164 } from '../../domain/shared/phone.ts';
import { suppressionDecider, suppressionStream, type SuppressionState } from '../../domain/suppression.ts';
import { findSuppression, listSuppressions, type SuppressionDocument } from '../../projections/suppressions.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { invalidParameter, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import { PaginationQuery } from '../schemas/common.ts';
import { PhoneParams, SuppressNumberBody, SuppressionListSchema, SuppressionSchema, UnsuppressedSchema } from '../schemas/suppression.ts';
import type { ResourcePorts } from '../ports.ts';

const TAG = 'Suppressions';
const suppressionJson = { 'application/json': { schema: SuppressionSchema } };

const listRoute = defineRoute({
  method: 'get',
  path: '/suppressions',
  operationId: 'listSuppressions',
  tags: [TAG],
  summary: 'List the do-not-call numbers',
  description: 'The workspace\'s do-not-call list, most recently added first. No campaign dials these numbers and POST /v1/calls refuses them.',
  request: { query: PaginationQuery },
  responses: { 200: { description: 'A page of numbers.', content: { 'application/json': { schema: SuppressionListSchema } } } },
});

const getRoute = defineRoute({
  method: 'get',
  path: '/suppressions/{phone}',
  operationId: 'getSuppression',
  tags: [TAG],
  summary: 'Whether a number is on the do-not-call list',
  description: 'The entry, or 404 `resource_not_found` (`resource_type: suppressed_number`).',
  request: { params: PhoneParams },
  responses: { 200: { description: 'The entry.', content: suppressionJson } },
});

const addRoute = defineRoute({
  method: 'post',
  path: '/suppressions',
  operationId: 'createSuppression',
  tags: [TAG],
  summary: 'Add a number to the do-not-call list',
  description: '201 with the entry; a number already listed answers 200 with its existing entry (unchanged).',
  request: { body: { content: { 'application/json': { schema: SuppressNumberBody } }, required: true } },
  responses: {
    201: { description: 'Added.', content: suppressionJson },
    200: { description: 'Already on the list.', content: suppressionJson },
  },
});

const removeRoute = defineRoute({
  method: 'delete',
  path: '/suppressions/{phone}',
  operationId: 'deleteSuppression',
  tags: [TAG],
  summary: 'Take a number off the do-not-call list',
  description: 'Campaigns created or running afterwards may dial it again. 404 when it is not listed.',
  request: { params: PhoneParams },
  responses: { 200: { description: 'Removed.', content: { 'application/json': { schema: UnsuppressedSchema } } } },
});

/** A phone from the path: decoded by the router; E.164 or 400 on `phone`. */
function phoneParam(phone: string): string {
  if (!isE164(phone)) throw invalidParameter('phone', phone, `${E164_DESCRIPTION}, URL-encoded (%2B for +)`);
  return phone;
}

/** The entry from the aggregate when the read model does not have it yet. */
function entryFromState(state: SuppressionState, phone: string): SuppressionDocument {
  const entry = state.numbers.get(phone)!;
  return { phone, source: entry.source, reason: null, call_id: null, suppressed_at: entry.suppressed_at };
}

export function suppressionRoutes({ commands, clock, readDb, readYourWrites }: ResourcePorts) {
  const router = createRouter();

  router.openapi(listRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const page = c.req.valid('query');
    const { data, total } = listSuppressions(readDb, workspaceId, page.limit, page.offset);
    return c.json(listBody(data, total, page), 200);
  });

  router.openapi(getRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const phone = phoneParam(c.req.valid('param').phone);
    const entry = findSuppression(readDb, workspaceId, phone);
    if (!entry) throw resourceNotFound('suppressed_number', phone);
    return c.json(entry, 200);
  });

  router.openapi(addRoute, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { phone, reason } = c.req.valid('json');
    if (!isE164(phone)) throw invalidParameter('phone', phone, E164_DESCRIPTION);
    const now = clock.now();
    const result = await commands.handle(
      suppressionDecider,
      suppressionStream(workspaceId),
      { type: 'SuppressNumber', data: { phone, source: 'api', reason: reason ?? null, at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    const entry = findSuppression(readDb, workspaceId, phone) ?? entryFromState(result.state, phone);
    return c.json(entry, result.events.length > 0 ? 201 : 200);
  });

  router.openapi(removeRoute, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const phone = phoneParam(c.req.valid('param').phone);
    const now = clock.now();
    const result = await commands.handle(
      suppressionDecider,
      suppressionStream(workspaceId),
      { type: 'UnsuppressNumber', data: { phone, at: now.toISOString() } },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json({ phone, deleted: true as const }, 200);
  });

  return router;
}
