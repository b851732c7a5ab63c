/**
 * The operator CLI: `npm run -s cli -- <command> [arguments] [--json]`. Works while the server runs on the same
 * DATA_DIR: both append to the same event store, and after a command the CLI brings the read models up to date
 * itself, so the server sees the change on its very next request (e.g. a revoked key).
 *
 * Output is a readable table, or JSON with `--json` (`streams read --json` prints one JSON object per line).
 * Bad arguments: a one-line error on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { createRuntime, WORK_QUEUES, type Runtime } from './composition.ts';
import { API_KEY_SCOPES, apiKeyDecider, apiKeyStream, type ApiKeyScope } from './domain/api-key.ts';
import { DomainError } from './domain/shared/errors.ts';
import { workspaceDecider, workspaceStream } from './domain/workspace.ts';
import { hashApiKeySecret, newApiKeySecret } from './infra/crypto/api-key-secret.ts';
import { loadConfig } from './infra/config.ts';
import { newId } from './infra/ids.ts';
import { createLogger } from './infra/logger.ts';
import { findApiKey, listApiKeys } from './projections/api-keys.ts';
import { complianceAuditDecider, complianceAuditStream } from './domain/compliance/audit.ts';
import type { EnabledPack } from './domain/compliance/packs.ts';
import { complianceSettingsDecider, complianceSettingsStream, validatePacks } from './domain/compliance/settings.ts';
import { parseAnalyticsRange } from './http/analytics-range.ts';
import { auditDocument } from './http/routes/compliance.ts';
import { createComplianceAuditRunner } from './processes/compliance/audit-runner.ts';
import { countAuditSubjects, findComplianceAudit } from './projections/compliance-audits.ts';
import { findWorkspace, listWorkspaces } from './projections/workspaces.ts';
import { EventStoreWorkQueue } from './infra/work-queue/event-store-queue.ts';

class UsageError extends Error {}

const USAGE = `usage: npm run -s cli -- <command> [--json]
  workspaces create --name NAME
  workspaces list
  workspaces set-rate-limit WORKSPACE_ID PER_MINUTE
  workspaces set-concurrency WORKSPACE_ID CALLS
  keys create --workspace WORKSPACE_ID --name NAME --scope Read-Only|Read-Write|Admin
  keys list --workspace WORKSPACE_ID
  keys revoke KEY_ID
  streams list [--prefix PREFIX] [--limit N]
  streams read STREAM
  projections status
  projections rebuild [NAME]
  processes status
  processes dead-letters [--process NAME]
  processes retry DEAD_LETTER_ID
  queue parked [--queue QUEUE]
  queue requeue ITEM_ID [--queue QUEUE]
  compliance audit --workspace WORKSPACE_ID --from DATE --to DATE [--campaign CAMPAIGN_ID] [--timezone ZONE] [--settings JSON]
      re-evaluates the calls of the range under --settings ({"packs":[...]}, default: the workspace's current
      settings) without changing their results, and prints what would change (docs/compliance.md)`;

type Output = Record<string, unknown> | Array<Record<string, unknown>>;

interface Invocation {
  words: string[];
  flags: {
    name?: string;
    scope?: string;
    workspace?: string;
    process?: string;
    prefix?: string;
    limit?: string;
    from?: string;
    to?: string;
    campaign?: string;
    timezone?: string;
    settings?: string;
    queue?: string;
    json: boolean;
  };
}

function parse(argv: string[]): Invocation {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        scope: { type: 'string' },
        workspace: { type: 'string' },
        process: { type: 'string' },
        prefix: { type: 'string' },
        limit: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        campaign: { type: 'string' },
        timezone: { type: 'string' },
        settings: { type: 'string' },
        queue: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    return { words: positionals, flags: { ...values, json: values.json ?? false } };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`missing ${what}`);
  return value;
}

function positiveInteger(value: string | undefined, what: string): number {
  const number = Number(required(value, what));
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${what} must be a positive integer, got ${value}`);
  return number;
}

function context(runtime: Runtime, workspaceId: string | null) {
  return { workspaceId, actor: 'cli', now: runtime.clock.now() };
}

async function createKey(runtime: Runtime, workspaceId: string, name: string, scope: ApiKeyScope) {
  const keyId = newId('key', runtime.clock.now());
  const secret = newApiKeySecret();
  await runtime.commands.handle(
    apiKeyDecider,
    apiKeyStream(keyId),
    { type: 'CreateApiKey', keyId, workspaceId, name, scope, secretHash: hashApiKeySecret(secret), now: runtime.clock.now() },
    context(runtime, workspaceId),
  );
  return { id: keyId, key: secret, name, scope, workspace_id: workspaceId };
}

function requireWorkspace(runtime: Runtime, workspaceId: string): void {
  if (!findWorkspace(runtime.readDb, workspaceId)) throw new UsageError(`no workspace ${workspaceId}`);
}

async function run(runtime: Runtime, { words, flags }: Invocation): Promise<Output> {
  const [group, action, ...rest] = words;
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  switch (command) {
    case 'workspaces create': {
      const name = required(flags.name, '--name');
      const workspaceId = newId('ws', runtime.clock.now());
      await runtime.commands.handle(
        workspaceDecider,
        workspaceStream(workspaceId),
        { type: 'CreateWorkspace', workspaceId, name, now: runtime.clock.now() },
        context(runtime, workspaceId),
      );
      const key = await createKey(runtime, workspaceId, 'Initial admin key', 'Admin');
      return { workspace_id: workspaceId, key_id: key.id, key: key.key, scope: 'Admin' };
    }
    case 'workspaces list':
      return listWorkspaces(runtime.readDb) as unknown as Output;
    case 'workspaces set-rate-limit':
    case 'workspaces set-concurrency': {
      const workspaceId = required(rest[0], 'WORKSPACE_ID');
      const value = positiveInteger(rest[1], action === 'set-rate-limit' ? 'PER_MINUTE' : 'CALLS');
      requireWorkspace(runtime, workspaceId);
      await runtime.commands.handle(
        workspaceDecider,
        workspaceStream(workspaceId),
        action === 'set-rate-limit' ? { type: 'SetRateLimit', perMinute: value } : { type: 'SetDialingConcurrency', limit: value },
        context(runtime, workspaceId),
      );
      await runtime.projections.catchUp();
      return findWorkspace(runtime.readDb, workspaceId) as unknown as Output;
    }
    case 'keys create': {
      const workspaceId = required(flags.workspace, '--workspace');
      const scope = required(flags.scope, '--scope');
      if (!API_KEY_SCOPES.includes(scope as ApiKeyScope)) throw new UsageError(`--scope must be one of ${API_KEY_SCOPES.join(', ')}`);
      requireWorkspace(runtime, workspaceId);
      return createKey(runtime, workspaceId, required(flags.name, '--name'), scope as ApiKeyScope);
    }
    case 'keys list': {
      const workspaceId = required(flags.workspace, '--workspace');
      requireWorkspace(runtime, workspaceId);
      return listApiKeys(runtime.readDb, workspaceId).data.map(({ key_id, ...key }) => ({ id: key_id, ...key }));
    }
    case 'keys revoke': {
      const keyId = required(rest[0], 'KEY_ID');
      const { state } = await runtime.commands.load(apiKeyDecider, apiKeyStream(keyId));
      if (state.status === 'none') throw new UsageError(`no API key ${keyId}`);
      await runtime.commands.handle(apiKeyDecider, apiKeyStream(keyId), { type: 'RevokeApiKey', now: runtime.clock.now() }, context(runtime, state.workspaceId));
      await runtime.projections.catchUp();
      const { key_id, ...key } = findApiKey(runtime.readDb, state.workspaceId, keyId)!;
      return { id: key_id, ...key };
    }
    case 'streams list':
      return (await runtime.auditLog.listStreams({
        prefix: flags.prefix,
        limit: flags.limit ? positiveInteger(flags.limit, '--limit') : undefined,
      })) as unknown as Output;
    case 'streams read': {
      const stream = required(rest[0], 'STREAM');
      // As recorded: not upcast (domain/upcasters.ts), so an auditor sees exactly what was stored.
      const events = await runtime.auditLog.readStream(stream);
      return events.map((event) => ({
        position: event.position,
        revision: event.revision,
        type: event.type,
        time: event.metadata.occurred_at,
        id: event.id,
        data: withoutSecrets(event.data),
        metadata: event.metadata,
      }));
    }
    case 'projections status':
      return (await runtime.projections.status()) as unknown as Output;
    case 'projections rebuild': {
      const names = rest[0] ? [rest[0]] : runtime.projections.projections.map((projection) => projection.name);
      for (const name of names) {
        if (!runtime.projections.projections.some((projection) => projection.name === name)) {
          throw new UsageError(`unknown projection ${name}; known: ${runtime.projections.projections.map((p) => p.name).join(', ')}`);
        }
      }
      const started = Date.now();
      for (const name of names) await runtime.projections.rebuild(name);
      await runtime.projections.catchUp();
      return { rebuilt: names, seconds: (Date.now() - started) / 1000, status: await runtime.projections.status() };
    }
    case 'processes status':
      return (await runtime.processes.recordedStatus()) as unknown as Output;
    case 'processes dead-letters':
      return runtime.processes.deadLetters.list({ process: flags.process }) as unknown as Output;
    case 'processes retry': {
      const id = positiveInteger(rest[0], 'DEAD_LETTER_ID');
      if (!runtime.processes.deadLetters.requestRetry(id)) throw new UsageError(`no dead letter ${id} to retry (see processes dead-letters)`);
      // The server's process runner picks the request up within a second and records the outcome.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const letter = runtime.processes.deadLetters.list().find((candidate) => candidate.id === id)!;
        if (letter.status !== 'retry_requested' || Date.now() > deadline) return letter as unknown as Output;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    case 'compliance audit':
      return complianceAudit(runtime, flags);
    case 'queue parked':
    case 'queue requeue':
      return workQueueCommand(runtime, action, rest[0], flags.queue);
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'missing command');
  }
}

/**
 * A re-audit for auditors, in one command: requested like POST /v1/compliance/audits (the same events, so the API
 * shows it too), run here to completion on the analysis threads, and its report printed. A server running on the
 * same DATA_DIR may take batches of it as well; each batch is recorded once (audit.ts).
 */
