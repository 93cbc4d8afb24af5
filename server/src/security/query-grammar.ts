/**
 * Strapi's query grammar, as far as shapes go (docs/security.md "No 5xx from bad input"): the query's
 * filters, sort, fields, populate and pagination, and the admin relation picker's own parameters. A
 * wrong shape (an operator given a scalar where it takes a list or an object, an operator nested in an
 * operator, a list where an object goes...) is a QueryShapeError with the path of the part in error.
 * Strapi checks names (unknown or private fields) but not shapes: these reached the database and
 * answered 500. Values compared with a number, boolean or date field must be one (PostgreSQL refuses
 * "abc" for an integer); $contains, $startsWith, $endsWith apply to text only (PostgreSQL has no LIKE
 * on numbers); a relation is filtered on its own fields. The field kinds come from the schemas by name
 * (fieldKinds). Everything else (which fields exist and may be read, sort directions, status, locale)
 * stays Strapi's. Pure: global::input-rules (src/middlewares/input-rules.ts) answers its errors.
 */

/** The relation picker's own parameters (/content-manager/relations/:model/...), see relationParameters. */
const RELATIONS = /^\/content-manager\/relations\/([^/]+)\/(?:([^/]+)\/)?[^/]+\/?$/i;
/** The picker's search operators that PostgreSQL runs on any column (they compare it cast to text). */
const RELATION_SEARCHES = new Set(['$containsi', '$notContainsi', '$startsWithi', '$endsWithi']);

export class QueryShapeError extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`Invalid query: ${path} ${what}`);
  }
}

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | null => typeof value === 'string' || value === null;

/** What a value compared with a field must look like, for fields that are numbers or booleans. */
export type FieldKind = 'integer' | 'biginteger' | 'number' | 'boolean' | 'date' | 'time' | 'text' | 'nested';

