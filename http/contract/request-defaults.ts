type Schema = Record<string, unknown>;
type Document = { paths?: object; components?: { schemas?: object } };

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not'] as const;

/**
 * A request field with a zod `.default()` is optional for the client: the server fills it in. The generator leaves it
 * out of `required`, but writes the `default` keyword, and openapi-typescript (by default) and other generators
 * type every property with a `default` as always present, which forces clients to send it. So in every schema a
 * request body uses (components included, followed through `$ref`), each `default` becomes a sentence of its
 * description: the fact stays in the contract, and generated clients may omit the field. A component a response
 * shares loses the keyword too; responses always carry the field anyway.
 */
export function describeRequestDefaults(document: Document): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<Schema>();

  function visit(schema: unknown): void {
    if (schema === null || typeof schema !== 'object' || seen.has(schema as Schema)) return;
    const node = schema as Schema;
    seen.add(node);
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return visit(components[ref.slice('#/components/schemas/'.length)]);
    if ('default' in node) {
      const sentence = `Default: \`${JSON.stringify(node.default)}\`.`;
      node.description = typeof node.description === 'string' ? `${node.description} ${sentence}` : sentence;
      delete node.default;
    }
    for (const property of Object.values((node.properties as Record<string, unknown> | undefined) ?? {})) visit(property);
    for (const key of SUBSCHEMA_LISTS) for (const item of (node[key] as unknown[] | undefined) ?? []) visit(item);
    for (const key of SUBSCHEMAS) visit(node[key]);
  }

  for (const path of Object.values(document.paths ?? {}) as Array<Record<string, unknown>>) {
    for (const operation of Object.values(path)) {
      const content = (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } }).requestBody?.content ?? {};
      for (const media of Object.values(content)) visit(media.schema);
    }
  }
}
