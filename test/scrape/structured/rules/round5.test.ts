// Rules added after holdout2 and holdout3 were seen (2026-11-27): list elements stated as text for array-of-object
// schemas (ingredient lines), schema.org enumeration members under clients' enum names, "<type> name" on the item of
// that type, and the synonyms for tiers, rooms, sold out, coordinates, dek/standfirst, chef, featured image, promoter.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import type { JsonSchema } from '../../../../src/scrape/structured/types.js';
import { BOOLEAN, NUMBER, STRING, arrayOf, objectSchema } from './helpers.js';

function page(jsonLd: Record<string, unknown>, body = '<p>Some text of the page.</p>'): string {
  return `<!DOCTYPE html><html><head><title>Page</title><script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    ...jsonLd,
  })}</script></head><body><main>${body}</main></body></html>`;
}

const rules = (html: string, schema: JsonSchema) => extractJsonByRules(html, 'https://example.com/p', { schema });

describe('list elements stated as text', () => {
  const recipe = page({
    '@type': 'Recipe',
    name: 'Pasta alla Norma',
    recipeIngredient: [
      'Spaghetti 320 g',
      '2 cups flour',
      'Basilico q.b.',
      'Aglio 1 spicchio',
      'Salt',
      '1/2 tsp pepper',
    ],
    author: ['Anna Rossi', 'Marco Bianchi'],
  });

  test('an ingredient line becomes {name, quantity}, the measure leading or trailing', () => {
    const out = rules(recipe, objectSchema({ ingredients: arrayOf({ name: STRING, quantity: STRING }) }));
    assert.deepEqual(out['ingredients'], [
      { name: 'Spaghetti', quantity: '320 g' },
      { name: 'flour', quantity: '2 cups' },
      { name: 'Basilico', quantity: 'q.b.' },
      { name: 'Aglio', quantity: '1 spicchio' },
      { name: 'Salt', quantity: null },
      { name: 'pepper', quantity: '1/2 tsp' },
    ]);
  });

  test('without a quantity property the whole text is the name; without a text property nothing is made', () => {
    const named = rules(recipe, objectSchema({ authors: arrayOf({ name: STRING, url: STRING }) }));
    assert.deepEqual(named['authors'], [
      { name: 'Anna Rossi', url: null },
      { name: 'Marco Bianchi', url: null },
    ]);
    const numeric = rules(recipe, objectSchema({ ingredients: arrayOf({ grams: NUMBER }) }));
    assert.equal(numeric['ingredients'], null);
  });
});

describe('events', () => {
  const concert = page({
    '@type': 'MusicEvent',
    name: 'Harbour Lights live',
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
    organizer: { '@type': 'Organization', name: 'Northern Lantern Promotions' },
    location: {
      '@type': 'Place',
      name: 'Main Hall',
      geo: { '@type': 'GeoCoordinates', latitude: 53.4, longitude: -2.2 },
    },
    offers: [
      { '@type': 'Offer', name: 'Early Bird', price: 20, availability: 'https://schema.org/SoldOut' },
      { '@type': 'Offer', name: 'General Admission', price: 28, availability: 'https://schema.org/InStock' },
    ],
  });

  test('status and attendance mode in the client’s enum words; promoter, room, coordinates', () => {
    const out = rules(
      concert,
      objectSchema({
        status: { type: 'string', enum: ['scheduled', 'cancelled', 'postponed'] },
        attendanceMode: { type: 'string', enum: ['in_person', 'online', 'hybrid'] },
        promoter: STRING,
        room: STRING,
        lat: NUMBER,
        lng: NUMBER,
      }),
    );
    assert.deepEqual(out, {
      status: 'scheduled',
      attendanceMode: 'hybrid',
      promoter: 'Northern Lantern Promotions',
      room: 'Main Hall',
      lat: 53.4,
      lng: -2.2,
    });
  });

  test('ticket tiers are the offers’ names; sold out is the opposite of in stock', () => {
    const out = rules(concert, objectSchema({ tickets: arrayOf({ tier: STRING, price: NUMBER, sold_out: BOOLEAN }) }));
    assert.deepEqual(out['tickets'], [
      { tier: 'Early Bird', price: 20, sold_out: true },
      { tier: 'General Admission', price: 28, sold_out: false },
    ]);
  });
});

