// The rules fill a schema from JSON-LD (@graph, @id references, lenient parsing), microdata and RDFa-lite, with
// meta tags behind them; every field is checked, and what the page never states stays null.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BOOLEAN, INTEGER, NUMBER, STRING, STRINGS, arrayOf, extract, objectSchema } from './helpers.js';

const PRODUCT = objectSchema({
  name: STRING,
  description: STRING,
  price: NUMBER,
  currency: STRING,
  availability: { type: 'string', enum: ['InStock', 'OutOfStock', 'PreOrder'] },
  in_stock: BOOLEAN,
  brand: STRING,
  sku: STRING,
  rating: NUMBER,
  review_count: INTEGER,
  image: STRING,
  images: STRINGS,
  warranty: STRING,
  price_per_unit: NUMBER,
  reviews: arrayOf({ author: STRING, rating: NUMBER, body: STRING }),
  seller: objectSchema({ name: STRING, url: STRING }),
});

describe('JSON-LD product in a @graph', () => {
  const out = extract('product-jsonld.html', PRODUCT);

  test('the Product is the main entity, its offer found through an @id reference', () => {
    assert.equal(out['name'], 'Aeron Chair, Size B');
    assert.equal(out['description'], 'The ergonomic office chair with 8Z Pellicle suspension.');
    assert.equal(out['price'], 1299);
    assert.equal(out['currency'], 'EUR');
    assert.equal(out['availability'], 'InStock');
    assert.equal(out['in_stock'], true);
    assert.equal(out['brand'], 'Herman Miller');
    assert.equal(out['sku'], 'AER-B-GR');
    assert.equal(out['rating'], 4.6);
    assert.equal(out['review_count'], 128);
  });

  test('images are absolute; a single-value property takes the first', () => {
    assert.equal(out['image'], 'https://example.com/img/aeron-1.jpg');
    assert.deepEqual(out['images'], ['https://example.com/img/aeron-1.jpg', 'https://example.com/img/aeron-2.jpg']);
  });

  test('arrays of objects and nested objects from nested items', () => {
    assert.deepEqual(out['reviews'], [
      { author: 'Lena K.', rating: 5, body: 'Worth every cent.' },
      { author: 'Marc D.', rating: 4, body: 'Great, but pricey.' },
    ]);
    assert.deepEqual(out['seller'], { name: 'Office Depot Plus', url: null });
  });

  test('nothing is invented: unstated properties are null, even with familiar-looking names', () => {
    assert.equal(out['warranty'], null);
    assert.equal(out['price_per_unit'], null);
  });

  test('every schema property is present', () => {
    assert.deepEqual(Object.keys(out).sort(), Object.keys(PRODUCT['properties'] as object).sort());
  });

  test('an enum keeps only a value naming a member', () => {
    const r = extract('product-jsonld.html', objectSchema({ availability: { type: 'string', enum: ['yes', 'no'] } }));
    assert.equal(r['availability'], null);
  });

  test('the BreadcrumbList script with a trailing comma inside an HTML comment is read', () => {
    const r = extract(
      'product-jsonld.html',
      objectSchema({ breadcrumbs: arrayOf({ name: STRING, position: INTEGER }) }),
    );
    assert.deepEqual(r['breadcrumbs'], [
      { name: 'Home', position: 1 },
      { name: 'Chairs', position: 2 },
    ]);
  });
});

describe('microdata product (German page)', () => {
  const out = extract('product-microdata.html', PRODUCT);

  test('values from meta content, link href, nested scopes and text', () => {
    assert.equal(out['name'], 'Comandante C40 MK4');
    assert.equal(out['price'], 1299);
    assert.equal(out['currency'], 'EUR');
    assert.equal(out['availability'], 'OutOfStock');
    assert.equal(out['in_stock'], false);
    assert.equal(out['brand'], 'Comandante');
    assert.equal(out['sku'], 'CMD-C40-MK4');
    assert.equal(out['image'], 'https://example.com/media/c40.jpg');
  });

  test('decimal comma and thousands dot read per the page language', () => {
    assert.equal(out['rating'], 4.8);
    assert.equal(out['review_count'], 1234);
  });

  test('repeated review scopes become an array of objects', () => {
    assert.deepEqual(out['reviews'], [
      { author: 'Jonas', rating: 5, body: 'Beste Mühle, die ich je hatte.' },
      { author: 'Sabine', rating: 4, body: 'Etwas schwergängig bei Espresso.' },
    ]);
  });

  test('no seller, no warranty on the page: null', () => {
    assert.equal(out['seller'], null);
    assert.equal(out['warranty'], null);
  });
});