async function complianceAudit(runtime: Runtime, flags: Invocation['flags']): Promise<Output> {
  const workspaceId = required(flags.workspace, '--workspace');
  requireWorkspace(runtime, workspaceId);
  await runtime.projections.catchUp();
  let packs: EnabledPack[];
  if (flags.settings !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(flags.settings);
    } catch {
      throw new UsageError('--settings must be JSON such as {"packs":[{"id":"in-rbi-recovery"}]}');
    }
    packs = validatePacks((parsed as { packs?: unknown } | null)?.packs);
  } else {
    packs = (await runtime.commands.load(complianceSettingsDecider, complianceSettingsStream(workspaceId))).state.packs;
  }
  let range: ReturnType<typeof parseAnalyticsRange>;
  try {
    range = parseAnalyticsRange({ from: required(flags.from, '--from'), to: required(flags.to, '--to'), timezone: flags.timezone });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const campaignId = flags.campaign ?? null;
  const now = runtime.clock.now();
  const auditId = newId('aud', now);
  const total = countAuditSubjects(runtime.readDb, { workspaceId, from: range.fromInstant, to: range.toInstant, campaignId });
  await runtime.commands.handle(
    complianceAuditDecider,
    complianceAuditStream(auditId),
    { type: 'RequestComplianceAudit', data: { audit_id: auditId, workspace_id: workspaceId, basis: 'settings', packs, from: range.fromInstant, to: range.toInstant, campaign_id: campaignId, total, requested_at: now.toISOString() } },
    context(runtime, workspaceId),
  );
  await createComplianceAuditRunner(runtime).runToCompletion(auditId, workspaceId);
  await runtime.projections.catchUp();
  return auditDocument(findComplianceAudit(runtime.readDb, workspaceId, auditId)!) as unknown as Output;
}

