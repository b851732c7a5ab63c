/**
 * The document's top-level `tags`, one per group of operations, in the order the reference page shows them. A
 * route's `tags` must name one of these (tests/http/openapi.test.ts; the linters warn about undeclared tags).
 */
export const API_TAGS = [
  { name: 'Campaigns', description: 'A contact list dialed with a script, a language and an optional schedule; start, pause, resume, stop.' },
  { name: 'Calls', description: 'Call records of campaigns and single calls, their transcripts and their recordings.' },
  { name: 'Scripts', description: 'The conversation a call follows: a versioned graph of steps, replies and dispositions.' },
  { name: 'Suppressions', description: 'The workspace\'s do-not-call list: numbers that are never dialed.' },
  { name: 'Transcription', description: 'Asynchronous jobs turning a recording (or a submitted transcript) into a transcript, summary, sentiment, intent and QA score.' },
  { name: 'QA scorecards', description: 'The checks and weights a transcript is scored against.' },
  { name: 'Agents', description: 'Human agents: who takes over escalated calls in the languages they speak, and who places calls by hand.' },
  { name: 'Analytics', description: 'Call and QA figures over a range (from read-model rollups), and full-text search of every transcript.' },
  { name: 'Compliance', description: 'Indian calling rules as versioned rule packs: which apply to the workspace, enforced before each dial and checked after each call (docs/compliance.md).' },
  { name: 'Workspace', description: "The key's workspace: its limits and its analysis defaults." },
  { name: 'Webhooks', description: 'HTTPS endpoints notified of calls, campaigns and transcription jobs (the payloads are under `webhooks`), and their delivery log.' },
  { name: 'API keys', description: 'The workspace\'s API keys (Admin keys only).' },
  { name: 'Sandbox', description: 'Test helpers, present only on a server running with `CLOCK=manual`.' },
  { name: 'Operations', description: 'Liveness, readiness and metrics, outside `/v1` and without an API key.' },
  { name: 'Reference', description: 'This document and its rendering.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];
