// The portable subset of JSON Schema that tool inputs are published in, so that every agent stack
// and model API takes them as they are: `publishedSchema` projects a tool's zod input onto it
// (limits and defaults move into the description; the zod schema still enforces them), and
// `portabilityProblems` lists whatever lies outside it. The rules, and why each holds:
//
//  1. root   The root is `type: "object"` with `properties`. MCP requires an object root, and
//            model APIs take a function's parameters only as an object.
//  2. typed  Every property declares one `type` (a single string, never a list), or an `anyOf`
//            whose branches each do. Google's function declarations (an OpenAPI subset) need a
//            type on every parameter; LangChain's JSON-Schema-to-zod conversion turns an untyped
//            `{}` into "anything", which a model then has to guess.
//  3. union  No `oneOf`, `allOf`, `not`, `if`/`then`/`else`, `$ref`/`$defs`. The strict
//            function-calling modes of the model APIs refuse them, and LangChain's MCP adapter
//            flattens a union to its object branches, so a `string | object` value loses the
//            string and a string argument is then refused by the client itself.
//  4. anyOf  A union only as `anyOf` of simple types (string, number, integer, boolean) — the
//            one union every converter above keeps whole.
//  5. closed Every object has `properties` and `additionalProperties: false`, and no
//            `propertyNames`, `patternProperties`, `dependencies` or `min/maxProperties`. Strict
//            modes require every object closed and refuse the rest; an open object is also a
//            shape a model cannot see.
//  6. plain  Optional means absent from `required`: no `null` types. Converters for strict
//            modes (which want every property required) add the `null` branch themselves, and
//            the server takes a null argument as an absent one.
//  7. lean   No `minLength`/`maxLength`, `pattern`, `format`, `minimum`/`maximum`,
//            `minItems`/`maxItems`, `default` or `const`: strict modes refuse several of them and
//            each API a different few. The limits stay in force on the server and are written
//            into the description, where every model reads them.
//  8. enums  `enum` lists strings only (Google's declarations take nothing else).
//  9. items  An array has one `items` schema (no tuples).
import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

/** The keywords a portable schema may use, and nothing else. */
const ALLOWED = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'description', 'title']);
const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);
const TYPES = new Set([...SIMPLE_TYPES, 'object', 'array']);

/** Keywords the projection removes, each written into the description as a limit a model reads. */
const LIMITS: ReadonlyArray<readonly [string, (v: unknown) => string]> = [
  ['minLength', (v) => (v === 1 ? 'not empty' : `at least ${String(v)} characters`)],
  ['maxLength', (v) => `at most ${String(v)} characters`],
  ['minimum', (v) => `at least ${String(v)}`],
  ['maximum', (v) => `at most ${String(v)}`],
  ['minItems', (v) => (v === 1 ? 'at least one item' : `at least ${String(v)} items`)],
  ['maxItems', (v) => `at most ${String(v)} items`],
  ['default', (v) => `default ${JSON.stringify(v)}`],
];
/** Removed silently: the server checks them and they say nothing a description needs. */
const DROPPED = new Set(['$schema', 'pattern', 'format', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function project(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(project);
  if (!isRecord(node)) return node;
  const out: JsonSchema = {};
  const limits: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    const limit = LIMITS.find(([k]) => k === keyword);
    // A bound at the edge of the number range (zod's safe-integer bounds) is no limit to state.
    if (limit) {
      if (!(typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER)) limits.push(limit[1](value));
    } else if (!DROPPED.has(keyword)) {
      out[keyword] = keyword === 'properties' && isRecord(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, project(v)])) : project(value);
    }
  }
  if (limits.length > 0) {
    const said = typeof out.description === 'string' ? out.description : '';
    const text = limits.join('; ');
    out.description = said ? `${said} (${text})` : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  }
  return out;
}

/** The JSON Schema a client is shown for a zod schema: its input side, in the portable subset. */
export function publishedSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  return project(z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' })) as JsonSchema;
}

/** Everything in `schema` outside the portable subset, each as "path: problem"; empty when portable. */
export function portabilityProblems(schema: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) problems.push('(root): must be an object with properties');
  walk(schema, '(root)', problems);
  return problems;
}

function walk(node: unknown, at: string, problems: string[]): void {
  if (!isRecord(node)) {
    problems.push(`${at}: a schema must be an object`);
    return;
  }
  for (const keyword of Object.keys(node)) if (!ALLOWED.has(keyword)) problems.push(`${at}: "${keyword}" is outside the portable subset`);
  if ('anyOf' in node) {
    const branches = node.anyOf;
    if ('type' in node) problems.push(`${at}: anyOf beside a type`);
    if (!Array.isArray(branches) || branches.length < 2) problems.push(`${at}: anyOf needs two or more branches`);
    else
      branches.forEach((b, i) => {
        if (!isRecord(b) || typeof b.type !== 'string' || !SIMPLE_TYPES.has(b.type)) problems.push(`${at}.anyOf.${i}: a union branch must be a simple type`);
        else walk(b, `${at}.anyOf.${i}`, problems);
      });
    return;
  }
  const type = node.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    problems.push(`${at}: needs one type of ${[...TYPES].join(', ')} (found ${JSON.stringify(type)})`);
    return;
  }
  if ('enum' in node && !(Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((v) => typeof v === 'string') && type === 'string')) {
    problems.push(`${at}: enum must list strings on a string`);
  }
  if (type === 'object') {
    if (!isRecord(node.properties)) problems.push(`${at}: an object needs properties`);
    if (node.additionalProperties !== false) problems.push(`${at}: an object must be closed (additionalProperties: false)`);
    const properties = isRecord(node.properties) ? node.properties : {};
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !(r in properties)))
      problems.push(`${at}: required must name its properties`);
    for (const [name, sub] of Object.entries(properties)) walk(sub, at === '(root)' ? name : `${at}.${name}`, problems);
  } else if ('properties' in node || 'required' in node || 'additionalProperties' in node) {
    problems.push(`${at}: object keywords on a ${type}`);
  }
  if (type === 'array') {
    if (!isRecord(node.items)) problems.push(`${at}: an array needs one items schema`);
    else walk(node.items, `${at}[]`, problems);
  } else if ('items' in node) {
    problems.push(`${at}: items on a ${type}`);
  }
}
