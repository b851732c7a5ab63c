/**
 * The OpenAPI document the service serves, linted by Spectral (`spectral:oas`, .spectral.yaml) and Redocly
 * (`recommended`, redocly.yaml) as integrators would: zero errors and zero warnings. A finding is fixed where the
 * document comes from (route definitions, zod schemas), not silenced; the two configs say why a rule is off.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeOpenApiDocument } from '../support/openapi-document.ts';
import { PROJECT_DIRECTORY, printed, runBin } from '../support/run-bin.ts';

const lint = suite('OpenAPI document: Spectral and Redocly lint');
let document: { directory: string; file: string };

lint.before(async () => {
  document = await writeOpenApiDocument();
});
lint.after(() => rmSync(document.directory, { recursive: true, force: true }));

lint('spectral:oas finds nothing (no error, no warning, no hint)', async () => {
  const report = join(document.directory, 'spectral.json');
  const result = await runBin('spectral', ['lint', document.file, '--ruleset', join(PROJECT_DIRECTORY, '.spectral.yaml'), '--format', 'json', '--output', report]);
  let findings: Array<{ code: string; message: string; path: string[]; severity: number }> = [];
  try {
    findings = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    assert.unreachable(`spectral wrote no report\n${printed(result)}`);
  }
  const listed = findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`).join('\n');
  assert.is(findings.length, 0, `spectral findings:\n${listed}`);
  assert.is(result.code, 0, printed(result));
});

lint('redocly lint (recommended) finds nothing (no error, no warning)', async () => {
  const result = await runBin('redocly', ['lint', document.file, '--config', join(PROJECT_DIRECTORY, 'redocly.yaml'), '--format', 'json'], {
    // Offline and quiet: no usage telemetry, no update check.
    env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  let report: { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
  try {
    report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
  } catch {
    return assert.unreachable(`redocly printed no JSON report\n${printed(result)}`);
  }
  const listed = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`).join('\n');
  assert.equal(report.totals, { ...report.totals, errors: 0, warnings: 0 }, `redocly problems:\n${listed}`);
  assert.is(result.code, 0, printed(result));
});

lint.run();
