import { z } from '@hono/zod-openapi';
import { AGENT_STATUSES, MAX_AGENT_LANGUAGES, MAX_AGENT_NAME_LENGTH } from '../../domain/agent.ts';
import { Timestamp, listEnvelope, PaginationQuery } from './common.ts';

/**
 * Human agents. The body schemas take shapes only; the rules (supported languages, E.164, a way to reach the
 * agent) are the agent decider's, so an update is checked against the whole profile it produces.
 */
const AgentStatus = z.enum(AGENT_STATUSES).openapi({ description: '`available` agents receive escalated calls; `offline` ones do not.' });

const profileFields = {
  name: z.string().openapi({ description: `1 to ${MAX_AGENT_NAME_LENGTH} characters.`, example: 'Asha Patil' }),
  languages: z
    .array(z.string())
    .openapi({ description: `The languages the agent speaks (BCP-47, supported ones, 1 to ${MAX_AGENT_LANGUAGES}); escalations match by language subtag.`, example: ['hi-IN', 'mr-IN'] }),
  phone: z.string().nullable().openapi({ description: 'E.164; a phone and/or a SIP URI is required.', example: '+919812345678' }),
  sip_uri: z.string().nullable().openapi({ description: 'A SIP URI (sip: or sips:).', example: 'sip:asha@pbx.example.com' }),
  status: AgentStatus,
};

export const CreateAgentBody = z
  .strictObject({
    ...profileFields,
    phone: profileFields.phone.optional(),
    sip_uri: profileFields.sip_uri.optional(),
    status: AgentStatus.optional().openapi({ description: 'Default `available`.' }),
  })
  .openapi('CreateAgent');

export const UpdateAgentBody = z
  .strictObject({
    name: profileFields.name.optional(),
    languages: profileFields.languages.optional(),
    phone: profileFields.phone.optional(),
    sip_uri: profileFields.sip_uri.optional(),
    status: AgentStatus.optional(),
  })
  .openapi('UpdateAgent');

export const AgentSchema = z
  .object({
    id: z.string().openapi({ example: 'agt_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    ...profileFields,
    created_at: Timestamp,
    updated_at: Timestamp,
    last_assigned_at: Timestamp.nullable().openapi({ description: 'When the agent was last given an escalated call.' }),
  })
  .openapi('Agent');

export const AgentListSchema = listEnvelope(AgentSchema, 'AgentList');

export const AgentListQuery = PaginationQuery.extend({ status: AgentStatus.optional() });

export const DeletedAgentSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedAgent');