const COMPARISONS = new Set(['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte']);
const TEXT_MATCHES = new Set([
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
/** Compared as SQL LIKE without a cast: PostgreSQL has it for text only (the i- variants cast). */
const TEXT_ONLY_MATCHES = new Set(['$contains', '$notContains', '$startsWith', '$endsWith']);
const LISTS = new Set(['$in', '$notIn']);
const BOOLEANS = new Set(['true', 'false', 't', 'f', '1', '0']);
const INT32_MAX = 2 ** 31 - 1;
const DATE = /^([1-9]\d{3})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An ISO date (a real calendar day) with an optional time, or a timestamp in milliseconds. */
function isDate(value: string): boolean {
  if (/^\d{1,15}$/.test(value)) return true;
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1, 4).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && !Number.isNaN(Date.parse(value.replace(' ', 'T')));
}

function checkValue(value: string | null, path: string, kind: FieldKind | undefined): void {
  if (value === null || kind === undefined || kind === 'text' || kind === 'nested') return;
  const bad = (expected: string) => new QueryShapeError(path, `must be ${expected}, not "${value.slice(0, 40)}"`);
  switch (kind) {
    case 'integer':
      if (!/^-?\d{1,10}$/.test(value) || Math.abs(Number(value)) > INT32_MAX) throw bad('a whole number');
      return;
    case 'biginteger':
      if (!/^-?\d{1,18}$/.test(value)) throw bad('a whole number');
      return;
    case 'number':
      if (!/^-?\d{1,15}(\.\d{1,15})?$/.test(value)) throw bad('a number');
      return;
    case 'boolean':
      if (!BOOLEANS.has(value)) throw bad('true or false');
      return;
    case 'date':
      if (!isDate(value)) throw bad('a date (2024-01-31 or 2024-01-31T08:00:00Z)');
      return;
    case 'time':
      if (!/^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) throw bad('a time (08:30)');
  }
}

export class QueryGrammar {
  constructor(private readonly kinds: ReadonlyMap<string, FieldKind>) {}

  /** An object of fields (each with a value or operators) and of $and, $or, $not. */
  filters(value: unknown, path: string): void {
    if (!isPlain(value)) throw new QueryShapeError(path, 'must be an object of fields and $and, $or, $not');
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}[${key}]`;
      if (key === '$and' || key === '$or') this.filterList(item, at);
      else if (key === '$not') this.filters(item, at);
      else if (key.startsWith('$')) throw new QueryShapeError(at, 'is not allowed here: next to fields go only $and, $or and $not');
      else this.condition(item, at, key);
    }
  }

  /** Only a relation, component or media field holds fields of its own. */
  private nestable(field: string, path: string): void {
    const kind = this.kinds.get(field);
    if (kind !== undefined && kind !== 'nested') throw new QueryShapeError(path, `cannot hold fields: ${field} is not a relation`);
  }

  private filterList(value: unknown, path: string): void {
    if (!Array.isArray(value)) throw new QueryShapeError(path, 'must be a list of filter objects');
    value.forEach((item, index) => this.filters(item, `${path}[${index}]`));
  }

  /** What a field is compared with: a value, a list (as $in), operators, or (a relation or component) filters of its own. */
  private condition(value: unknown, path: string, field: string): void {
    // A relation, component or media is filtered on its own fields; compared directly, it reached SQL as is.
    const nestedOnly = () => new QueryShapeError(path, `is a relation or component: filter on its fields, e.g. ${path}[id]`);
    if (this.kinds.get(field) === 'nested' && !isPlain(value)) throw nestedOnly();
    if (isScalar(value)) return checkValue(value, path, this.kinds.get(field));
    if (Array.isArray(value)) return this.values(value, path, field);
    const entries = Object.entries(value as Plain);
    if (entries.some(([key]) => !key.startsWith('$'))) {
      this.nestable(field, path);
      return this.filters(value, path);
    }
    for (const [operator, item] of entries) {
      const at = `${path}[${operator}]`;
      const kind = this.kinds.get(field);
      if (kind === 'nested' && !['$and', '$or', '$not'].includes(operator)) throw nestedOnly();
      if (COMPARISONS.has(operator)) {
        if (!isScalar(item)) throw new QueryShapeError(at, 'takes a single value');
        checkValue(item, at, kind);
      } else if (TEXT_MATCHES.has(operator)) {
        if (!isScalar(item)) throw new QueryShapeError(at, 'takes a single value');
        if (TEXT_ONLY_MATCHES.has(operator) && kind !== undefined && kind !== 'text') {
          throw new QueryShapeError(at, `applies to text fields only (${field} is not text; ${operator}i compares it as text)`);
        }
      } else if (LISTS.has(operator)) {
        if (item !== null) this.values(item, at, field);
      } else if (operator === '$between') {
        if (!Array.isArray(item) || item.length !== 2) throw new QueryShapeError(at, 'takes a list of two values');
        this.values(item, at, field);
      } else if (operator === '$null' || operator === '$notNull') {
        if (!isScalar(item)) throw new QueryShapeError(at, 'must be true or false');
        checkValue(item, at, 'boolean');
      } else if (operator === '$not') {
        this.condition(item, at, field);
      } else if (operator === '$and' || operator === '$or') {
        // Strapi combines filter objects (of this relation's fields), not operators of one field.
        this.filterList(item, at);
      } else {
        throw new QueryShapeError(at, 'is not a filter operator');
      }
    }
  }

  private values(value: unknown, path: string, field: string): void {
    if (!Array.isArray(value)) throw new QueryShapeError(path, 'takes a list of values');
    value.forEach((item, index) => {
      if (!isScalar(item)) throw new QueryShapeError(`${path}[${index}]`, 'must be a single value');
      checkValue(item, `${path}[${index}]`, this.kinds.get(field));
    });
  }

  /** "name", "name:desc", "a,b", a list of those or of objects; an object { field: 'asc' | { relation field: ... } }. */
  sort(value: unknown, path: string, nested = false): void {
    if (typeof value === 'string') return;
    if (Array.isArray(value) && !nested) return value.forEach((item, index) => this.sort(item, `${path}[${index}]`, true));
    if (!isPlain(value)) throw new QueryShapeError(path, 'must be a field name ("name:asc"), a list of them, or an object { name: "asc" }');
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') continue;
      this.nestable(key, `${path}[${key}]`);
      this.sort(item, `${path}[${key}]`, true);
    }
  }

  /** "name", "a,b" or a list of field names. */
  fields(value: unknown, path: string): void {
    const names = Array.isArray(value) ? value : [value];
    names.forEach((name, index) => {
      const at = Array.isArray(value) ? `${path}[${index}]` : path;
      if (typeof name !== 'string') throw new QueryShapeError(at, 'must be a field name or a list of field names');
      if (name.split(',').some((part) => part.trim() === '')) throw new QueryShapeError(at, 'must name a field');
    });
  }

  /** "*", "a,b", a list of relation names, or an object { relation: true | "*" | { populate, fields, filters, sort, on, count } }. */
  populate(value: unknown, path: string): void {
    if (typeof value === 'string') return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (typeof item !== 'string') throw new QueryShapeError(`${path}[${index}]`, 'must be a relation name');
      });
      return;
    }
    if (!isPlain(value)) throw new QueryShapeError(path, 'must be "*", a relation name, a list of them, or an object');
    for (const [relation, item] of Object.entries(value)) {
      const at = `${path}[${relation}]`;
      if (typeof item === 'string') continue;
      if (!isPlain(item)) throw new QueryShapeError(at, 'must be true, "*" or an object of populate, fields, filters, sort');
      for (const [key, inner] of Object.entries(item)) {
        const innerAt = `${at}[${key}]`;
        if (key === 'populate') this.populate(inner, innerAt);
        else if (key === 'fields') this.fields(inner, innerAt);
        else if (key === 'filters') this.filters(inner, innerAt);
        else if (key === 'sort') this.sort(inner, innerAt);
        else if (key === 'count') {
          if (!isScalar(inner)) throw new QueryShapeError(innerAt, 'must be true or false');
          checkValue(inner, innerAt, 'boolean');
        } else if (key === 'on') {
          if (!isPlain(inner)) throw new QueryShapeError(innerAt, 'must be an object of components');
          this.populate(inner, innerAt);
        }
      }
    }
  }

  /** { page, pageSize } or { start, limit }, whole numbers; withCount a boolean. */
  pagination(value: unknown, path: string): void {
    if (!isPlain(value)) throw new QueryShapeError(path, 'must be an object of page and pageSize, or start and limit');
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}[${key}]`;
      if (!isScalar(item)) throw new QueryShapeError(at, 'takes a single value');
      if (key === 'withCount') checkValue(item, at, 'boolean');
      else if (['page', 'pageSize', 'start', 'limit'].includes(key)) checkValue(item, at, 'integer');
    }
  }

  query(query: Plain): void {
    if ('filters' in query) this.filters(query.filters, 'filters');
    if ('sort' in query) this.sort(query.sort, 'sort');
    if ('fields' in query) this.fields(query.fields, 'fields');
    if ('populate' in query) this.populate(query.populate, 'populate');
    if ('pagination' in query) this.pagination(query.pagination, 'pagination');
    if ('_q' in query && !isScalar(query._q)) throw new QueryShapeError('_q', 'must be a single value');
  }
}

