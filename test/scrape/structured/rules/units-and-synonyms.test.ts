// Unit-suffixed names (weight_kg, storage_gb, *_minutes, price_eur), the spec-word and de/fr/es label
// synonyms, headed lists and leading-label list items, and the JSON-LD shapes read since the benchmark's
// development pages: FAQ questions, opening hours per day, salary range, remote, paywalled, format: date.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { amountIn, isoDurationSeconds, unitOfName } from '../../../../src/scrape/structured/rules/units.js';
import { BOOLEAN, INTEGER, NUMBER, STRING, STRINGS, arrayOf, extract, objectSchema } from './helpers.js';

const NO_IDS = new Map();
const unit = (name: string) => {
  const u = unitOfName(name);
  assert.ok(u, name);
  return u.unit;
};

describe('unit table', () => {
  test('names ending in a unit', () => {
    assert.deepEqual(unitOfName('weight_kg')?.base, 'weight');
    assert.deepEqual(unitOfName('cookTimeInMinutes')?.base, 'cook time');
    assert.deepEqual(unitOfName('temperature_rating_c')?.base, 'temperature rating');
    assert.equal(unitOfName('kg'), null);
    assert.equal(unitOfName('brand_name'), null);
  });

  test('values convert within a dimension, and are refused across dimensions or with unknown words', () => {
    assert.equal(amountIn('1 TB', unit('storage_gb'), NO_IDS, false), 1000);
    assert.equal(amountIn('1.29 kg (2.84 lb)', unit('weight_g'), NO_IDS, false), 1290);
    assert.equal(amountIn('PT1H15M', unit('total_minutes'), NO_IDS, false), 75);
    assert.equal(amountIn('1 hr 15 mins', unit('total_minutes'), NO_IDS, false), 75);
    assert.equal(amountIn('-40 °F', unit('rating_c'), NO_IDS, false), -40);
    assert.equal(amountIn('24,8 kg', unit('weight_kg'), NO_IDS, true), 24.8);
    assert.equal(amountIn('0.4', unit('weight_kg'), NO_IDS, false), 0.4);
    // Negative cases: another dimension, an unknown word after the number, another currency.
    assert.equal(amountIn('1 TB', unit('ram_wh'), NO_IDS, false), null);
    assert.equal(amountIn('up to 14 hours', unit('battery_wh'), NO_IDS, false), null);
    assert.equal(amountIn('8 cores', unit('cpu_ghz'), NO_IDS, false), null);
    assert.equal(amountIn('$12.00', unit('price_eur'), NO_IDS, false), null);
    assert.equal(amountIn('€12,50', unit('price_eur'), NO_IDS, true), 12.5);
    assert.equal(isoDurationSeconds('PT35M'), 2100);
    assert.equal(isoDurationSeconds('P'), null);
  });
});

describe('unit-suffixed properties on a page', () => {
  const out = extract(
    'units-spec.html',
    objectSchema({
      weight_g: NUMBER,
      storage_gb: INTEGER,
      ram_gb: INTEGER,
      battery_wh: NUMBER,
      screen_size_in: NUMBER,
      charging_power_w: NUMBER,
      price_usd: NUMBER,
      price_eur: NUMBER,
      standby_minutes: INTEGER,
    }),
  );

  test('structured QuantitativeValue with a unit code converts (0.61 KGM -> 610 g)', () => {
    assert.equal(out['weight_g'], 610);
  });

  test('visible spec labels without the unit, values converted (1 TB -> 1000 GB, 2 h 30 min -> 150)', () => {
    assert.equal(out['storage_gb'], 1000);
    assert.equal(out['screen_size_in'], 12.4);
    assert.equal(out['standby_minutes'], 150);
    assert.equal(out['price_usd'], 549);
  });

  test('a label containing the words ("Max. charging power (wired)") is read for a unit name', () => {
    assert.equal(out['charging_power_w'], 45);
  });

  test('never a value in another unit: "1 TB" is no RAM in GB... it converts; hours are no Wh; USD is no EUR', () => {
    // The Memory row states 1 TB: a stated, convertible amount (1000), not 1.
    assert.equal(out['ram_gb'], 1000);
    assert.equal(out['battery_wh'], null);
    assert.equal(out['price_eur'], null);
  });
});

