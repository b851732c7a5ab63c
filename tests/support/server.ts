/**
 * End-to-end harness: the real server (`node --import tsx main.ts`) on a free loopback port and a temporary
 * DATA_DIR, the real operator CLI on the same DATA_DIR, and a small fetch client.
 *
 *   const server = await startServer();
 *   const { key } = await createWorkspace(server, 'Acme');
 *   const api = client(server, key);
 *   const created = await api.post('/v1/scripts', body);   // { status, headers, body, text }
 *   await server.restart();                                 // same DATA_DIR
 *   await server.stop();                                    // SIGTERM; removes DATA_DIR unless kept
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keptNodeId } from '../../infra/cluster/node-id.ts';

export const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  readonly baseUrl: string;
  /** The server process's id (its RSS can be read from /proc without asking the server). */
  readonly pid: number | undefined;
  readonly dataDir: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and wait for the exit; `keepData` leaves DATA_DIR for a later start. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /**
   * Stop and start again on the same DATA_DIR (a new port); `signal: 'SIGKILL'` simulates a crash; `env` changes the
   * environment from this start on.
   */
  restart(options?: { signal?: 'SIGTERM' | 'SIGKILL'; env?: Record<string, string> }): Promise<void>;
}

export interface ServerOptions {
  dataDir?: string;
  /** Extra environment, e.g. `{ CLOCK: 'manual' }`. */
  env?: Record<string, string>;
  /**
   * Where the server's stdout and stderr go: by default this process collects them (`output()`); a file costs the
   * server no more than a production log would, and this process nothing (benchmarks).
   */
  logFile?: string;
}

const START_TIMEOUT_MS = 30_000;

/**
 * Waits until this server answers /health. The port came from freePort(), which frees it before the server binds it:
 * another suite's server may take it in between, and would then answer /health in our server's place (every request
 * of the suite going to a server that knows none of its keys). So only an answer naming our server's node counts.
 */
async function waitUntilHealthy(baseUrl: string, child: ChildProcess, output: () => string, ourNodeId: () => string | undefined): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < START_TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) {
        const { node_id: answered } = (await response.json()) as { node_id?: unknown };
        if (answered !== undefined && answered === ourNodeId()) return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not become healthy in ${START_TIMEOUT_MS} ms:\n${output()}`);
}

/** How many ports a server start tries when the one it was given is taken before it binds it. */
const PORT_ATTEMPTS = 3;

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'e2e-'));
  let child: ChildProcess;
  let baseUrl = '';
  let log = '';

  // The node's name as /health gives it: NODE_ID when set, else the one the server keeps in DATA_DIR (infra/cluster/node-id.ts).
  const ourNodeId = (): string | undefined => options.env?.NODE_ID || process.env.NODE_ID || keptNodeId(dataDir);

  const launch = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await launchOnce();
        return;
      } catch (error) {
        // Another process bound the port first: start again on another one.
        if (attempt >= PORT_ATTEMPTS || !output().includes('EADDRINUSE')) throw error;
        log = '';
      }
    }
  };

  const launchOnce = async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const logFd = options.logFile ? openSync(options.logFile, 'a') : undefined;
    // PROFILE_SERVER in `env`: the server writes V8 CPU profiles (one per thread) to /tmp/prof when it exits;
    // TRACE_GC: it prints every garbage collection of every thread (`output()` has them).
    const diagnostics = [...(options.env?.PROFILE_SERVER ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), ...(options.env?.TRACE_GC ? ['--trace-gc'] : []), ...(options.env?.SERVER_NODE_FLAGS ? options.env.SERVER_NODE_FLAGS.split(' ') : [])];
    child = spawn(process.execPath, [...diagnostics, '--import', 'tsx', 'main.ts'], {
      cwd: projectDirectory,
      // Sandbox calls end at once on the clock unless a test sets SANDBOX_SPEED (1: real time).
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', EVENTSTORE_SYNC: 'normal', SANDBOX_SPEED: '1000000', ...options.env },
      stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
    });
    if (logFd !== undefined) closeSync(logFd);
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitUntilHealthy(baseUrl, child, output, ourNodeId);
  };
  const output = () => (options.logFile ? readFileSync(options.logFile, 'utf8') : log);

  const terminate = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), options.env?.PROFILE_SERVER ? 60_000 : 10_000);
    await exited;
    clearTimeout(killer);
  };

  await launch();
  return {
    get baseUrl() {
      return baseUrl;
    },
    get pid() {
      return child.pid;
    },
    dataDir,
    output,
    async stop({ keepData = false } = {}) {
      await terminate();
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async restart({ signal = 'SIGTERM', env }: { signal?: 'SIGTERM' | 'SIGKILL'; env?: Record<string, string> } = {}) {
      await terminate(signal);
      if (env) options.env = { ...options.env, ...env };
      await launch();
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI on the server's DATA_DIR, in its own process (as an operator would). */
export async function cli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli.ts', ...args], {
      cwd: projectDirectory,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', EVENTSTORE_SYNC: 'normal', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface Workspace {
  workspaceId: string;
  keyId: string;
  /** The Admin key's secret. */
  key: string;
}

/** A new workspace and its first Admin key, through the CLI. */
export async function createWorkspace(server: Pick<TestServer, 'dataDir'>, name: string): Promise<Workspace> {
  const result = await cli(server.dataDir, ['workspaces', 'create', '--name', name, '--json']);
  if (result.code !== 0) throw new Error(`cli workspaces create failed (${result.code}): ${result.stderr}`);
  const created = JSON.parse(result.stdout) as { workspace_id: string; key_id: string; key: string };
  return { workspaceId: created.workspace_id, keyId: created.key_id, key: created.key };
}

/** Sets a workspace's rate limit through the CLI. */
export async function setRateLimit(server: Pick<TestServer, 'dataDir'>, workspaceId: string, perMinute: number): Promise<void> {
  const result = await cli(server.dataDir, ['workspaces', 'set-rate-limit', workspaceId, String(perMinute), '--json']);
  if (result.code !== 0) throw new Error(`cli set-rate-limit failed (${result.code}): ${result.stderr}`);
}

/**
 * A parsed response. `body` is the parsed JSON (or null): typed loosely on purpose, tests compare it with
 * expected literals.
 */
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (no JSON encoding, no Content-Type added). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface ApiClient {
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, options?: RequestOptions): Promise<ApiResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse>;
  delete(path: string, options?: RequestOptions): Promise<ApiResponse>;
}

/** A client for the server, authenticated with `key` when given. */
export function client(server: Pick<TestServer, 'baseUrl'>, key?: string): ApiClient {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${server.baseUrl}${path}`, { method, headers: { ...headers, ...options.headers }, body });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}
