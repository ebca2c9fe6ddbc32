// Pages whose data is only in the visible content: spec tables (header column -> object), price tables (header
// row -> array of objects), definition lists and inline label/value pairs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../../src/scrape/extract/dom.js';
import { extractMetadata } from '../../../../src/scrape/extract/metadata.js';
import { fillFromFacts, readContentFacts, readPageFacts } from '../../../../src/scrape/structured/rules/index.js';
import { BOOLEAN, INTEGER, NUMBER, STRING, STRINGS, arrayOf, extract, fixture, objectSchema } from './helpers.js';

describe('specs table and price list table', () => {
  const out = extract(
    'specs-table.html',
    objectSchema({
      weight: STRING,
      volume: NUMBER,
      material: STRING,
      color: STRING,
      rain_cover_included: BOOLEAN,
      warranty: STRING,
      price: NUMBER,
      brand: STRING,
      sizes: arrayOf({ size: STRING, torso_length: STRING, price: NUMBER, in_stock: BOOLEAN }),
    }),
  );

  test('the header column table fills the object', () => {
    assert.equal(out['weight'], '1.35 kg');
    assert.equal(out['volume'], 45);
    assert.equal(out['material'], 'Recycled nylon ripstop');
    assert.equal(out['color'], 'Forest green');
    assert.equal(out['rain_cover_included'], true);
    assert.equal(out['warranty'], '5 years');
  });

  test('the header row table becomes an array of objects, cells coerced', () => {
    assert.deepEqual(out['sizes'], [
      { size: 'S', torso_length: '40–46 cm', price: 189, in_stock: true },
      { size: 'M', torso_length: '45–51 cm', price: 199, in_stock: true },
      { size: 'L', torso_length: '50–56 cm', price: 209, in_stock: false },
    ]);
  });

  test('one price per size is no single price; no brand stated: both null', () => {
    assert.equal(out['price'], null);
    assert.equal(out['brand'], null);
  });

  test('a nested object is filled from the labels when asked by its properties', () => {
    const r = extract('specs-table.html', objectSchema({ specs: objectSchema({ weight: STRING, material: STRING }) }));
    assert.deepEqual(r['specs'], { weight: '1.35 kg', material: 'Recycled nylon ripstop' });
  });
});

describe('definition list spec page', () => {
  // Read from the body: the facts of a dl, whatever main-content extraction keeps of it.
  const page = parsePage(fixture('dl-specs.html'));
  const metadata = extractMetadata(page, 'https://example.com/grinder');
  const facts = readPageFacts(page, 'https://example.com/grinder');
  const content = readContentFacts(page.body);
  const schema = objectSchema({
    brand: STRING,
    burr_size: STRING,
    motor_power: INTEGER,
    hopper_capacity: STRING,
    colors: STRINGS,
    price: NUMBER,
    weight: STRING,
  });
  const out = fillFromFacts({ schema }, facts, content, metadata);

  test('dt -> dd pairs, dt/dd grouped in a div, several dd as an array', () => {
    assert.equal(out['brand'], 'Kornwerk');
    assert.equal(out['burr_size'], '54 mm');
    assert.equal(out['motor_power'], 250);
    assert.equal(out['hopper_capacity'], '300 g');
    assert.deepEqual(out['colors'], ['Black', 'White', 'Steel']);
    assert.equal(out['price'], 449);
    assert.equal(out['weight'], null);
  });

  test('through the whole pipeline (main content) the plain dt/dd pairs are found', () => {
    const r = extract('dl-specs.html', schema);
    assert.equal(r['brand'], 'Kornwerk');
    assert.equal(r['motor_power'], 250);
    assert.equal(r['weight'], null);
  });
});

describe('label/value pairs', () => {
  const out = extract(
    'label-value.html',
    objectSchema({
      company: STRING,
      location: STRING,
      salary: STRING,
      employment_type: STRING,
      start_date: STRING,
      team_size: INTEGER,
      remote_days: INTEGER,
      deadline: STRING,
      benefits: STRING,
      contact_email: STRING,
    }),
  );

  test('<strong>Label:</strong> lines split at <br>, labelled spans, "Label: value" list items', () => {
    assert.equal(out['company'], 'Northwind Analytics');
    assert.equal(out['location'], 'Lisbon, Portugal (hybrid)');
    assert.equal(out['salary'], '€65,000 – €80,000 per year');
    assert.equal(out['employment_type'], 'Full-time');
    assert.equal(out['start_date'], '1 September 2024');
    assert.equal(out['team_size'], 8);
    assert.equal(out['remote_days'], 3);
    assert.equal(out['deadline'], '2024-07-31');
  });

  test('unstated: null', () => {
    assert.equal(out['benefits'], null);
    assert.equal(out['contact_email'], null);
  });
});

describe('readContentFacts', () => {
  test('times and URLs are not labels', () => {
    const page = parsePage('<body><ul><li>10:30 start</li><li>See https://example.com/x</li><li>Open: 10:30</li></ul>');
    const { pairs } = readContentFacts(page.body);
    assert.deepEqual(
      pairs.map((p) => [p.label, p.values]),
      [['Open', ['10:30']]],
    );
  });
});