/**
 * Parked work items of a cluster's queues (docs/operations.md, "Work queue"): listed, or one put back for the nodes
 * to claim with a fresh set of attempts. Reads the work events from the first one (the CLI keeps no index), so it
 * sees every parked item, including those a node's index has moved past.
 */
async function workQueueCommand(runtime: Runtime, action: string, itemId: string | undefined, queueName: string | undefined): Promise<Output> {
  if (queueName !== undefined && !WORK_QUEUES.includes(queueName)) throw new UsageError(`unknown queue ${queueName}; known: ${WORK_QUEUES.join(', ')}`);
  const queues = queueName === undefined ? WORK_QUEUES : [queueName];
  const workQueue = new EventStoreWorkQueue(runtime.store, { claimTimeoutMs: runtime.config.WORK_CLAIM_TIMEOUT_MS, nodeId: 'cli' });
  try {
    const parked = (await Promise.all(queues.map((queue) => workQueue.parked(queue)))).flat();
    if (action === 'parked') return parked.map(({ queue, id, attempts, reason, payload }) => ({ queue, id, attempts, reason, payload }));
    const id = required(itemId, 'ITEM_ID');
    const matches = parked.filter((item) => item.id === id);
    if (matches.length === 0) throw new UsageError(`no parked item ${id}${queueName ? ` in ${queueName}` : ''} (see queue parked)`);
    if (matches.length > 1) throw new UsageError(`${id} is parked in ${matches.map((item) => item.queue).join(' and ')}: say which with --queue`);
    const [item] = matches;
    await workQueue.requeue(item!.queue, id, 'cli');
    return { queue: item!.queue, id, requeued: true };
  } finally {
    await workQueue.close();
  }
}

