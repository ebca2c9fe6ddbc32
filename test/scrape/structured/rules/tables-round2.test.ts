// Record-table columns found by more than their exact header: the list's noun for the row's name ("Plan" for
// plans[].name), unit-suffixed numbers by a header containing their words ("Floor area" for area_m2, in m²
// or ha), a header containing the name's last word when only one does ("Price / mo" for monthly_price); and
// a currency stated only in the amounts read ("€190" -> EUR).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { currencyOfAmount } from '../../../../src/scrape/structured/rules/units.js';
import { INTEGER, NUMBER, STRING, arrayOf, extract, objectSchema } from './helpers.js';

describe('record table columns', () => {
  const out = extract(
    'plans-table.html',
    objectSchema({
      plans: arrayOf({ name: STRING, area_m2: NUMBER, desks: INTEGER, monthly_price: NUMBER, setup_fee: NUMBER }),
      currency: STRING,
    }),
  );

  test('row names, unit columns, last-word columns', () => {
    assert.deepEqual(out['plans'], [
      { name: 'Hot desk', area_m2: null, desks: 1, monthly_price: 190, setup_fee: null },
      { name: 'Studio', area_m2: 12, desks: 2, monthly_price: 640, setup_fee: null },
      { name: 'Team room', area_m2: 5000, desks: 8, monthly_price: 2100, setup_fee: null },
    ]);
  });

  test('negative: a last word two headers contain ("Fee (monthly)", "Fee (yearly)") picks neither', () => {
    assert.ok(Array.isArray(out['plans']));
    for (const plan of out['plans'] as Array<Record<string, unknown>>) assert.equal(plan['setup_fee'], null);
  });

  test('the currency the amounts read are written in', () => {
    assert.equal(out['currency'], 'EUR');
  });

  test('negative: amounts in two currencies state none', () => {
    const mixed = extract(
      'plans-table.html',
      objectSchema({ plans: arrayOf({ name: STRING, monthly_price: NUMBER }), setup: NUMBER, currency: STRING }),
    );
    assert.equal(mixed['setup'], 20);
    assert.equal(mixed['currency'], null);
  });

  test('currency signs and codes', () => {
    assert.equal(currencyOfAmount('£13,750'), 'GBP');
    assert.equal(currencyOfAmount('1.299,00 EUR'), 'EUR');
    assert.equal(currencyOfAmount('CA$ 40'), 'CAD');
    assert.equal(currencyOfAmount('$12'), 'USD');
    assert.equal(currencyOfAmount('XY$ 12'), null);
    assert.equal(currencyOfAmount('12 units'), null);
  });
});
