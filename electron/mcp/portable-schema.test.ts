// The portable-subset checker refuses each construct its rules name (the shapes the tools used
// to publish among them), and the projection moves limits and defaults into descriptions.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portabilityProblems, publishedSchema } from './portable-schema';

const root = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

describe('portabilityProblems', () => {
  it('accepts the subset: closed objects, typed properties, string enums, anyOf of simple types', () => {
    expect(
      portabilityProblems(
        root(
          {
            partition: { type: 'string', description: 'user:ORG/USER' },
            n: { anyOf: [{ type: 'string' }, { type: 'number' }] },
            mode: { type: 'string', enum: ['a', 'b'] },
            list: { type: 'array', items: root({ k: { type: 'string' } }, { required: ['k'] }) },
          },
          { required: ['partition'] },
        ),
      ),
    ).toEqual([]);
  });

  it.each([
    ['oneOf', root({ p: { oneOf: [{ type: 'string' }, { type: 'number' }] } }), /"oneOf" is outside/],
    ['allOf', root({ p: { allOf: [{ type: 'string' }] } }), /"allOf" is outside/],
    ['not', root({ p: { type: 'string', not: { const: 'x' } } }), /"not" is outside/],
    [
      'a union with an object branch',
      root({ p: { anyOf: [{ type: 'string' }, root({ k: { type: 'string' } })] } }),
      /p\.anyOf\.1: a union branch must be a simple type/,
    ],
    ['a nullable optional', root({ p: { anyOf: [{ type: 'string' }, { type: 'null' }] } }), /p\.anyOf\.1: a union branch must be a simple type/],
    ['an untyped property', root({ p: {} }), /p: needs one type/],
    ['a type list', root({ p: { type: ['string', 'null'] } }), /p: needs one type/],
    ['an open object', root({ p: { type: 'object', properties: {}, additionalProperties: {} } }), /p: an object must be closed/],
    ['a record', root({ p: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} } }), /"propertyNames" is outside/],
    ['patternProperties', root({ p: { type: 'object', properties: {}, additionalProperties: false, patternProperties: {} } }), /"patternProperties"/],
    ['a length limit', root({ p: { type: 'string', maxLength: 5 } }), /"maxLength" is outside/],
    ['a default', root({ p: { type: 'string', default: 'x' } }), /"default" is outside/],
    ['a const', root({ p: { type: 'string', const: 'x' } }), /"const" is outside/],
    ['a number enum', root({ p: { type: 'number', enum: [1, 2] } }), /enum must list strings/],
    ['a tuple', root({ p: { type: 'array', items: [{ type: 'string' }] } }), /an array needs one items schema/],
    ['a $ref', root({ p: { $ref: '#/definitions/x' } }), /"\$ref" is outside/],
    ['a required name that is no property', root({ p: { type: 'string' } }, { required: ['q'] }), /required must name its properties/],
  ])('refuses %s', (_what, schema, problem) => {
    expect(portabilityProblems(schema).join('\n')).toMatch(problem);
  });

  it('refuses a root that is not an object, and an open root', () => {
    expect(portabilityProblems({ type: 'string' })).toContain('(root): must be an object with properties');
    expect(portabilityProblems({ type: 'object', properties: {} }).join('\n')).toMatch(/\(root\): an object must be closed/);
  });

  it('refuses what the tools used to publish: a partition of oneOf objects or a string, a value of five types', () => {
    const oldPartition = {
      anyOf: [{ oneOf: [root({ kind: { type: 'string', const: 'user' } })] }, { type: 'string', maxLength: 500 }],
    };
    const oldValue = {
      anyOf: [
        { type: 'string' },
        { type: 'number' },
        { type: 'boolean' },
        { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        { type: 'array', items: {} },
      ],
    };
    const problems = portabilityProblems(root({ partition: oldPartition, value: oldValue }));
    expect(problems).toEqual(
      expect.arrayContaining([
        'partition.anyOf.0: a union branch must be a simple type',
        'value.anyOf.3: a union branch must be a simple type',
        'value.anyOf.4: a union branch must be a simple type',
      ]),
    );
  });
});

describe('publishedSchema', () => {
  it('keeps the shape, and writes limits and defaults into the description', () => {
    const schema = publishedSchema(
      z.strictObject({
        key: z.string().min(1).max(500),
        budget: z.number().int().min(0).max(2000).default(800).describe('Tokens'),
        facts: z
          .array(z.strictObject({ v: z.string() }))
          .min(1)
          .max(100),
        mode: z.enum(['a', 'b']).optional(),
      }),
    );
    expect(portabilityProblems(schema)).toEqual([]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        key: { type: 'string', description: 'Not empty; at most 500 characters' },
        budget: { type: 'integer', description: 'Tokens (default 800; at least 0; at most 2000)' },
        facts: {
          type: 'array',
          items: { type: 'object', properties: { v: { type: 'string' } }, required: ['v'], additionalProperties: false },
          description: 'At least one item; at most 100 items',
        },
        mode: { type: 'string', enum: ['a', 'b'] },
      },
      required: ['key', 'facts'],
      additionalProperties: false,
    });
  });
});
