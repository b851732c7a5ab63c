import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The rules of docs/architecture.md that a grep can hold: a module that breaks one fails here, not in review.

const root = fileURLToPath(new URL('..', import.meta.url));
const COMPOSITION_ROOTS = new Set(['composition.ts', 'main.ts', 'cli.ts', 'projection-worker.ts']);
const SOURCE_FOLDERS = ['domain', 'commands', 'projections', 'processes', 'http', 'infra'];

function sources(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, folder))) {
    const path = join(folder, entry);
    if (statSync(join(root, path)).isDirectory()) found.push(...sources(path));
    else if (entry.endsWith('.ts')) found.push(path);
  }
  return found;
}

const files = SOURCE_FOLDERS.flatMap(sources);
const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

/** Relative import specifiers of a file, resolved to paths from the project root. */
function imports(file: string): string[] {
  const specifiers = [...text.get(file)!.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(root, join(root, file, '..', specifier)));
}

function offenders(rule: (file: string) => string[]): string[] {
  return files.flatMap((file) => rule(file).map((problem) => `${file}: ${problem}`));
}

test('only the composition roots know the whole runtime: no module imports composition.ts', () => {
  assert.equal(offenders((file) => (COMPOSITION_ROOTS.has(file) ? [] : imports(file).filter((target) => target === 'composition.ts'))), []);
});

test('projections and process managers read typed events: no `data as` casts', () => {
  const casts = offenders((file) =>
    file.startsWith('projections/') || file.startsWith('processes/') ? [...text.get(file)!.matchAll(/.*\bdata as\b.*/g)].map((match) => match[0].trim()) : [],
  );
  assert.equal(casts, []);
});

test('processes import nothing from http', () => {
  assert.equal(offenders((file) => (file.startsWith('processes/') ? imports(file).filter((target) => target.startsWith('http/')) : [])), []);
});

test('the domain imports nothing outside the domain (no I/O, no infra)', () => {
  assert.equal(offenders((file) => (file.startsWith('domain/') ? imports(file).filter((target) => !target.startsWith('domain/')) : [])), []);
});

test('routes read read models, not the event store: no route module touches the store or folds an aggregate to answer', () => {
  // POST handlers may load an aggregate to gather facts for a command (calls.ts: the do-not-call list); a GET may not.
  const readers = offenders((file) => {
    if (!file.startsWith('http/routes/')) return [];
    const source = text.get(file)!;
    const problems = [...source.matchAll(/.*\bstore\.(readStream|readAll|subscribeAll)\b.*/g)].map((match) => match[0].trim());
    for (const handler of source.split(/router\.openapi\(/).slice(1)) {
      const route = handler.slice(0, handler.indexOf(','));
      const definition = new RegExp(`const ${route.trim()} = defineRoute\\(\\s*\\{\\s*method: 'get'`).test(source);
      if (definition && /commands\.load\(/.test(handler.slice(0, handler.indexOf('router.openapi') === -1 ? undefined : handler.indexOf('router.openapi')))) {
        problems.push(`GET ${route.trim()} folds an aggregate`);
      }
    }
    return problems;
  });
  assert.equal(readers, []);
});

test.run();
