// Names in a client's own language put into their English forms (name-translations.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { englishNames } from '../../../../src/scrape/structured/rules/name-translations.js';

describe('englishNames', () => {
  test('words translated, connectors dropped, both orders and a count’s "number of"', () => {
    assert.ok(englishNames('date_parution').includes('publication date'));
    assert.ok(englishNames('data_di_pubblicazione').includes('publication date'));
    assert.ok(englishNames('nombre_pages').includes('number of pages'));
    assert.ok(englishNames('fascia_prezzo').includes('price range'));
    assert.ok(englishNames('Währung').includes('currency'));
    assert.ok(englishNames('waehrung').includes('currency'));
  });

  test('a German compound of two listed words; a trailing unit stays last when the words are reversed', () => {
    assert.ok(englishNames('serienname').includes('series name'));
    assert.ok(englishNames('tempo_totale_min').includes('total time min'));
  });

  test('English names are not translated (only tried reversed), nor English words that are also foreign', () => {
    assert.deepEqual(englishNames('price'), []);
    assert.deepEqual(englishNames('date_published'), ['published date']);
    assert.deepEqual(englishNames('tag'), []);
    assert.deepEqual(englishNames('data'), []);
    assert.ok(!englishNames('date_limite').some((n) => n.includes('deadline')));
  });
});

describe('englishNames, phrases and plain English in another order', () => {
  test('phrases that are one English word, counts, compounds with English heads', () => {
    assert.ok(englishNames('mots_cles').includes('keywords'));
    assert.ok(englishNames('op_voorraad').includes('instock'));
    assert.ok(englishNames('codigo_postal').includes('postalcode'));
    assert.ok(englishNames('anzahl_bewertungen').includes('reviews count'));
    assert.ok(englishNames('productnaam').includes('product name'));
    assert.ok(englishNames('artikelname').includes('product name'));
    assert.ok(englishNames('hora_inicio').includes('start time'));
    assert.ok(englishNames('precio_desde').includes('price from'));
  });

  test('English words in the other order are tried reversed; one English word is left alone', () => {
    assert.deepEqual(englishNames('date_publication'), ['publication date']);
    assert.deepEqual(englishNames('price'), []);
  });
});
