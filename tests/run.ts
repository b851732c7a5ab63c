/**
 * Runs every uvu suite (`tests/**\/*.test.ts`) in its own Node process, a few at a time, and ends with the
 * line `N passed, N failed` that CI reads. A suite that crashes or exits non-zero without uvu's totals counts
 * as one failure, so a broken file can never look green.
 *
 * Suites that measure latency under load (they start with the line `// @run-alone`) run after the others, one at a
 * time: measured while other suites compete for the same two cores, they would measure the test machine, not the
 * service.
 *
 * Usage: node --import tsx tests/run.ts [filter ...]   (filters match a substring of the file path)
 * A suite that fails is run once more, alone, at the end: passing then, it counts as passed and is named as flaky.
 *
 * Env: TEST_CONCURRENCY (default 2), TEST_TIMEOUT_SECONDS per file (default 600), TEST_RERUN_FAILED=0 (no rerun).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const testsDirectory = fileURLToPath(new URL('.', import.meta.url));
const projectDirectory = join(testsDirectory, '..');

function findSuites(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) found.push(...findSuites(path));
    else if (entry.endsWith('.test.ts')) found.push(path);
  }
  return found.sort();
}

interface SuiteOutcome {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  output: string;
}

function runSuite(file: string, timeoutSeconds: number): Promise<SuiteOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: projectDirectory,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a suite past its time is ended with everything it started (a peer in a network
      // namespace, a program's forked workers), which would otherwise hold its output open and the run with it.
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[runner] timed out after ${timeoutSeconds}s, killing\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutSeconds * 1000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const total = Number(/Total:\s+(\d+)/.exec(output)?.[1] ?? NaN);
      const passed = Number(/Passed:\s+(\d+)/.exec(output)?.[1] ?? NaN);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(output)?.[1] ?? 0);
      let outcome: Pick<SuiteOutcome, 'passed' | 'failed' | 'skipped'>;
      if (Number.isNaN(total) || Number.isNaN(passed)) {
        // A suite that registered no tests (e.g. a skipped adapter suite) exits 0 without totals only if it says so.
        const skippedOnPurpose = exitCode === 0 && /skipped/i.test(output);
        outcome = skippedOnPurpose ? { passed: 0, failed: 0, skipped: 1 } : { passed: 0, failed: 1, skipped: 0 };
      } else {
        const failed = total - passed - skipped + (exitCode !== 0 && total === passed + skipped ? 1 : 0);
        outcome = { passed, failed, skipped };
      }
      resolve({ file: relative(projectDirectory, file), ...outcome, seconds: (Date.now() - started) / 1000, output });
    });
  });
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const suites = findSuites(testsDirectory).filter(
    (file) => filters.length === 0 || filters.some((filter) => file.includes(filter)),
  );
  const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2));
  const timeoutSeconds = Number(process.env.TEST_TIMEOUT_SECONDS ?? 600);
  const outcomes: SuiteOutcome[] = [];
  async function runAll(queue: string[], workers: number): Promise<void> {
    let next = 0;
    async function worker(): Promise<void> {
      while (next < queue.length) {
        const file = queue[next++]!;
        const outcome = await runSuite(file, timeoutSeconds);
        outcomes.push(outcome);
        report(outcome);
      }
    }
    await Promise.all(Array.from({ length: workers }, worker));
  }
  const alone = suites.filter(runsAlone);
  await runAll(suites.filter((file) => !alone.includes(file)), concurrency);
  await runAll(alone, 1);
  const flaky = await rerunFailedAlone(outcomes, timeoutSeconds);
  if (flaky.length > 0) process.stdout.write(`\nflaky (failed, then passed when run again alone; see their first output above): ${flaky.join(', ')}\n`);
  const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
  const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
  const skipped = outcomes.reduce((sum, outcome) => sum + outcome.skipped, 0);
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exitCode = failed > 0 || suites.length === 0 ? 1 : 0;
}

/**
 * Runs each failed suite once more, alone, after all the others (unless TEST_RERUN_FAILED=0). A suite that then
 * passes counts as passed and is named as flaky, its first output printed above; one that fails again stays failed.
 * Why: the SIP, browser, speech and multi-node suites drive real peers on two shared cores, and a race in a test rig
 * that shows once in tens of runs (three such were found and fixed in session 12) would otherwise throw away a
 * whole run. A real defect fails both times; a flaky suite is still reported, to be fixed at its cause.
 */
async function rerunFailedAlone(outcomes: SuiteOutcome[], timeoutSeconds: number): Promise<string[]> {
  if (process.env.TEST_RERUN_FAILED === '0') return [];
  const flaky: string[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.failed === 0) continue;
    const again = await runSuite(join(projectDirectory, outcome.file), timeoutSeconds);
    report(again, ' run again alone');
    if (again.failed > 0) continue;
    outcomes[index] = again;
    flaky.push(again.file);
  }
  return flaky;
}

/** One line per suite run; a failing suite's output (every suite's with TEST_VERBOSE) below it. */
function report(outcome: SuiteOutcome, note = ''): void {
  const verdict = outcome.failed > 0 ? 'FAIL' : 'ok  ';
  process.stdout.write(`${verdict} ${outcome.file}${note} (${outcome.passed} passed, ${outcome.failed} failed, ${outcome.seconds.toFixed(1)}s)\n`);
  if (outcome.failed > 0 || process.env.TEST_VERBOSE) process.stdout.write(indent(outcome.output));
}

function runsAlone(file: string): boolean {
  return readFileSync(file, 'utf8').startsWith('// @run-alone');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
    .concat('\n');
}

await main();
