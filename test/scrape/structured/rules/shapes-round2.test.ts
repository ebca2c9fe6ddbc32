// Shapes read since round 2 of the benchmark (all 48 pages): a Course's CourseInstance, a Movie's people and
// ratings, a Hotel's stars and times, a name prefixed with the entity's own type (hotel_name, business_name),
// the min/max/per of an amount range, and Open Graph's repeated article:tag.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { INTEGER, NUMBER, STRING, STRINGS, extract, objectSchema } from './helpers.js';

const DATE: { type: 'string'; format: string } = { type: 'string', format: 'date' };

describe('Course with a CourseInstance', () => {
  const out = extract(
    'course-instance.html',
    objectSchema({
      course_name: STRING,
      level: STRING,
      mode: STRING,
      start_date: DATE,
      end_date: DATE,
      instructors: STRINGS,
      max_students: INTEGER,
    }),
  );

  test('dates, mode and instructors come from the instance; level from the course', () => {
    assert.equal(out['course_name'], 'Intro to Ceramics');
    assert.equal(out['level'], 'Beginner');
    assert.equal(out['mode'], 'Onsite');
    assert.equal(out['start_date'], '2025-02-03');
    assert.equal(out['end_date'], '2025-03-24');
    assert.deepEqual(out['instructors'], ['Ines Okoro', 'Tom Reyes']);
  });

  test('what no part states stays null', () => {
    assert.equal(out['max_students'], null);
  });
});

describe('Movie and Hotel on one page', () => {
  const movie = extract(
    'film-hotel.html',
    objectSchema({
      title: STRING,
      year: INTEGER,
      director: STRING,
      cast: STRINGS,
      age_rating: STRING,
      score: NUMBER,
      votes: INTEGER,
      country: STRING,
      tags: STRINGS,
      hotel_name: STRING,
    }),
  );
  const hotel = extract(
    'film-hotel.html',
    objectSchema({
      hotel_name: STRING,
      stars: INTEGER,
      guest_rating: NUMBER,
      check_in: STRING,
      check_out: STRING,
      room_count: INTEGER,
      payment_methods: STRING,
      business_name: STRING,
    }),
  );

  test('movie: year of its date, people, content rating, score and votes, country of origin', () => {
    assert.equal(movie['title'], 'The Salt Road');
    assert.equal(movie['year'], 2021);
    assert.equal(movie['director'], 'Ada Brennan');
    assert.deepEqual(movie['cast'], ['Sol Vega', 'Rui Tan']);
    assert.equal(movie['age_rating'], 'PG-13');
    assert.equal(movie['score'], 6.9);
    assert.equal(movie['votes'], 10422);
    assert.equal(movie['country'], 'Chile');
  });

  test('every article:tag is an element (the first og value still wins for single keys)', () => {
    assert.deepEqual(movie['tags'], ['road movie', 'desert', 'drama']);
  });

  test('a type-prefixed name is read only on an item of that type', () => {
    // The Movie is the main entity: hotel_name is not the movie's name.
    assert.equal(movie['hotel_name'], null);
    assert.equal(hotel['hotel_name'], 'Casa Duna');
    // A Hotel is a kind of LocalBusiness: business_name is its name.
    assert.equal(hotel['business_name'], 'Casa Duna');
  });

  test('hotel: stars are the starRating, not the guests’ average', () => {
    assert.equal(hotel['stars'], 3);
    assert.equal(hotel['guest_rating'], 8.7);
    assert.equal(hotel['check_in'], '14:00');
    assert.equal(hotel['check_out'], '11:00');
    assert.equal(hotel['room_count'], 12);
    assert.equal(hotel['payment_methods'], 'Cash, Visa');
  });
});

describe('type prefixes and stars elsewhere', () => {
  test('business_name on a Product is not its name; stars fall back to the aggregate rating', () => {
    const out = extract('product-jsonld.html', objectSchema({ business_name: STRING, stars: NUMBER, rating: NUMBER }));
    assert.equal(out['business_name'], null);
    assert.notEqual(out['rating'], null);
    assert.equal(out['stars'], out['rating']);
  });
});
