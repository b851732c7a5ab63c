/** The tool thread's worker (tool-thread.ts): runs each requested program from this thread and answers. */
import { parentPort } from 'node:worker_threads';
import { ExternalToolError, OperationAbortedError, runToolHere, ToolNotInstalledError } from './external-tool.ts';
import type { SerialisedToolError, ToolReply, ToolRequest } from './tool-thread.ts';

if (!parentPort) throw new Error('tool-worker.ts runs as a worker thread (see tool-thread.ts)');
const port = parentPort;
const aborts = new Map<number, AbortController>();

function serialise(tool: string, error: unknown): SerialisedToolError {
  if (error instanceof ExternalToolError) return { kind: 'failed', tool, message: error.message, exitCode: error.exitCode, stderr: error.stderr };
  if (error instanceof ToolNotInstalledError) return { kind: 'missing', tool, message: error.message, exitCode: null, stderr: '' };
  if (error instanceof OperationAbortedError) return { kind: 'aborted', tool, message: error.message, exitCode: null, stderr: '' };
  return { kind: 'other', tool, message: error instanceof Error ? error.message : String(error), exitCode: null, stderr: '' };
}

port.on('message', (request: ToolRequest) => {
  if (request.type === 'abort') {
    aborts.get(request.id)?.abort();
    return;
  }
  const abort = new AbortController();
  aborts.set(request.id, abort);
  runToolHere(request.tool, request.args, { ...request.run, signal: abort.signal }).then(
    (output) => port.postMessage({ id: request.id, output: { stdout: output.stdout, stderr: output.stderr } } satisfies ToolReply),
    (error: unknown) => port.postMessage({ id: request.id, error: serialise(request.tool, error) } satisfies ToolReply),
  ).finally(() => aborts.delete(request.id));
});
