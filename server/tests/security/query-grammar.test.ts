import { describe, expect, it } from 'vitest';
import { QueryGrammar, QueryShapeError, fieldKinds, relationParameters, type FieldSchema } from '../../src/security/query-grammar';

/**
 * The query grammar without Strapi (src/security/query-grammar.ts): the shapes global::input-rules
 * answers 400 (attacked over HTTP in bad-query.test.ts), on parsed query objects as strapi::query
 * hands them over.
 */

const SCHEMAS: FieldSchema[] = [
  {
    attributes: {
      ingredient_name: { type: 'string' },
      createdAt: { type: 'datetime' },
      price: { type: 'decimal' },
      active: { type: 'boolean' },
      remind_at: { type: 'time' },
      image: { type: 'media' },
      users: { type: 'relation' },
    },
  },
  // count is an integer in one schema and a decimal in another: whole numbers; label is text in one, a number in another.
  { attributes: { count: { type: 'integer' }, label: { type: 'string' }, bmi: { type: 'component' } } },
  { attributes: { count: { type: 'float' }, label: { type: 'integer' }, users: { type: 'integer' } } },
];

const grammar = new QueryGrammar(fieldKinds(SCHEMAS));

/** The path a refused query names, or null when the grammar accepts it. */
function refusedAt(query: Record<string, unknown>): string | null {
  try {
    grammar.query(query);
    return null;
  } catch (error) {
    if (error instanceof QueryShapeError) return error.path;
    throw error;
  }
}

describe('fieldKinds', () => {
  it('gives each field name the kind it has in every schema, and id an integer', () => {
    const kinds = fieldKinds(SCHEMAS);
    expect(kinds.get('id')).toBe('integer');
    expect(kinds.get('ingredient_name')).toBe('text');
    expect(kinds.get('createdAt')).toBe('date');
    expect(kinds.get('price')).toBe('number');
    expect(kinds.get('active')).toBe('boolean');
    expect(kinds.get('remind_at')).toBe('time');
    expect(kinds.get('image')).toBe('nested');
    expect(kinds.get('bmi')).toBe('nested');
    expect(kinds.get('count')).toBe('integer');
    expect(kinds.get('label')).toBe('text');
    // A relation in one schema and a value in another: no kind, values left to Strapi.
    expect(kinds.has('users')).toBe(false);
  });
});