describe('German labels, headed lists, leading-label list items', () => {
  const out = extract(
    'multilingual-spec.html',
    objectSchema({
      brand: STRING,
      weight_kg: NUMBER,
      power_w: NUMBER,
      warranty_years: INTEGER,
      warranty_months: INTEGER,
      color: STRING,
      lieferumfang: STRINGS,
      height_cm: NUMBER,
    }),
  );

  test('Marke, Gewicht, Leistung, Garantie, Farbe; decimal commas and thousands dots', () => {
    assert.equal(out['brand'], 'Röstwerk');
    assert.equal(out['weight_kg'], 4.2);
    assert.equal(out['power_w'], 1200);
    assert.equal(out['warranty_years'], 3);
    assert.equal(out['warranty_months'], 36);
    assert.equal(out['color'], 'Schwarz');
  });

  test('a heading followed by a list gives the list', () => {
    assert.deepEqual(out['lieferumfang'], ['Mühle', 'Pinsel', 'Anleitung']);
  });

  test('nothing stated, nothing filled', () => {
    assert.equal(out['height_cm'], null);
  });
});

describe('related products and qualifiers are not the item', () => {
  test('"Old price" is not the price; a related product\'s weight is not read for a unit name', () => {
    const out = extract('units-spec.html', objectSchema({ old_price_usd: NUMBER, weight_lb: NUMBER, price: NUMBER }));
    assert.equal(out['price'], 549);
    // weight_lb: the structured 0.61 kg converts; the related block's "0.48 kg" is never used.
    assert.ok(Math.abs((out['weight_lb'] as number) - 1.3448) < 0.001);
  });
});

describe('FAQ, opening hours, job, paywall, dates', () => {
  const out = extract(
    'faq-hours-job.html',
    objectSchema({
      faqs: arrayOf({ question: STRING, answer: STRING }),
      hours: arrayOf({ day: STRING, opens: STRING, closes: STRING }),
      takes_reservations: BOOLEAN,
      address: objectSchema({ street: STRING, city: STRING, zip: STRING }),
      author: STRING,
    }),
  );

  test('FAQPage questions become {question, answer}', () => {
    assert.deepEqual(out['faqs'], [
      { question: 'Do you cater?', answer: 'Yes, for 10 to 80 guests.' },
      { question: 'Is there parking?', answer: 'Two spaces behind the shop.' },
    ]);
  });

  test('an OpeningHoursSpecification with several days is one row per day', () => {
    assert.deepEqual(out['hours'], [
      { day: 'Monday', opens: '08:00', closes: '16:00' },
      { day: 'Tuesday', opens: '08:00', closes: '16:00' },
      { day: 'Saturday', opens: '09:00', closes: '14:00' },
    ]);
  });

  test('a nested address object reads the PostalAddress parts; acceptsReservations', () => {
    assert.deepEqual(out['address'], { street: '4 Quay Lane', city: 'Kinsale', zip: 'P17 X228' });
    assert.equal(out['takes_reservations'], false);
  });

  test("a review's author is not the restaurant's author", () => {
    assert.equal(out['author'], null);
  });

  test('salary range, period, remote, format: date, paywalled', () => {
    const job = extract(
      'faq-hours-job.html',
      objectSchema({
        title: STRING,
        salary_min: NUMBER,
        salary_max: NUMBER,
        salary_period: { type: 'string', enum: ['HOUR', 'MONTH', 'YEAR'] },
        remote: BOOLEAN,
        valid_through: { type: 'string', format: 'date' },
      }),
    );
    assert.deepEqual(job, {
      title: 'Deli assistant',
      salary_min: 28000,
      salary_max: 32000,
      salary_period: 'YEAR',
      remote: true,
      valid_through: '2024-07-31',
    });
    const news = extract(
      'faq-hours-job.html',
      objectSchema({
        headline: STRING,
        paywalled: BOOLEAN,
        free: BOOLEAN,
        published: { type: 'string', format: 'date-time' },
      }),
    );
    assert.equal(news['paywalled'], true);
    assert.equal(news['free'], false);
    // format date-time keeps the stated timestamp.
    assert.equal(news['published'], '2024-05-02T09:30:00+01:00');
  });

  test('paywalled is never read from a string property', () => {
    const s = extract('faq-hours-job.html', objectSchema({ headline: STRING, paywalled: NUMBER }));
    assert.equal(s['paywalled'], null);
  });
});
