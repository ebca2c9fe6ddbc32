// Names in a client's own language put into their English forms (name-translations.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { englishNames } from '../../../../src/scrape/structured/rules/name-translations.js';

describe('englishNames', () => {
  test('words translated, connectors dropped, both orders and a count’s "number of"', () => {
    assert.ok(englishNames('date_parution').includes('publication date'));
    assert.ok(englishNames('data_di_pubblicazione').includes('publication date'));
    assert.ok(englishNames('nombre_pages').includes('number of pages'));
    assert.ok(englishNames('anzahl_bewertungen').includes('number of reviews'));
    assert.ok(englishNames('fascia_prezzo').includes('price range'));
    assert.ok(englishNames('Währung').includes('currency'));
    assert.ok(englishNames('waehrung').includes('currency'));
  });

  test('a German compound of two listed words; a trailing unit stays last when the words are reversed', () => {
    assert.ok(englishNames('serienname').includes('series name'));
    assert.ok(englishNames('tempo_totale_min').includes('total time min'));
  });

  test('English names, and English words that are also foreign ones, are not rewritten', () => {
    assert.deepEqual(englishNames('price'), []);
    assert.deepEqual(englishNames('date_published'), []);
    assert.deepEqual(englishNames('tag'), []);
    assert.deepEqual(englishNames('data'), []);
    assert.ok(!englishNames('date_limite').some((n) => n.includes('deadline')));
  });
});