describe('NewsArticle JSON-LD with Open Graph', () => {
  const out = extract(
    'article-news.html',
    objectSchema({
      title: STRING,
      author: STRING,
      date_published: STRING,
      date: STRING,
      modified: STRING,
      publisher: STRING,
      image: STRING,
      section: STRING,
      tags: STRINGS,
      word_count: INTEGER,
      url: STRING,
      summary: STRING,
      comments_count: INTEGER,
      editor: STRING,
    }),
  );

  test('article fields from JSON-LD, the author through a reference to another script', () => {
    assert.equal(out['title'], 'City council approves new cycling lanes');
    assert.equal(out['author'], 'Maria Lopez');
    assert.equal(out['date_published'], '2024-05-14T08:30:00+02:00');
    assert.equal(out['date'], '2024-05-14T08:30:00+02:00');
    assert.equal(out['modified'], '2024-05-14T11:05:00+02:00');
    assert.equal(out['publisher'], 'The Riverside Gazette');
    assert.equal(out['word_count'], 412);
    assert.equal(out['url'], 'https://gazette.example.org/2024/05/14/cycling-lanes');
  });

  test('what the JSON-LD lacks comes from Open Graph and meta tags', () => {
    assert.equal(out['image'], 'https://gazette.example.org/img/lanes-1200.jpg');
    assert.equal(out['section'], 'Local');
    assert.deepEqual(out['tags'], ['cycling', 'city council', 'transport']);
    assert.equal(out['summary'], 'The council voted 7-2 to build 14 km of protected lanes by 2026.');
  });

  test('unstated: null', () => {
    assert.equal(out['comments_count'], null);
    assert.equal(out['editor'], null);
  });
});

describe('Recipe JSON-LD (CDATA-wrapped, trailing comma)', () => {
  const out = extract(
    'recipe.html',
    objectSchema({
      name: STRING,
      author: STRING,
      ingredients: STRINGS,
      steps: STRINGS,
      instructions: arrayOf({ text: STRING }),
      prep_time: STRING,
      total_time: STRING,
      servings: STRING,
      calories: NUMBER,
      rating: NUMBER,
      reviews: INTEGER,
      image: STRING,
      cuisine: STRING,
      video: STRING,
    }),
  );

  test('ingredients, and HowToStep texts with the sections flattened', () => {
    assert.deepEqual(out['ingredients'], [
      '3 ripe bananas',
      '75 g melted butter',
      '150 g sugar',
      '1 egg, beaten',
      '190 g flour',
    ]);
    assert.deepEqual(out['steps'], [
      'Mash the bananas in a bowl.',
      'Stir in the butter, sugar and egg.',
      'Fold in the flour and bake for 60 minutes at 175 °C.',
    ]);
    assert.equal((out['instructions'] as unknown[]).length, 3);
  });

  test('the other fields', () => {
    assert.equal(out['name'], 'Classic Banana Bread');
    assert.equal(out['author'], 'Ruth Baker');
    assert.equal(out['prep_time'], 'PT15M');
    assert.equal(out['total_time'], 'PT1H15M');
    assert.equal(out['servings'], '1 loaf');
    assert.equal(out['calories'], 240);
    assert.equal(out['rating'], 4.9);
    assert.equal(out['reviews'], 312);
    assert.equal(out['image'], 'https://kitchen.example.net/photos/banana-bread.jpg');
    assert.equal(out['cuisine'], 'American');
    assert.equal(out['video'], null);
  });
});

describe('microdata event', () => {
  const out = extract(
    'event-microdata.html',
    objectSchema({
      name: STRING,
      start_date: STRING,
      end: STRING,
      venue: STRING,
      location: objectSchema({ name: STRING, address: STRING, city: STRING }),
      performers: STRINGS,
      price: NUMBER,
      currency: STRING,
      ticket_url: STRING,
      status: STRING,
      organizer: STRING,
    }),
  );

  test('dates from <time datetime>, the place as a nested object, repeated performers', () => {
    assert.equal(out['name'], 'Jazz on the Lake 2024');
    assert.equal(out['start_date'], '2024-07-19T19:30');
    assert.equal(out['end'], '2024-07-19T23:00');
    assert.equal(out['venue'], 'Lakeside Amphitheater');
    // An address asked beside its city is the street line (round 6: two blind sets' authors labelled it so).
    assert.deepEqual(out['location'], {
      name: 'Lakeside Amphitheater',
      address: '12 Shore Road',
      city: 'Lakeview',
    });
    assert.deepEqual(out['performers'], ['The Blue Notes Quartet', 'Ada Mills']);
    assert.equal(out['price'], 35);
    assert.equal(out['currency'], 'USD');
    assert.equal(out['ticket_url'], 'https://example.com/tickets/jazz-2024');
    assert.equal(out['status'], 'EventScheduled');
    assert.equal(out['organizer'], null);
  });
});