function print(output: Output, json: boolean, jsonLines: boolean): void {
  if (jsonLines && Array.isArray(output)) {
    for (const row of output) process.stdout.write(`${JSON.stringify(row)}\n`);
  } else if (json) {
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } else {
    printTable(Array.isArray(output) ? output : [output]);
  }
}

function printTable(rows: Array<Record<string, unknown>>): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const widths = columns.map((column) => Math.min(80, Math.max(column.length, ...rows.map((row) => cell(row[column]).length))));
  const line = (values: string[]) => values.map((value, index) => value.slice(0, 80).padEnd(widths[index]!)).join('  ').trimEnd();
  process.stdout.write(`${line(columns)}\n${line(widths.map((width) => '-'.repeat(width)))}\n`);
  for (const row of rows) process.stdout.write(`${line(columns.map((column) => cell(row[column])))}\n`);
}

async function main(): Promise<void> {
  let invocation: Invocation;
  try {
    invocation = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  const runtime = createRuntime(config, createLogger(process.env.LOG_LEVEL ?? 'warn'));
  let exitCode = 0;
  try {
    await runtime.ready();
    const output = await run(runtime, invocation);
    // Bring the read models up to date so that the server sees this change on its next request.
    await runtime.projections.catchUp();
    const [group, action] = invocation.words;
    print(output, invocation.flags.json, invocation.flags.json && group === 'streams' && action === 'read');
  } catch (error) {
    if (error instanceof UsageError || error instanceof DomainError) {
      process.stderr.write(`error: ${error.message}\n`);
      exitCode = 2;
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      exitCode = 1;
    }
  } finally {
    await runtime.close();
  }
  process.exit(exitCode);
}

await main();

/**
 * Event data as an auditor may see it: a webhook's signing secret is stored in its event (the sender needs it), but
 * it is a credential, so the CLI shows `[redacted]` (or null when none was set) in its place.
 */
function withoutSecrets(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(withoutSecrets);
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data as Record<string, unknown>).map(([name, value]) => [name, name === 'secret' && value !== null ? '[redacted]' : withoutSecrets(value)]),
  );
}

