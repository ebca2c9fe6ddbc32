// Round 3: names matched by structure rather than by word lists (structure.ts), lists nested in the main entity,
// the currency of nested priced things, amenities, namespaced meta vocabularies and year-first dates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import { INTEGER, NUMBER, STRING, STRINGS, arrayOf, extract, objectSchema } from './helpers.js';

const DATE: { type: 'string'; format: string } = { type: 'string', format: 'date' };

describe('names matched by structure (a TVEpisode)', () => {
  const out = extract(
    'structure-episode.html',
    objectSchema({
      season: INTEGER,
      actor_count: INTEGER,
      like_count: INTEGER,
      director_name: STRING,
      trailer_url: STRING,
      seller_phone: STRING,
      isi: STRING,
      origin_country: STRING,
      writer_count: INTEGER,
      language_url: STRING,
      dealer: STRING,
    }),
  );

  test('camel-case words: season <- partOfSeason, read as its seasonNumber', () => {
    assert.equal(out['season'], 2);
  });

  test('counts: the things a name lists, an InteractionCounter of that action', () => {
    assert.equal(out['actor_count'], 3);
    assert.equal(out['like_count'], 1204);
  });

  test('<x>_<part>: the part of the thing <x> names; <x>_url is its content or page link', () => {
    assert.equal(out['director_name'], 'Ines Varga');
    assert.equal(out['trailer_url'], 'https://cdn.streambox.example/t/lk.mp4');
    assert.equal(out['seller_phone'], '+353 1 555 0100');
  });

  test('an acronym of one property’s words', () => {
    assert.equal(out['isi'], 'ISAN 0000-0003-8A2F');
  });

  test('negative: two properties ending in the same words, nothing to count, a non-link, no such thing', () => {
    const teams = extractJsonByRules(
      '<script type="application/ld+json">{"@type":"SportsEvent","homeTeam":"Ards","awayTeam":"Larne"}</script>',
      'https://example.com/',
      { schema: objectSchema({ team: STRING, home: STRING }) },
    );
    assert.equal(teams['team'], null);
    assert.equal(teams['home'], 'Ards');
    assert.equal(out['writer_count'], null);
    assert.equal(out['language_url'], null);
    assert.equal(out['dealer'], null);
  });
});

describe('lists nested in the main entity, nested currencies, amenities (a café)', () => {
  const schema = objectSchema({
    name: STRING,
    cafe: STRING,
    currency: STRING,
    amenities: STRINGS,
    drinks: arrayOf({ section: STRING, name: STRING, price: NUMBER }),
    phones: arrayOf({ number: STRING, kind: STRING }),
  });
  const out = extract('structure-cafe.html', schema);

  test('menu items of every section, each with its section’s name', () => {
    assert.deepEqual(out['drinks'], [
      { section: 'Coffee', name: 'Melange', price: 4.2 },
      { section: 'Coffee', name: 'Einspänner', price: 4.8 },
      { section: 'Cakes', name: 'Sachertorte', price: 5.9 },
    ]);
  });

  test('a name that is the entity’s own type (a word of it) is its name', () => {
    assert.equal(out['cafe'], 'Kaffeehaus Linde');
  });

  test('the currency the nested offers all state', () => {
    assert.equal(out['currency'], 'EUR');
  });

  test('amenities stated present only', () => {
    assert.deepEqual(out['amenities'], ['Terrace', 'Wi-Fi']);
  });

  test('negative: no nested list fits two properties; offers in two currencies state none', () => {
    assert.equal(out['phones'], null);
    const mixed = extractJsonByRules(
      `<script type="application/ld+json">{"@type":"Restaurant","name":"Two Bills","hasMenu":{"@type":"Menu",
       "hasMenuItem":[{"@type":"MenuItem","name":"A","offers":{"@type":"Offer","price":"1","priceCurrency":"EUR"}},
       {"@type":"MenuItem","name":"B","offers":{"@type":"Offer","price":"2","priceCurrency":"CHF"}}]}}</script>`,
      'https://example.com/',
      { schema },
    );
    assert.equal(mixed['currency'], null);
  });
});

describe('namespaced meta vocabularies (Highwire citation tags)', () => {
  const out = extract(
    'citation-meta.html',
    objectSchema({
      authors: STRINGS,
      journal: STRING,
      volume: INTEGER,
      first_page: INTEGER,
      publication_date: DATE,
      doi: STRING,
      issue: INTEGER,
      site: STRING,
    }),
  );

  test('each property from its citation_ tag; repeated authors are a list', () => {
    assert.deepEqual(out['authors'], ['Jonas Weber', 'Lucía Ferrer']);
    assert.equal(out['journal'], 'Mountain Ecohydrology Letters');
    assert.equal(out['volume'], 12);
    assert.equal(out['first_page'], 88);
    assert.equal(out['doi'], '10.9999/mel.2021.088');
  });

  test('a year-first numeric date is read', () => {
    assert.equal(out['publication_date'], '2021-03-05');
  });

  test('negative: an unstated tag is null; Twitter keys are not a namespaced vocabulary', () => {
    assert.equal(out['issue'], null);
    assert.equal(out['site'], null);
  });
});
