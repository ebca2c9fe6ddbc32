// Opening hours written as text (schema.org's openingHours "Mo-Fr 10:00-19:00", visible day tables, de/en
// words, ranges and closed days) read into one element per day; page titles without the site's name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hoursFromPair, hoursFromText } from '../../../../src/scrape/structured/rules/hours.js';
import { BOOLEAN, STRING, arrayOf, extract, objectSchema } from './helpers.js';

const days = (items: ReturnType<typeof hoursFromText>): unknown[] =>
  (items ?? []).map((i) => [i.props.get('dayofweek')?.[0], i.props.get('opens')?.[0], i.props.get('closes')?.[0]]);

describe('hours texts', () => {
  test('openingHours text, day ranges and lists, 12-hour clocks', () => {
    assert.deepEqual(days(hoursFromText('Sa,Su 10:00-14:00')), [
      ['Saturday', '10:00', '14:00'],
      ['Sunday', '10:00', '14:00'],
    ]);
    assert.equal(hoursFromText('Mo-Fr 09:00-18:00')?.length, 5);
    assert.deepEqual(days(hoursFromPair('Saturday', '8:00 AM – 12:00 PM')), [['Saturday', '08:00', '12:00']]);
    assert.deepEqual(
      days(hoursFromPair('Fri to Mon', '5pm-11:30pm')).map((d) => (d as string[])[0]),
      ['Friday', 'Saturday', 'Sunday', 'Monday'],
    );
    assert.equal(hoursFromPair('Sunday', 'Closed')?.[0]?.props.get('closed')?.[0], true);
  });

  test('negative: not days, not hours, or more than one range', () => {
    assert.equal(hoursFromPair('Delivery', '8:00–10:00'), null);
    assert.equal(hoursFromPair('Monday', 'by appointment'), null);
    assert.equal(hoursFromPair('Monday', '9:00–12:00, 14:00–18:00'), null);
    assert.equal(hoursFromPair('Monday', '13:75–18:00'), null);
    assert.equal(hoursFromText('Open daily 10:00-18:00'), null);
  });
});

describe('opening hours on pages', () => {
  test('openingHours strings of the entity: one element per day', () => {
    const out = extract(
      'hours-text.html',
      objectSchema({ opening_hours: arrayOf({ day: STRING, opens: STRING, closes: STRING }) }),
    );
    assert.deepEqual(out['opening_hours'], [
      { day: 'Monday', opens: '10:00', closes: '19:00' },
      { day: 'Tuesday', opens: '10:00', closes: '19:00' },
      { day: 'Wednesday', opens: '10:00', closes: '19:00' },
      { day: 'Thursday', opens: '10:00', closes: '19:00' },
      { day: 'Friday', opens: '10:00', closes: '19:00' },
      { day: 'Saturday', opens: '10:00', closes: '16:00' },
    ]);
  });

  test('a visible table of days (German), closed days; rows that state no hours are left out', () => {
    const out = extract(
      'hours-text.html',
      objectSchema({ workshop_hours: arrayOf({ day: STRING, open: STRING, close: STRING, closed: BOOLEAN }) }),
    );
    assert.deepEqual(out['workshop_hours'], [
      { day: 'Tuesday', open: '09:00', close: '18:00', closed: false },
      { day: 'Wednesday', open: '09:00', close: '18:00', closed: false },
      { day: 'Thursday', open: '09:00', close: '18:00', closed: false },
      { day: 'Friday', open: '09:00', close: '14:30', closed: false },
      { day: 'Saturday', open: null, close: null, closed: true },
      { day: 'Sunday', open: null, close: null, closed: true },
    ]);
  });

  test('negative: a single day line is not an hours table', () => {
    const out = extract('hours-one-line.html', objectSchema({ hours: arrayOf({ day: STRING, opens: STRING }) }));
    assert.equal(out['hours'], null);
  });
});

describe('page titles', () => {
  test('the h1 when the title starts with it, up to a separator', () => {
    assert.equal(extract('title-h1.html', objectSchema({ title: STRING }))['title'], 'Kestrel Ridge Trail');
  });

  test('a " – <og:site_name>" suffix is dropped', () => {
    assert.equal(extract('title-suffix.html', objectSchema({ name: STRING }))['name'], 'Walnut desk lamp');
  });

  test('negative: a title neither starting with the h1 nor ending in the site name is kept', () => {
    assert.equal(
      extract('hours-one-line.html', objectSchema({ name: STRING }))['name'],
      'Opening event | Rowan Gallery',
    );
  });
});
