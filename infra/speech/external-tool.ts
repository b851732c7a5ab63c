// Runs one external program (ffmpeg, sox, espeak-ng, festival, pocketsphinx) with an argument array, never a
// shell string, so Unicode text and file names cannot be misread as shell syntax. Every run has a timeout and
// honours an AbortSignal, because a stuck decoder must not hold a transcription job forever.
import { spawn } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { runToolOnToolThread } from './tool-thread.ts';

export class ExternalToolError extends Error {
  readonly code = 'speech_tool_failed';
  constructor(
    readonly tool: string,
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ExternalToolError';
  }
}

export class ToolNotInstalledError extends Error {
  readonly code = 'speech_tool_missing';
  constructor(readonly tool: string) {
    super(`${tool} is not installed (run scripts/setup.sh or apt-get install it)`);
    this.name = 'ToolNotInstalledError';
  }
}

export class OperationAbortedError extends Error {
  readonly code = 'aborted';
  constructor(what: string) {
    super(`${what} was aborted`);
    this.name = 'OperationAbortedError';
  }
}

export interface ToolRun {
  /** Bytes written to the program's standard input, then closed. */
  stdin?: Buffer | string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Preallocated size hint for stdout, so a long decode does not copy its output over and over. */
  expectedStdoutBytes?: number;
  /** Hard cap on stdout; beyond it the program is killed. */
  maxStdoutBytes?: number;
}

export interface ToolOutput {
  stdout: Buffer;
  stderr: string;
}

const STDERR_KEPT_BYTES = 16_000;

/**
 * Runs the program. From the server's main thread the run is handed to the tool thread (tool-thread.ts): starting a
 * process forks the whole server, which takes milliseconds per run in a process of a few hundred MB, and a busy
 * workspace's calls start several programs a second; the event loop must not pay for that.
 */
export function runTool(tool: string, args: readonly string[], run: ToolRun): Promise<ToolOutput> {
  return isMainThread ? runToolOnToolThread(tool, args, run) : runToolHere(tool, args, run);
}

/** Runs the program from this thread. */
export function runToolHere(tool: string, args: readonly string[], run: ToolRun): Promise<ToolOutput> {
  return new Promise((resolve, reject) => {
    if (run.signal?.aborted) {
      reject(new OperationAbortedError(tool));
      return;
    }
    const child = spawn(tool, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const collector = new GrowingBuffer(run.expectedStdoutBytes ?? 64 * 1024);
    let stderr = '';
    let failure: Error | undefined;
    let settled = false;

    const stop = (error: Error) => {
      if (failure === undefined) failure = error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new ExternalToolError(tool, `${tool} timed out after ${run.timeoutMs} ms`, null, stderr)), run.timeoutMs);
    const onAbort = () => stop(new OperationAbortedError(tool));
    run.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      outcome();
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (run.maxStdoutBytes !== undefined && collector.length + chunk.length > run.maxStdoutBytes) {
        stop(new ExternalToolError(tool, `${tool} produced more than ${run.maxStdoutBytes} bytes`, null, stderr));
        return;
      }
      collector.append(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT_BYTES) stderr += chunk.toString('utf8');
    });
    // A program that exits before reading all its input makes the pipe fail; its exit status tells the story.
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(() => reject(error.code === 'ENOENT' ? new ToolNotInstalledError(tool) : error));
    });
    child.on('close', (exitCode) => {
      finish(() => {
        if (failure !== undefined) reject(failure);
        else if (exitCode !== 0) {
          reject(new ExternalToolError(tool, `${tool} exited with status ${exitCode}: ${lastLines(stderr)}`, exitCode, stderr));
        } else resolve({ stdout: collector.toBuffer(), stderr });
      });
    });

    if (run.stdin !== undefined) child.stdin.end(run.stdin);
    else child.stdin.end();
  });
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}

/** Appends chunks into one buffer that doubles when full (amortised copies, one final slice). */
class GrowingBuffer {
  private storage: Buffer;
  length = 0;
  constructor(initialBytes: number) {
    this.storage = Buffer.allocUnsafe(Math.max(1024, initialBytes));
  }
  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.storage.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.storage.length * 2, this.length + chunk.length));
      this.storage.copy(grown, 0, 0, this.length);
      this.storage = grown;
    }
    chunk.copy(this.storage, this.length);
    this.length += chunk.length;
  }
  toBuffer(): Buffer {
    return this.storage.subarray(0, this.length);
  }
}
