/** Runs a tool installed in node_modules/.bin as a child process and collects what it printed. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_DIRECTORY = fileURLToPath(new URL('../..', import.meta.url));

export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runBin(name: string, args: string[], options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    execFile(
      join(PROJECT_DIRECTORY, 'node_modules', '.bin', name),
      args,
      {
        cwd: options.cwd ?? PROJECT_DIRECTORY,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error && !stderr ? String(error) : stderr });
      },
    );
  });
}

/** What a failed tool run printed, for an assertion message. */
export function printed(result: BinResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}
