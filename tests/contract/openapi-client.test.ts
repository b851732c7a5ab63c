/**
 * What an integrator does with the contract: generate types with openapi-typescript from the served document, write
 * a client flow with openapi-fetch (create a script, create a campaign, list calls, read an error's `code`), and
 * type-check it with `tsc --strict`. Fields with a default (`single_call_enabled`, `max_attempts`, ...) are left out,
 * as a client may. The negative case proves the check bites: a wrongly typed field makes tsc fail.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeOpenApiDocument } from '../support/openapi-document.ts';
import { PROJECT_DIRECTORY, printed, runBin, type BinResult } from '../support/run-bin.ts';

const client = suite('OpenAPI document: a generated client type-checks');
let work: { directory: string; file: string };

const CLIENT_FLOW = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

type ErrorCode = components['schemas']['ErrorCode'];

export async function flow(key: string): Promise<ErrorCode | null> {
  const api = createClient<paths>({ baseUrl: 'https://calls.example.com', headers: { Authorization: \`Bearer \${key}\` } });

  const script = await api.POST('/v1/scripts', {
    params: { header: { 'Idempotency-Key': 'e1c7a3f0-6a51-4c1a-9d7e-0f2b8c4d5e6f' } },
    body: { name: 'Renewal', steps: [{ id: 'hello', say: 'Namaste {name}', end: true }] },
  });
  if (script.error) return script.error.error.code;
  const scriptId: string = script.data.id;
  const version: number = script.data.version;

  const campaign = await api.POST('/v1/campaigns', {
    body: { name: 'March renewals', script_id: scriptId, language: 'hi-IN', contacts: [{ phone: '+919876543210', name: 'Asha', amount: 50000 }] },
  });
  if (campaign.error) return campaign.error.error.code;
  const status: 'scheduled' | 'running' | 'paused' | 'completed' | 'stopped' = campaign.data.status;

  const calls = await api.GET('/v1/calls', { params: { query: { campaign_id: campaign.data.id, limit: 10, from: '2026-03-01' } } });
  if (calls.error) return calls.error.error.code;
  const total: number = calls.data.total;
  const phones: string[] = calls.data.data.map((call) => call.contact.phone);

  const missing = await api.GET('/v1/scripts/{id}', { params: { path: { id: 'scr_missing' } } });
  const code: ErrorCode | undefined = missing.error?.error.code;
  const details: Record<string, unknown> | undefined = missing.error?.error.details;
  void [version, status, total, phones, details];
  return code ?? null;
}
`;

async function typeCheck(source: string): Promise<BinResult> {
  writeFileSync(join(work.directory, 'client.ts'), source);
  return runBin('tsc', ['--project', join(work.directory, 'tsconfig.json')], { cwd: work.directory });
}

client.before(async () => {
  work = await writeOpenApiDocument();
  writeFileSync(
    join(work.directory, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
        types: [],
        // Only the client and the generated types are under test; the libraries' own .d.ts files are not.
        skipLibCheck: true,
        // The client lives in a temporary directory: resolve openapi-fetch from this project's node_modules.
        paths: { 'openapi-fetch': [join(PROJECT_DIRECTORY, 'node_modules', 'openapi-fetch')] },
      },
      files: ['client.ts'],
    }),
  );
  const generated = await runBin('openapi-typescript', [work.file, '--output', join(work.directory, 'schema.ts')]);
  assert.is(generated.code, 0, `openapi-typescript failed\n${printed(generated)}`);
});
client.after(() => rmSync(work.directory, { recursive: true, force: true }));

client('the flow (script, campaign, calls, an error code) compiles against the generated types under --strict', async () => {
  const result = await typeCheck(CLIENT_FLOW);
  assert.is(result.code, 0, `tsc failed\n${printed(result)}`);
});

client('wrongly typed fields and an unknown error code fail the check (so the check can fail)', async () => {
  const wrong =
    CLIENT_FLOW.replace("name: 'March renewals'", 'name: 42')
      .replace("language: 'hi-IN'", "language: 'xx-XX'")
      .replace('const total: number = calls.data.total;', 'const total: string = calls.data.total;') +
    "export const impossible: ErrorCode = 'no_such_code';\n";
  const result = await typeCheck(wrong);
  assert.is.not(result.code, 0, 'tsc accepted a wrongly typed client');
  const output = result.stdout + result.stderr;
  // Each mistake is reported on its own line: a wrong body field, a language outside the enum, a wrong response
  // type, a code outside the ErrorCode enum.
  for (const line of ['name: 42', "'xx-XX'", 'const total: string', "'no_such_code'"]) {
    const lineNumber = wrong.split('\n').findIndex((text) => text.includes(line)) + 1;
    assert.match(output, `client.ts(${lineNumber},`, `tsc reports line ${lineNumber} (${line})\n${output}`);
  }
});

client.run();