describe('QueryGrammar', () => {
  it('accepts valid queries of every operator kind', () => {
    for (const query of [
      { filters: { ingredient_name: { $in: ['Eggs', 'Milk'] } }, sort: 'id:asc' },
      { filters: { $or: [{ id: { $eq: '1' } }, { id: { $eq: '2' } }] }, sort: { id: 'asc' } },
      { filters: { $and: [{ id: { $gte: '2' } }, { id: { $lt: '4' } }] }, sort: ['id', 'ingredient_name:desc'] },
      { filters: { id: { $between: ['5', '6'] } } },
      { filters: { ingredient_name: { $not: { $containsi: 'e' } } } },
      { filters: { createdAt: { $gt: '2000-01-01' }, id: { $containsi: '1' }, ingredient_name: { $contains: 'gg' } } },
      { filters: { ingredient_name: { $notNull: 'true' }, active: 'false', remind_at: '08:30', price: '-1.5' } },
      { filters: { image: { id: { $eq: '3' } }, bmi: { $and: [{ height: '180' }] } } },
      { filters: { id: '3' }, pagination: { page: '2', pageSize: '4' } },
      { pagination: { start: '1', limit: '1', withCount: 'false' }, fields: ['ingredient_name', 'id'] },
      { populate: { image: { fields: ['url'], populate: '*', filters: { id: '1' }, sort: 'id', count: 'true' } } },
      { populate: ['image', 'users'], _q: 'eggs' },
      { populate: { bmi: { on: { 'shared.bmi': 'true' } } } },
      { filters: { createdAt: { $lte: '2024-02-29T08:00:00Z' }, count: { $in: null } } },
    ]) {
      expect(refusedAt(query), JSON.stringify(query)).toBeNull();
    }
  });

  it.each([
    ['an operator given a scalar where it takes a list', { filters: { ingredient_name: { $in: 'x' } } }, 'filters[ingredient_name][$in]'],
    ['$and given a scalar', { filters: { $and: 'x' } }, 'filters[$and]'],
    ['a scalar in $or', { filters: { $or: ['x'] } }, 'filters[$or][0]'],
    ['an operator nested in an operator', { filters: { ingredient_name: { $eq: { $eq: 'x' } } } }, 'filters[ingredient_name][$eq]'],
    ['$not of $not given a scalar', { filters: { $not: { $not: { $not: 'x' } } } }, 'filters[$not][$not][$not]'],
    ['$between with one value', { filters: { id: { $between: ['1'] } } }, 'filters[id][$between]'],
    ['$null given an object', { filters: { id: { $null: { a: 'true' } } } }, 'filters[id][$null]'],
    ['an object in $in', { filters: { ingredient_name: { $in: [{ $eq: 'x' }] } } }, 'filters[ingredient_name][$in][0]'],
    ['an unknown operator', { filters: { id: { $where: '1' } } }, 'filters[id][$where]'],
    ['an operator next to fields', { filters: { $raw: 'x' } }, 'filters[$raw]'],
    ['a word for an integer', { filters: { id: 'abc' } }, 'filters[id]'],
    ['an integer beyond 32 bits', { filters: { id: { $gt: '2147483648' } } }, 'filters[id][$gt]'],
    ['a word for a decimal', { filters: { price: '1,5' } }, 'filters[price]'],
    ['a word for a boolean', { filters: { active: 'yes' } }, 'filters[active]'],
    ['a day that does not exist', { filters: { createdAt: '2023-02-29' } }, 'filters[createdAt]'],
    ['a word for a time', { filters: { remind_at: 'noon' } }, 'filters[remind_at]'],
    ['LIKE on a number', { filters: { id: { $contains: '1' } } }, 'filters[id][$contains]'],
    ['a relation compared directly', { filters: { image: '1' } }, 'filters[image]'],
    ['a relation given an operator', { filters: { image: { $eq: '1' } } }, 'filters[image]'],
    ['fields inside a plain field', { filters: { ingredient_name: { name: 'x' } } }, 'filters[ingredient_name]'],
    ['a list of sorts inside a sort', { sort: [['id']] }, 'sort[0]'],
    ['a sort object of a plain field', { sort: [{ ingredient_name: { x: 'asc' } }] }, 'sort[0][ingredient_name]'],
    ['an empty field name', { fields: ['id,'] }, 'fields[0]'],
    ['an object as a field name', { fields: { a: 'b' } }, 'fields'],
    ['an object in a populate list', { populate: [{ a: 'b' }] }, 'populate[0]'],
    ['a list as a populate entry', { populate: { image: ['url'] } }, 'populate[image]'],
    ['a word for populate count', { populate: { image: { count: 'many' } } }, 'populate[image][count]'],
    ['a scalar for populate on', { populate: { bmi: { on: 'x' } } }, 'populate[bmi][on]'],
    ['a page that is an object', { pagination: { page: { a: '1' } } }, 'pagination[page]'],
    ['a page that is a word', { pagination: { page: 'two' } }, 'pagination[page]'],
    ['pagination as a scalar', { pagination: '1' }, 'pagination'],
    ['a search that is a list', { _q: ['a', 'b'] }, '_q'],
  ] as const)('refuses %s, naming its path', (_label, query, path) => {
    expect(refusedAt(query)).toBe(path);
  });

  it('says what is wrong in its message', () => {
    expect(() => grammar.query({ filters: { id: 'abc' } })).toThrow('Invalid query: filters[id] must be a whole number, not "abc"');
    expect(() => grammar.query({ filters: { id: { $in: 'x' } } })).toThrow('Invalid query: filters[id][$in] takes a list of values');
  });
});

describe('relationParameters (the admin relation picker)', () => {
  const picker = '/content-manager/relations/api::ingredient.ingredient/abc123/users';
  const component = '/content-manager/relations/shared.bmi/12/users';

  it('accepts whole-number ids, a known search operator, and a component row id', () => {
    expect(() => relationParameters({ idsToOmit: ['1', '2'], idsToInclude: [], _filter: '$containsi' }, picker)).not.toThrow();
    expect(() => relationParameters({ id: '12' }, component)).not.toThrow();
    // A content type is found by its documentId: text.
    expect(() => relationParameters({ id: 'abc' }, picker)).not.toThrow();
  });

  it.each([
    ['ids that are not a list', { idsToOmit: '1' }, picker, 'idsToOmit'],
    ['an id that is a word', { idsToInclude: ['1', 'x'] }, picker, 'idsToInclude[1]'],
    ['an id that is an object', { idsToOmit: [{ a: '1' }] }, picker, 'idsToOmit[0]'],
    ['a search operator Strapi runs on any column', { _filter: '$between' }, picker, '_filter'],
    ["a component's row id that is a word", {}, '/content-manager/relations/shared.bmi/abc/users', 'id'],
    ["a component's id parameter that is a list", { id: ['1'] }, component, 'id'],
  ] as const)('refuses %s', (_label, query, path, at) => {
    expect(() => relationParameters(query, path)).toThrow(QueryShapeError);
    try {
      relationParameters(query, path);
    } catch (error) {
      expect((error as QueryShapeError).path).toBe(at);
    }
  });
});