/**
 * The kind of every field name of the project's content types and components (id in all): nested
 * where it is a relation, component or media in every schema; a number, boolean, date or time where
 * it is one in every schema (an integer in one and a decimal in another takes whole numbers); else
 * text (values left to Strapi). A name that is a relation in one schema and a value in another has none.
 */
const KIND_OF_TYPE: Record<string, FieldKind> = {
  integer: 'integer',
  biginteger: 'biginteger',
  decimal: 'number',
  float: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'date',
  timestamp: 'date',
  time: 'time',
};
const NUMBERS: FieldKind[] = ['integer', 'biginteger', 'number'];
const NESTING = ['relation', 'component', 'media', 'dynamiczone'];

/** A content type's or component's schema, as far as its field kinds go. */
export interface FieldSchema {
  attributes: Record<string, { type: string }>;
}

export function fieldKinds(schemas: readonly FieldSchema[]): Map<string, FieldKind> {
  const seen = new Map<string, Set<string>>();
  for (const schema of schemas) {
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (!seen.has(name)) seen.set(name, new Set());
      seen.get(name)!.add(attribute.type);
    }
  }
  const kinds = new Map<string, FieldKind>([['id', 'integer']]);
  for (const [name, types] of seen) {
    if (name === 'id') continue;
    const all = [...types];
    if (all.every((type) => NESTING.includes(type))) kinds.set(name, 'nested');
    if (all.some((type) => NESTING.includes(type))) continue;
    const each = new Set(all.map((type) => KIND_OF_TYPE[type] ?? 'text'));
    if (each.size === 1) kinds.set(name, [...each][0]);
    else if ([...each].every((kind) => NUMBERS.includes(kind))) kinds.set(name, each.has('integer') ? 'integer' : 'number');
    else kinds.set(name, 'text');
  }
  return kinds;
}

/**
 * The relation picker reads ids to leave out or in (row ids: whole numbers), a search operator
 * (`_filter`, any where-operator to Strapi) and, for a component, the component row's id: each
 * reached SQL as sent (PostgreSQL refuses "abc" for an id, $between takes two values).
 */
export function relationParameters(query: Plain, path: string): void {
  for (const key of ['idsToOmit', 'idsToInclude']) {
    if (!(key in query)) continue;
    const ids = query[key];
    if (!Array.isArray(ids)) throw new QueryShapeError(key, 'takes a list of ids');
    ids.forEach((id, index) => {
      if (typeof id !== 'string') throw new QueryShapeError(`${key}[${index}]`, 'must be a single value');
      checkValue(id, `${key}[${index}]`, 'integer');
    });
  }
  if ('_filter' in query && !(typeof query._filter === 'string' && RELATION_SEARCHES.has(query._filter))) {
    throw new QueryShapeError('_filter', `must be one of ${[...RELATION_SEARCHES].join(', ')}`);
  }
  const [, model, pathId] = RELATIONS.exec(path) ?? [];
  // A component (its UID has no "::") is found by its row id; a content type by its documentId (text).
  if (model !== undefined && !model.includes('::')) {
    if (pathId !== undefined) checkValue(pathId, 'id', 'integer');
    if ('id' in query) {
      if (!isScalar(query.id)) throw new QueryShapeError('id', 'takes a single value');
      checkValue(query.id, 'id', 'integer');
    }
  }
}