describe('"<type> name" and other names', () => {
  test('shop_name is the name of a Store, and of nothing else', () => {
    const store = page({ '@type': 'BikeStore', name: 'Spoke & Sprocket Cycles' });
    assert.equal(rules(store, objectSchema({ shop_name: STRING }))['shop_name'], 'Spoke & Sprocket Cycles');
    const product = page({ '@type': 'Product', name: 'Road bike' });
    assert.equal(rules(product, objectSchema({ shop_name: STRING }))['shop_name'], null);
    const dentist = page({ '@type': 'Dentist', name: 'Commercial Drive Family Dental' });
    assert.equal(
      rules(dentist, objectSchema({ practice_name: STRING }))['practice_name'],
      'Commercial Drive Family Dental',
    );
  });

  test('dek, chef, featured image, updated date', () => {
    const article = page({
      '@type': 'Recipe',
      name: 'Dal',
      description: 'A weeknight dal.',
      author: { '@type': 'Person', name: 'Arjun Mehta' },
      image: 'https://example.com/dal.jpg',
      dateModified: '2025-02-01',
    });
    const out = rules(
      article,
      objectSchema({ dek: STRING, chef: STRING, featured_image: STRING, updated_date: STRING }),
    );
    assert.deepEqual(out, {
      dek: 'A weeknight dal.',
      chef: 'Arjun Mehta',
      featured_image: 'https://example.com/dal.jpg',
      updated_date: '2025-02-01',
    });
  });
});

describe('more names', () => {
  test('sections stated as one text are split; German names; profile url, bio, subtitle, minimum age', () => {
    const post = page({
      '@type': 'BlogPosting',
      headline: 'Hot composting in winter',
      alternativeHeadline: 'How I kept my pile warm',
      description: 'A winter of compost.',
      articleSection: 'Composting, Winter Gardening',
      author: { '@type': 'Person', name: 'Ruth', url: 'https://example.com/ruth', description: 'A former grower.' },
    });
    const out = rules(
      post,
      objectSchema({
        categories: { type: 'array', items: STRING },
        subtitle: STRING,
        author: objectSchema({ name: STRING, profile_url: STRING, bio: STRING }),
      }),
    );
    assert.deepEqual(out, {
      categories: ['Composting', 'Winter Gardening'],
      subtitle: 'How I kept my pile warm',
      author: { name: 'Ruth', profile_url: 'https://example.com/ruth', bio: 'A former grower.' },
    });
    const product = page({
      '@type': 'Product',
      name: 'Gartenschere',
      sku: 'GW-BS21',
      offers: { '@type': 'Offer', price: '34.95', priceCurrency: 'EUR' },
    });
    assert.deepEqual(rules(product, objectSchema({ preis: NUMBER, waehrung: STRING, artikelnummer: STRING })), {
      preis: 34.95,
      waehrung: 'EUR',
      artikelnummer: 'GW-BS21',
    });
    const show = page({ '@type': 'TheaterEvent', name: 'The Tempest', typicalAgeRange: '14+' });
    assert.equal(rules(show, objectSchema({ min_age: { type: 'integer' } }))['min_age'], 14);
  });
});

describe('diets', () => {
  test('vegetarian, vegan, gluten free from suitableForDiet members; a diet not stated is null', () => {
    const recipe = page({
      '@type': 'Recipe',
      name: 'Pasta alla Norma',
      suitableForDiet: ['https://schema.org/VegetarianDiet', 'https://schema.org/GlutenFreeDiet'],
    });
    assert.deepEqual(rules(recipe, objectSchema({ vegetarian: BOOLEAN, is_gluten_free: BOOLEAN, vegan: BOOLEAN })), {
      vegetarian: true,
      is_gluten_free: true,
      vegan: null,
    });
  });
});
