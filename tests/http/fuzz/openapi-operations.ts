/**
 * The operations a server serves, read from its own OpenAPI document: a route added tomorrow is fuzzed tomorrow
 * without anyone listing it here.
 */
export type JsonSchema = Record<string, unknown>;

export interface Operation {
  method: string;
  /** OpenAPI form: `/v1/scripts/{id}`. */
  path: string;
  pathParameters: string[];
  queryParameters: Array<{ name: string; schema: JsonSchema }>;
  /** The JSON body's schema, with `$ref`s left for `resolve`. */
  body: JsonSchema | null;
  /** Content types of its 2xx responses (JSON unless it serves audio, HTML or text). */
  successContentTypes: string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface OperationObject {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const successContentTypes = Object.entries(operation.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, response]) => Object.keys(response.content ?? {}));
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
        successContentTypes,
      });
    }
  }
  return operations;
}

/** Follows `$ref: #/components/schemas/X` (one level at a time, as the generator walks). */
export function resolve(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
    const name = current.$ref.split('/').pop()!;
    current = document.components.schemas[name] ?? {};
  }
  return current;
}
