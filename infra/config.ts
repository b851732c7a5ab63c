import { z } from 'zod';
import { resolve } from 'node:path';
import { isIP } from 'node:net';
import { isPublicAddress } from './outbound/address-policy.ts';

/**
 * Every environment variable the service reads, validated once at start. The README's configuration table
 * lists the same names; keep the two together.
 */
const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const configSchema = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EVENTSTORE_URL: z.string().regex(/^esdb(\+discover)?:\/\//, 'an esdb:// connection string').optional(),
  EVENTSTORE_SYNC: z.enum(['full', 'normal']).default('full'),
  /** The embedded store's file (default DATA_DIR/events.db): several nodes, each with its own DATA_DIR, may share one. */
  EVENTSTORE_FILE: z.string().min(1).optional(),
  /** Several nodes on one event store: singleton work runs only on the holder of the leader lease (docs/operations.md). */
  CLUSTER: booleanString.default(false),
  /** This node's name (default: generated once and kept in DATA_DIR/node-id). */
  NODE_ID: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, '1-64 letters, digits, dots, dashes or underscores').optional(),
  /** `all`: API and leader candidate; `api`: API only, never leads; `worker`: leader candidate, no API (only /health, /ready, /metrics). */
  NODE_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** How long a leader lease lasts without renewal (CLUSTER=true); renewed every third of it. */
  LEADER_LEASE_MS: z.coerce.number().int().min(1_000).max(120_000).default(6_000),
  CLOCK: z.enum(['system', 'manual']).default('system'),
  CLOCK_START: z.string().datetime({ offset: true }).optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ALLOW_PRIVATE_TARGETS: booleanString.default(false),
  TELEPHONY: z.enum(['sandbox', 'sip']).default('sandbox'),
  /** The SIP trunk (TELEPHONY=sip): `host[:port]`, an IP literal or a name; port 5060 by default. */
  SIP_TRUNK: z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'host[:port], e.g. sip.example.net:5060').optional(),
  SIP_TRANSPORT: z.enum(['udp', 'tcp']).default('udp'),
  SIP_USERNAME: z.string().min(1).max(128).optional(),
  SIP_PASSWORD: z.string().min(1).max(256).optional(),
  SIP_REGISTER: booleanString.default(false),
  SIP_CALLER_ID: z.string().regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number, e.g. +911140000000').optional(),
  SIP_LOCAL_ADDRESS: z.string().refine((value) => isIP(value) !== 0, 'an IP address (IPv4 or IPv6 literal) of this host').optional(),
  SIP_LOCAL_PORT: z.coerce.number().int().min(1).max(65535).default(5060),
  RTP_PORT_RANGE: z
    .string()
    .regex(/^\d{4,5}-\d{4,5}$/, 'LOW-HIGH, e.g. 10000-20000')
    .refine((value) => {
      const [low, high] = value.split('-').map(Number) as [number, number];
      return low >= 1024 && high <= 65535 && high - low >= 1;
    }, 'LOW-HIGH within 1024-65535 with LOW below HIGH')
    .default('10000-20000'),
  RING_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(300).default(30),
  /** New calls per second sent to the trunk (trunks refuse bursts above their contract). */
  SIP_MAX_CPS: z.coerce.number().positive().max(1000).default(10),
  SIP_AMD: booleanString.default(true),
  /**
   * SCHED_RR priority of the SIP media thread (infra/telephony/sip/media-thread.ts), 1-99, or 0 for none. Needs root
   * or CAP_SYS_NICE; refused, the thread runs at MEDIA_THREAD_NICE. Measured with bench:sip on the loaded 2 cores:
   * send timing p99 ≤ 5 ms in 8 of 14 runs real-time (0.1-20 ms), 11-26 ms without (docs/telephony.md).
   */
  MEDIA_THREAD_REALTIME_PRIORITY: z.coerce.number().int().min(0).max(99).default(10),
  /**
   * The nice value of the SIP media thread when it is not real-time, -20 to 19 (below 0 needs root or CAP_SYS_NICE;
   * refused, 0). Default 0: measured, -10 did not lower the send timing p99 (docs/telephony.md).
   */
  MEDIA_THREAD_NICE: z.coerce.number().int().min(-20).max(19).default(0),
  SIP_TRANSFER_ANSWER_SECONDS: z.coerce.number().int().min(5).max(120).default(20),
  /** The pause that ends a customer's spoken answer on a SIP call, in ms (utterance-detector.ts; docs/telephony.md, "Latency"). */
  SIP_END_OF_UTTERANCE_MS: z.coerce.number().int().min(200).max(3000).default(500),
  /** The sandbox's calls end this many times faster than real time on the clock (1: real time). */
  SANDBOX_SPEED: z.coerce.number().min(1).max(1e9).default(1),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Worker threads that analyse transcripts (summary, sentiment, intent, QA); default: cores - 1, at least 1. */
  ANALYSIS_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  PROJECTION_THREAD: booleanString.default(true),
  /**
   * The nice value of the analysis threads (Linux; infra/worker-threads/background-priority.ts). Default 0: measured,
   * 10 did not lower bench:isolation's API p99 and tripled B's job p99 (jobs are what users wait for).
   */
  ANALYSIS_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(0),
  /**
   * The nice value of the report threads. Default 10: measured with bench:reports, the API's p99 while PDFs generate
   * went from 1.8-2.3x its idle p99 to 1.0-1.1x, and a report's minutes are not what anyone waits on.
   */
  REPORT_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** How long the analysis of one transcript may run before it is stopped (`analysis_budget_exceeded`). */
  ANALYSIS_BUDGET_SECONDS: z.coerce.number().positive().max(3600).default(60),
  /** Worker threads that run transcript searches (GET /v1/analytics/search) off the event loop. */
  SEARCH_THREADS: z.coerce.number().int().min(1).max(64).default(1),
  /** How long one transcript search may run before it is stopped (`search_budget_exceeded`). */
  SEARCH_BUDGET_MS: z.coerce.number().int().min(1).max(600_000).default(5_000),
  /**
   * Each search thread's remembered exact totals (projections/transcript-search-totals.ts), in estimated bytes; 0
   * remembers none (every total is counted afresh).
   */
  SEARCH_TOTALS_CACHE_BYTES: z.coerce.number().int().min(0).max(1024 * 1024 * 1024).default(8 * 1024 * 1024),
  SPEECH_API_URL: z.string().url().optional(),
  SPEECH_API_KEY: z.string().optional(),
  SPEECH_MODEL: z.string().default('whisper-1'),
  /**
   * `on`: customer answers on a real line are recognised with a language model built from the call's script
   * (PocketSphinx only; docs/speech.md, "Call-domain language model"). `off`: the stock model.
   */
  SPEECH_CALL_DOMAIN_LM: z.enum(['on', 'off']).default('on'),
  /** An OpenAI-compatible chat-completions endpoint for summary, sentiment and intent (docs/analysis.md); unset: offline only. */
  ANALYZER_API_URL: z
    .string()
    .refine(isHttpUrlWithoutCredentials, 'an http:// or https:// URL without user:password, e.g. http://127.0.0.1:11434/v1')
    .optional(),
  /** Sent as a bearer token; never logged. */
  ANALYZER_API_KEY: z.string().optional(),
  ANALYZER_MODEL: z.string().min(1).max(200).optional(),
  /** One LLM request, connect to the last byte of the answer; past it the lexicon analyzer answers. */
  ANALYZER_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
  /** LLM requests at once across the process. */
  ANALYZER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** The prompt's size limit in estimated tokens (characters: ASCII / 4 + others / 2); longer transcripts are cut. */
  ANALYZER_MAX_INPUT_TOKENS: z.coerce.number().int().min(512).max(1_000_000).default(6_000),
  /** `max_tokens` of each LLM answer. */
  ANALYZER_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).max(32_768).default(800),
  URL_SIGNING_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  SECRETS_KEY: z.string().min(32, 'at least 32 characters').optional(),
  /** When set, GET /metrics and GET /ready need `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Worker threads that generate reports (each with its own read-only connection to the read models). */
  REPORT_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  /** How long generating one report may take before the attempt fails. */
  REPORT_BUDGET_SECONDS: z.coerce.number().positive().max(3600).default(300),
  /** Generated report files are deleted this many days after they were generated. */
  REPORT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** smtp:// or smtps:// URL of the mail server reports are e-mailed through; without it, reports with `email` are refused. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'an smtp:// or smtps:// URL').optional(),
  /** Report files up to this size are attached to report e-mails; larger ones are sent as a 7-day link. */
  REPORT_EMAIL_MAX_ATTACHMENT_BYTES: z.coerce.number().int().min(0).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  /** The From address of report e-mails. */
  MAIL_FROM: z.string().default('reports@localhost'),
  /** Tests only (infra/eventstore/failpoint.ts): crash right after appending an event of this type. */
  FAILPOINT_KILL_AFTER_APPEND: z.string().regex(/^[A-Za-z]+$/, 'an event type').optional(),
}).superRefine((config, context) => {
  const problem = (path: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  if (config.TELEPHONY === 'sip') {
    if (!config.SIP_TRUNK) problem('SIP_TRUNK', 'required when TELEPHONY=sip (host[:port] of the SIP trunk)');
    if (!config.SIP_LOCAL_ADDRESS) problem('SIP_LOCAL_ADDRESS', 'required when TELEPHONY=sip (the IP we bind and announce in SIP and SDP)');
    if (!config.SIP_CALLER_ID) problem('SIP_CALLER_ID', 'required when TELEPHONY=sip (the E.164 number calls come from)');
  }
  if ((config.SIP_USERNAME === undefined) !== (config.SIP_PASSWORD === undefined)) {
    problem(config.SIP_USERNAME === undefined ? 'SIP_USERNAME' : 'SIP_PASSWORD', 'SIP_USERNAME and SIP_PASSWORD go together');
  }
  if (config.SIP_REGISTER && config.SIP_USERNAME === undefined) problem('SIP_REGISTER', 'registration needs SIP_USERNAME and SIP_PASSWORD');
  if (config.NODE_ROLE !== 'all' && !config.CLUSTER) problem('NODE_ROLE', `${config.NODE_ROLE} needs CLUSTER=true (a lone ${config.NODE_ROLE} node would ${config.NODE_ROLE === 'api' ? 'run no timers, dialing or deliveries' : 'serve no API'})`);
  if (config.CLUSTER) {
    // Each node would otherwise make its own key in its DATA_DIR: a secret sealed on one node could not be opened
    // on the leader, and a URL signed by one node would be refused by the next.
    if (!config.SECRETS_KEY) problem('SECRETS_KEY', 'required when CLUSTER=true (the same on every node)');
    if (!config.URL_SIGNING_SECRET) problem('URL_SIGNING_SECRET', 'required when CLUSTER=true (the same on every node)');
    if (config.CLOCK === 'manual') problem('CLOCK', 'manual is per DATA_DIR and cannot be shared by the nodes of a cluster yet');
  }
  if (config.ANALYZER_API_URL !== undefined) {
    if (config.ANALYZER_MODEL === undefined) problem('ANALYZER_MODEL', 'required with ANALYZER_API_URL (the model name the server serves, e.g. qwen2.5:7b-instruct)');
    // Requests go through the outbound guard: a private address the guard would refuse on every job is a mistake
    // worth stopping for now, not a fallback on every job. (A host name is only resolved when a job runs.)
    if (!config.ALLOW_PRIVATE_TARGETS && URL.canParse(config.ANALYZER_API_URL) && isPrivateLiteral(new URL(config.ANALYZER_API_URL).hostname)) {
      problem('ANALYZER_API_URL', 'a loopback or private address is refused unless ALLOW_PRIVATE_TARGETS=true (a self-hosted server on this host or network)');
    }
  }
});

function isHttpUrlWithoutCredentials(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
}

function isPrivateLiteral(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  dataDirectory: string;
  /** The embedded store's file: EVENTSTORE_FILE, else DATA_DIR/events.db. */
  eventsPath: string;
  readModelPath: string;
  /** The server's own records that no event rebuilds: process checkpoints, dead letters, idempotency records. */
  statePath: string;
  blobDirectory: string;
  urlSigningKeyPath: string;
  secretsKeyPath: string;
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const dataDirectory = resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    dataDirectory,
    eventsPath: parsed.data.EVENTSTORE_FILE ? resolve(parsed.data.EVENTSTORE_FILE) : resolve(dataDirectory, 'events.db'),
    readModelPath: resolve(dataDirectory, 'read.db'),
    statePath: resolve(dataDirectory, 'state.db'),
    blobDirectory: resolve(dataDirectory, 'blobs'),
    urlSigningKeyPath: resolve(dataDirectory, 'url-signing.key'),
    secretsKeyPath: resolve(dataDirectory, 'secrets.key'),
  };
}

/**
 * Where clients reach this server: `PUBLIC_BASE_URL` when set (behind a proxy or a load balancer), otherwise the
 * address the server listens on, with a wildcard host (0.0.0.0, ::) replaced by the loopback address.
 */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' || config.HOST === '' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}