describe('RDFa-lite book', () => {
  const out = extract(
    'rdfa.html',
    objectSchema({
      title: STRING,
      author: objectSchema({ name: STRING, url: STRING }),
      date_published: STRING,
      isbn: STRING,
      pages: INTEGER,
      publisher: STRING,
      price: NUMBER,
      currency: STRING,
      availability: STRING,
      rating: NUMBER,
    }),
  );

  test('typeof/property scopes, content attributes and link hrefs', () => {
    assert.equal(out['title'], 'Field Notes on Moss');
    assert.deepEqual(out['author'], { name: 'Hana Ito', url: null });
    assert.equal(out['date_published'], '2021-04-06');
    assert.equal(out['isbn'], '978-1-4028-9462-6');
    assert.equal(out['pages'], 224);
    assert.equal(out['publisher'], 'Greenleaf Press');
    assert.equal(out['price'], 14.99);
    assert.equal(out['currency'], 'GBP');
    assert.equal(out['availability'], 'InStock');
    assert.equal(out['rating'], null);
  });
});

describe('ItemList of products -> array schema', () => {
  const out = extract(
    'itemlist.html',
    objectSchema({
      title: STRING,
      products: arrayOf({ name: STRING, brand: STRING, price: NUMBER, currency: STRING, url: STRING, rank: INTEGER }),
    }),
  );

  test('one object per ListItem, the ListItem position kept, AggregateOffer lowPrice as the price', () => {
    assert.equal(out['title'], 'Best Trail Running Shoes 2024');
    assert.deepEqual(out['products'], [
      {
        name: 'Speedgoat 5',
        brand: 'Hoka',
        price: 155,
        currency: 'USD',
        url: 'https://example.com/shoes/speedgoat-5',
        rank: 1,
      },
      {
        name: 'Peregrine 14',
        brand: 'Saucony',
        price: 140,
        currency: 'USD',
        url: 'https://example.com/shoes/peregrine-14',
        rank: 2,
      },
      {
        name: 'Ultraventure 3',
        brand: 'Topo',
        price: 129.95,
        currency: 'USD',
        url: 'https://example.com/shoes/ultraventure-3',
        rank: 3,
      },
    ]);
  });

  test('a list no structure on the page matches stays null', () => {
    const r = extract('itemlist.html', objectSchema({ reviews: arrayOf({ author: STRING, rating: NUMBER }) }));
    assert.equal(r['reviews'], null);
  });
});

describe('JobPosting JSON-LD', () => {
  const out = extract(
    'job-posting.html',
    objectSchema({
      job_title: STRING,
      company: STRING,
      location: STRING,
      salary: objectSchema({ currency: STRING, min: NUMBER, max: NUMBER }),
      min_salary: NUMBER,
      employment_type: STRING,
      date_posted: STRING,
      deadline: STRING,
      description: STRING,
      remote: BOOLEAN,
    }),
  );

  test('company, address, salary, HTML stripped from the description', () => {
    assert.equal(out['job_title'], 'Backend Developer (Go)');
    assert.equal(out['company'], 'Fjord Systems AS');
    assert.equal(out['location'], 'Kongens gate 4, Trondheim, 7011, NO');
    assert.equal(out['employment_type'], 'FULL_TIME');
    assert.equal(out['date_posted'], '2024-06-03');
    assert.equal(out['deadline'], '2024-07-15T23:59');
    assert.equal(out['description'], 'Build and run the services behind our fleet telemetry platform.');
    assert.equal(out['remote'], null);
  });

  test('salary: the MonetaryAmount as an object; min/max name its range', () => {
    // Inside the MonetaryAmount, bare min/max are the range's minValue/maxValue (synonyms.ts: min, max, per).
    assert.deepEqual(out['salary'], { currency: 'NOK', min: 650000, max: 780000 });
    // min_salary is a synonym of the salary range's minValue (synonyms.ts): the stated 650000.
    assert.equal(out['min_salary'], 650000);
  });
});
