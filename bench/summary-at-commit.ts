/**
 * The summarizer as it was at an earlier commit, loaded beside today's (its relative imports pointed at this tree),
 * so a benchmark compares before and after in one run: bench/analysis-hostile.ts and bench/analysis-summary.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { summarize } from '../infra/analysis/summary.ts';

export type Summarize = typeof summarize;

const projectDirectory = fileURLToPath(new URL('..', import.meta.url));

export async function summaryAtCommit(commit: string): Promise<{ summarize: Summarize; remove(): void }> {
  const source = execFileSync('git', ['show', `${commit}:infra/analysis/summary.ts`], { cwd: projectDirectory, encoding: 'utf8' });
  const analysisDirectory = join(projectDirectory, 'infra', 'analysis');
  const absolute = source.replace(/from '(\.{1,2}\/[^']+)'/g, (_, specifier: string) => `from '${pathToFileURL(join(analysisDirectory, specifier)).href}'`);
  const directory = mkdtempSync(join(tmpdir(), 'summary-before-'));
  const path = join(directory, 'summary-before.ts');
  writeFileSync(path, absolute);
  const module = (await import(pathToFileURL(path).href)) as { summarize: Summarize };
  return { summarize: module.summarize, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
