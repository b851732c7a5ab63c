/**
 * The OpenAPI document exactly as the service serves it (`GET /v1/openapi.json`), from an app on a manual clock so
 * that every route, the sandbox clock included, is in it: what the contract tests lint and generate clients from.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp } from '../../http/app.ts';
import { testRuntime } from './runtime.ts';

export type OpenApiDocument = Record<string, unknown>;

export async function servedOpenApiDocument(): Promise<OpenApiDocument> {
  const { runtime, remove } = testRuntime({ environment: { CLOCK: 'manual' } });
  try {
    const response = await createHttpApp(runtime).request('/v1/openapi.json');
    if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    return (await response.json()) as OpenApiDocument;
  } finally {
    await runtime.close();
    remove();
  }
}

/** Writes the document into a new temporary directory; returns the directory and the file's path. */
export async function writeOpenApiDocument(): Promise<{ directory: string; file: string }> {
  const directory = mkdtempSync(join(tmpdir(), 'openapi-contract-'));
  const file = join(directory, 'openapi.json');
  writeFileSync(file, JSON.stringify(await servedOpenApiDocument(), null, 2));
  return { directory, file };
}
