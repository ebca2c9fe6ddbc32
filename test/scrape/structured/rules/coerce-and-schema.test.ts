// Coercion of stated values to the schema's types, and the schema features the filler follows ($ref, anyOf,
// type unions, maxItems, enum).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNumber, toBoolean, toInteger, matchEnum } from '../../../../src/scrape/structured/rules/coerce.js';
import { parseLenient } from '../../../../src/scrape/structured/rules/jsonld.js';
import { normalizeKey } from '../../../../src/scrape/structured/rules/keys.js';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import { NUMBER, STRING, STRINGS, extract, objectSchema } from './helpers.js';

const ctx = { byId: new Map(), decimalComma: false };

describe('numbers', () => {
  test('currency formats', () => {
    assert.equal(parseNumber('$1,299.00', false), 1299);
    assert.equal(parseNumber('1.299,00 €', false), 1299);
    assert.equal(parseNumber('1 299,50 €', true), 1299.5);
    assert.equal(parseNumber("CHF 1'299.–", false), 1299);
    assert.equal(parseNumber('4.5 out of 5', false), 4.5);
    assert.equal(parseNumber('-12.5', false), -12.5);
    assert.equal(parseNumber('Free', false), null);
  });

  test('a lone separator before three digits: thousands, unless the language writes decimal commas', () => {
    assert.equal(parseNumber('1,299', false), 1299);
    assert.equal(parseNumber('1,299', true), 1.299);
    assert.equal(parseNumber('1.299', false), 1.299);
    assert.equal(parseNumber('1.299', true), 1299);
    assert.equal(parseNumber('0,5', false), 0.5);
  });

  test('integers: counts have no decimals', () => {
    assert.equal(toInteger('1.234 reviews', ctx), 1234);
    assert.equal(toInteger('1,234', ctx), 1234);
    assert.equal(toInteger('12', ctx), 12);
  });
});

describe('booleans and enums', () => {
  test('words for yes and no, schema.org availability', () => {
    assert.equal(toBoolean('Yes', ctx), true);
    assert.equal(toBoolean('in stock', ctx), true);
    assert.equal(toBoolean('https://schema.org/InStock', ctx), true);
    assert.equal(toBoolean('Sold out', ctx), false);
    assert.equal(toBoolean('maybe', ctx), null);
  });

  test('enum members case- and separator-insensitively, else null', () => {
    assert.equal(matchEnum('instock', ['InStock', 'OutOfStock']), 'InStock');
    assert.equal(matchEnum('in_stock', ['InStock']), 'InStock');
    assert.equal(matchEnum('Discontinued', ['InStock', 'OutOfStock']), null);
  });
});

describe('names', () => {
  test('case, separators and spaces do not count', () => {
    assert.equal(normalizeKey('datePublished'), normalizeKey('date_published'));
    assert.equal(normalizeKey('Date published:'), normalizeKey('date-published'));
  });
});

describe('lenient JSON-LD', () => {
  test('comments, CDATA, trailing commas and raw newlines in strings', () => {
    assert.deepEqual(parseLenient('<!-- {"a": [1, 2,],} -->'), { a: [1, 2] });
    assert.deepEqual(parseLenient('//<![CDATA[\n{"a": "x"}\n//]]>'), { a: 'x' });
    assert.deepEqual(parseLenient('{"a": "line one\nline two"}'), { a: 'line one line two' });
    assert.equal(parseLenient('{not json'), undefined);
  });
});

describe('schema features', () => {
  test('$ref to $defs, anyOf with null, type unions, maxItems', () => {
    const out = extract('product-jsonld.html', {
      type: 'object',
      $defs: { money: { type: ['number', 'null'] } },
      properties: {
        price: { $ref: '#/$defs/money' },
        name: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        images: { type: 'array', items: { type: 'string' }, maxItems: 1 },
      },
    });
    assert.deepEqual(out, {
      price: 1299,
      name: 'Aeron Chair, Size B',
      images: ['https://example.com/img/aeron-1.jpg'],
    });
  });

  test('a product_ prefix is read as the entity property; arrays from single values and back', () => {
    const out = extract(
      'product-jsonld.html',
      objectSchema({ product_name: STRING, product_price: NUMBER, brand: STRINGS, image: STRING }),
    );
    assert.deepEqual(out, {
      product_name: 'Aeron Chair, Size B',
      product_price: 1299,
      brand: ['Herman Miller'],
      image: 'https://example.com/img/aeron-1.jpg',
    });
  });

  test('a property named __proto__ is a plain key', () => {
    const out = extractJsonByRules('<p>x</p>', 'https://example.com/', {
      schema: { type: 'object', properties: { ['__proto__']: STRING } },
    });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'));
  });

  test('an empty page: every property null', () => {
    const out = extractJsonByRules('', 'https://example.com/', {
      schema: objectSchema({ name: STRING, price: NUMBER, tags: STRINGS }),
    });
    assert.deepEqual(out, { name: null, price: null, tags: null });
  });
});
