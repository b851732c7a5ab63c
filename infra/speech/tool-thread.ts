/**
 * One worker thread that starts the external programs (ffmpeg, festival, espeak-ng, sox, pocketsphinx) for the
 * server's main thread (external-tool.ts `runTool`). Starting a program forks the process: a few milliseconds in a
 * process of a few hundred MB, during which the forking thread stands still. Here that thread is this one, not the
 * event loop. Runs, timeouts and aborts behave as in `runToolHere`; errors come back as the same classes.
 *
 * The thread starts with the first run and does not keep the process alive when nothing is running.
 */
import { Worker } from 'node:worker_threads';
import { ExternalToolError, OperationAbortedError, ToolNotInstalledError, type ToolOutput, type ToolRun } from './external-tool.ts';

const BOOTSTRAP = new URL('../worker-threads/typescript-worker.mjs', import.meta.url);
const TOOL_WORKER = new URL('./tool-worker.ts', import.meta.url).href;

export type ToolRequest =
  | { type: 'run'; id: number; tool: string; args: readonly string[]; run: Omit<ToolRun, 'signal'> }
  | { type: 'abort'; id: number };

export type SerialisedToolError = { kind: 'failed' | 'missing' | 'aborted' | 'other'; tool: string; message: string; exitCode: number | null; stderr: string };

export type ToolReply = { id: number; output: { stdout: Uint8Array; stderr: string } } | { id: number; error: SerialisedToolError };

interface PendingRun {
  tool: string;
  resolve: (output: ToolOutput) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let toolNice = 0;

/**
 * The nice value the programs run at (SPEECH_TOOL_NICE): the tool thread runs at it, and a program inherits it from
 * the thread that starts it. Takes effect when the thread next starts.
 */
export function setSpeechToolNice(nice: number): void {
  toolNice = nice;
}
const pending = new Map<number, PendingRun>();
let nextId = 1;

export function toolError(serialised: SerialisedToolError): Error {
  switch (serialised.kind) {
    case 'failed':
      return new ExternalToolError(serialised.tool, serialised.message, serialised.exitCode, serialised.stderr);
    case 'missing':
      return new ToolNotInstalledError(serialised.tool);
    case 'aborted':
      return new OperationAbortedError(serialised.tool);
    default:
      return new Error(serialised.message);
  }
}

function toolThread(): Worker {
  if (worker) return worker;
  const started = new Worker(BOOTSTRAP, { workerData: { module: TOOL_WORKER, threadName: 'speech-tools', nice: toolNice }, execArgv: [] });
  started.unref();
  started.on('message', (reply: ToolReply) => {
    const run = pending.get(reply.id);
    if (!run) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if ('error' in reply) run.reject(toolError(reply.error));
    else run.resolve({ stdout: Buffer.from(reply.output.stdout.buffer, reply.output.stdout.byteOffset, reply.output.stdout.byteLength), stderr: reply.output.stderr });
  });
  const failAll = (error: Error) => {
    if (worker === started) worker = null;
    for (const [id, run] of pending) {
      pending.delete(id);
      run.reject(new ExternalToolError(run.tool, `the tool thread stopped: ${error.message}`, null, ''));
    }
  };
  started.on('error', failAll);
  started.on('exit', (code) => failAll(new Error(`exit code ${code}`)));
  worker = started;
  return started;
}

/** The id of the thread that starts programs for this one, once it runs (tests check it is not the main thread). */
export function toolThreadId(): number | null {
  return worker?.threadId ?? null;
}

export function runToolOnToolThread(tool: string, args: readonly string[], run: ToolRun): Promise<ToolOutput> {
  if (run.signal?.aborted) return Promise.reject(new OperationAbortedError(tool));
  const thread = toolThread();
  const id = nextId++;
  const { signal, ...options } = run;
  return new Promise<ToolOutput>((resolve, reject) => {
    const onAbort = () => thread.postMessage({ type: 'abort', id } satisfies ToolRequest);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    pending.set(id, {
      tool,
      resolve: (output) => {
        settle();
        resolve(output);
      },
      reject: (error) => {
        settle();
        reject(error);
      },
    });
    // A run in progress keeps the process alive, as a child process started here would.
    thread.ref();
    thread.postMessage({ type: 'run', id, tool, args, run: options } satisfies ToolRequest);
  });
}
