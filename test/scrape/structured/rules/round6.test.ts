// Round 6 (2026-11-27): schema.org's vocabulary under developers' names (synonyms-vocabulary.ts), path steps that
// accept kinds of thing (a ListPrice specification), wrappers (a listing's home, a product group's variants),
// social profiles, interval parts, the lowest of several prices, Twitter label/data pairs, times of day and a
// site's name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractJsonByRules } from '../../../../src/scrape/structured/rules/index.js';
import type { JsonSchema } from '../../../../src/scrape/structured/types.js';
import { BOOLEAN, INTEGER, NUMBER, STRING, STRINGS, objectSchema } from './helpers.js';

function page(jsonLd: Record<string, unknown>, head = ''): string {
  return `<!DOCTYPE html><html><head><title>Page</title>${head}<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    ...jsonLd,
  })}</script></head><body><main><p>Some text of the page.</p></main></body></html>`;
}

const rules = (html: string, schema: JsonSchema) => extractJsonByRules(html, 'https://example.com/p', { schema });

describe('offers: the regular price, the sale window, shipping, returns, unit prices', () => {
  const product = page({
    '@type': 'Product',
    name: 'Kettle',
    offers: {
      '@type': 'Offer',
      price: '49.00',
      priceCurrency: 'EUR',
      priceValidUntil: '2025-01-31',
      priceSpecification: [
        { '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/StrikethroughPrice', price: '69.00' },
        { '@type': 'UnitPriceSpecification', price: '12.25', referenceQuantity: { value: 1, unitCode: 'LTR' } },
      ],
      shippingDetails: { '@type': 'OfferShippingDetails', shippingRate: { value: '4.95', currency: 'EUR' } },
      hasMerchantReturnPolicy: {
        '@type': 'MerchantReturnPolicy',
        merchantReturnDays: 30,
        returnFees: 'https://schema.org/FreeReturn',
      },
    },
  });
  const schema = objectSchema({
    price: NUMBER,
    regular_price: NUMBER,
    sale_ends: { type: 'string', format: 'date' },
    shipping_cost: NUMBER,
    return_window_days: INTEGER,
    free_returns: BOOLEAN,
    price_per_litre: NUMBER,
  });

  test('each read from its own part of the offer', () => {
    assert.deepEqual(rules(product, schema), {
      price: 49,
      regular_price: 69,
      sale_ends: '2025-01-31',
      shipping_cost: 4.95,
      return_window_days: 30,
      free_returns: true,
      price_per_litre: 12.25,
    });
  });

  test('a return policy charging the customer is no free return; no list price stated is null', () => {
    const out = rules(
      page({
        '@type': 'Product',
        name: 'Kettle',
        offers: {
          price: 49,
          priceSpecification: { price: 49 },
          hasMerchantReturnPolicy: { returnFees: 'https://schema.org/ReturnFeesCustomerResponsibility' },
        },
      }),
      schema,
    );
    assert.equal(out['free_returns'], false);
    assert.equal(out['regular_price'], null);
  });

  test('Open Graph catalogue tags: the sale price is the price, product:price:amount the regular one', () => {
    const html =
      '<html><head><meta property="og:type" content="product"><meta property="product:price:amount" content="199.00">' +
      '<meta property="product:sale_price:amount" content="149.00">' +
      '<meta property="product:sale_price_dates:end" content="2024-06-30T23:59+02:00"></head><body></body></html>';
    assert.deepEqual(rules(html, objectSchema({ price: NUMBER, regular_price: NUMBER, sale_ends: STRING })), {
      price: 149,
      regular_price: 199,
      sale_ends: '2024-06-30T23:59+02:00',
    });
  });
});

describe('wrappers: the thing a listing is about, a product group read through its variants', () => {
  test('a RealEstateListing states its home under about', () => {
    const out = rules(
      page({
        '@type': 'RealEstateListing',
        datePosted: '2024-04-02',
        about: {
          '@type': 'SingleFamilyResidence',
          numberOfBedrooms: 3,
          numberOfRooms: 7,
          floorSize: { '@type': 'QuantitativeValue', value: 1980, unitCode: 'FTK' },
          offers: { price: 612000, priceCurrency: 'USD' },
        },
      }),
      objectSchema({ price: NUMBER, bedrooms: INTEGER, rooms_total: INTEGER, floor_area_sqft: NUMBER }),
    );
    assert.deepEqual(out, { price: 612000, bedrooms: 3, rooms_total: 7, floor_area_sqft: 1980 });
  });

  test('a ProductGroup: price and colours from its variants, its own code from productGroupID', () => {
    const variant = (sku: string, color: string, size: string) => ({
      '@type': 'Product',
      sku,
      color,
      size,
      offers: { price: 79, priceCurrency: 'GBP' },
    });
    const out = rules(
      page({
        '@type': 'ProductGroup',
        name: 'Jumper',
        productGroupID: 'KN118',
        hasVariant: [
          variant('KN118-E-S', 'Ecru', 'S'),
          variant('KN118-E-M', 'Ecru', 'M'),
          variant('KN118-N-S', 'Navy', 'S'),
        ],
      }),
      objectSchema({ style_code: STRING, price: NUMBER, colours: STRINGS, sizes: STRINGS }),
    );
    assert.deepEqual(out, { style_code: 'KN118', price: 79, colours: ['Ecru', 'Navy'], sizes: ['S', 'M'] });
  });
});

describe('creative works, media and events under developers’ names', () => {
  test('an episode: its show is the series, hosts its authors, a channel is the author', () => {
    const out = rules(
      page({
        '@type': 'PodcastEpisode',
        name: 'Cover Crops',
        author: [{ '@type': 'Person', name: 'Tom' }],
        actor: { '@type': 'Person', name: 'Maribel' },
        partOfSeries: { '@type': 'PodcastSeries', name: 'Field Notes' },
        isFamilyFriendly: true,
      }),
      objectSchema({ show: STRING, hosts: STRINGS, guests: STRINGS, explicit: BOOLEAN }),
    );
    assert.deepEqual(out, { show: 'Field Notes', hosts: ['Tom'], guests: ['Maribel'], explicit: false });
  });

  test('a play: the show is the event itself, the company its performing group, the run its dates', () => {
    const out = rules(
      page({
        '@type': 'TheaterEvent',
        name: 'The Glass Orchard',
        startDate: '2025-05-08',
        endDate: '2025-05-17',
        duration: 'PT2H10M',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        performer: { '@type': 'PerformingGroup', name: 'Threadbare Theatre' },
      }),
      objectSchema({
        show: STRING,
        company: STRING,
        first_performance: STRING,
        last_performance: STRING,
        running_time_minutes: INTEGER,
        is_online: BOOLEAN,
      }),
    );
    assert.deepEqual(out, {
      show: 'The Glass Orchard',
      company: 'Threadbare Theatre',
      first_performance: '2025-05-08',
      last_performance: '2025-05-17',
      running_time_minutes: 130,
      is_online: false,
    });
  });

  test('a match: competition, kickoff, teams, tickets from the cheapest offer; times of day from date-times', () => {
    const out = rules(
      page({
        '@type': 'SportsEvent',
        name: 'Harbourside v Northgate',
        startDate: '2024-03-16T15:00:00+00:00',
        doorTime: '2024-03-16T13:30:00+00:00',
        superEvent: { '@type': 'SportsEvent', name: 'Westland League' },
        homeTeam: { '@type': 'SportsTeam', name: 'Harbourside FC' },
        awayTeam: { '@type': 'SportsTeam', name: 'Northgate Rovers' },
        offers: [
          { '@type': 'Offer', name: 'Adult', price: '30.00' },
          { '@type': 'Offer', name: 'Junior', price: '12.00' },
        ],
      }),
      objectSchema({
        competition: STRING,
        kickoff: { type: 'string', format: 'date-time' },
        home_team: STRING,
        away_team: STRING,
        ticket_price_from: NUMBER,
        doors_time: STRING,
      }),
    );
    assert.deepEqual(out, {
      competition: 'Westland League',
      kickoff: '2024-03-16T15:00:00+00:00',
      home_team: 'Harbourside FC',
      away_team: 'Northgate Rovers',
      ticket_price_from: 12,
      doors_time: '13:30',
    });
  });

  test('a dataset: the start and end of its temporal coverage; no interval stated gives null', () => {
    const schema = objectSchema({ coverage_start: STRING, coverage_end: STRING });
    const out = rules(page({ '@type': 'Dataset', name: 'Counts', temporalCoverage: '2015-01-01/2023-12-31' }), schema);
    assert.deepEqual(out, { coverage_start: '2015-01-01', coverage_end: '2023-12-31' });
    const year = rules(page({ '@type': 'Dataset', name: 'Counts', temporalCoverage: '2015' }), schema);
    assert.deepEqual(year, { coverage_start: null, coverage_end: null });
  });

  test('a used car: year, trim, gearbox, engine size and power', () => {
    const out = rules(
      page({
        '@type': ['Car', 'Product'],
        name: '2020 Octavia',
        vehicleConfiguration: '2.0 TDI Style',
        vehicleModelDate: '2020',
        vehicleTransmission: 'Automatic',
        vehicleEngine: {
          '@type': 'EngineSpecification',
          engineDisplacement: { value: 1968, unitCode: 'CMQ' },
          enginePower: { value: 150, unitCode: 'BHP' },
        },
      }),
      objectSchema({ year: INTEGER, trim: STRING, gearbox: STRING, engine_cc: INTEGER, power_hp: INTEGER }),
    );
    assert.deepEqual(out, { year: 2020, trim: '2.0 TDI Style', gearbox: 'Automatic', engine_cc: 1968, power_hp: 150 });
  });
});

describe('places, jobs, meta pairs', () => {
  test('a social profile by its network; a country code; a job’s identifier by its value', () => {
    const shop = rules(
      page({
        '@type': 'BikeStore',
        name: 'Spoke',
        address: { '@type': 'PostalAddress', addressCountry: 'GB' },
        sameAs: ['https://www.facebook.com/spoke', 'https://www.instagram.com/spoke'],
      }),
      objectSchema({ instagram_url: STRING, twitter: STRING, country_code: STRING }),
    );
    assert.deepEqual(shop, { instagram_url: 'https://www.instagram.com/spoke', twitter: null, country_code: 'GB' });
    const job = rules(
      page({
        '@type': 'JobPosting',
        title: 'Driver',
        validThrough: '2025-03-31',
        identifier: { '@type': 'PropertyValue', name: 'Brightline Freight', value: 'BLF-2291' },
        applicantLocationRequirements: { '@type': 'Country', name: 'Canada' },
      }),
      objectSchema({ req_id: STRING, closes: { type: 'string', format: 'date' }, remote_country: STRING }),
    );
    assert.deepEqual(job, { req_id: 'BLF-2291', closes: '2025-03-31', remote_country: 'Canada' });
  });

  test('Twitter label/data pairs; a site name from og:site_name before the publisher’s legal name', () => {
    const head =
      '<meta property="og:site_name" content="The Muddy Boots Garden">' +
      '<meta name="twitter:label1" content="Est. reading time"><meta name="twitter:data1" content="7 minutes">';
    const out = rules(
      page(
        { '@type': 'BlogPosting', headline: 'Beds', publisher: { '@type': 'Organization', name: 'Muddy LLC' } },
        head,
      ),
      objectSchema({ site_name: STRING, publisher: STRING, reading_time_minutes: INTEGER }),
    );
    assert.deepEqual(out, { site_name: 'The Muddy Boots Garden', publisher: 'Muddy LLC', reading_time_minutes: 7 });
  });
});

describe('after holdout4 was read: references, nested pairs, listing pages, Japanese measures', () => {
  test('a reference repeating a name stands for the fuller item of its id (an author’s bio)', () => {
    const html = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'NewsArticle', headline: 'Calles', author: { '@id': '#lucia', name: 'Lucía' } },
        { '@type': 'Person', '@id': '#lucia', name: 'Lucía', description: 'Redactora de Local.' },
      ],
    })}</script></head><body></body></html>`;
    assert.equal(rules(html, objectSchema({ author_bio: STRING }))['author_bio'], 'Redactora de Local.');
  });

  test('a rating’s {value, count}; a salary’s {from, to, currency, unit}; a ticket’s type', () => {
    const out = rules(
      page({
        '@type': 'Event',
        name: 'Fest',
        aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.8', ratingCount: '96' },
        offers: [
          { '@type': 'Offer', name: 'Weekend', price: '129.00' },
          { '@type': 'Offer', name: 'Day', price: '64.50' },
        ],
      }),
      objectSchema({
        rating: objectSchema({ value: NUMBER, count: INTEGER }),
        tickets: { type: 'array', items: objectSchema({ type: STRING, price: NUMBER }) },
      }),
    );
    assert.deepEqual(out, {
      rating: { value: 4.8, count: 96 },
      tickets: [
        { type: 'Weekend', price: 129 },
        { type: 'Day', price: 64.5 },
      ],
    });
    const job = rules(
      page({
        '@type': 'JobPosting',
        title: 'Engineer',
        baseSalary: {
          '@type': 'MonetaryAmount',
          currency: 'EUR',
          value: { '@type': 'QuantitativeValue', minValue: 70000, maxValue: 88000, unitText: 'YEAR' },
        },
      }),
      objectSchema({ salaryRange: objectSchema({ from: NUMBER, to: NUMBER, currency: STRING, unit: STRING }) }),
    );
    assert.deepEqual(job['salaryRange'], { from: 70000, to: 88000, currency: 'EUR', unit: 'YEAR' });
  });

  test('codes on the offer, hours from an ISO duration, a newsletter’s subscribers, replies from Twitter pairs', () => {
    const product = rules(
      page({ '@type': 'Product', name: 'Set', offers: { price: '89.95', gtin13: '8719326400175' } }),
      objectSchema({ ean: STRING, cost: NUMBER }),
    );
    assert.deepEqual(product, { ean: '8719326400175', cost: 89.95 });
    const course = rules(
      page({
        '@type': 'Course',
        name: 'SQL',
        creator: { '@type': 'Person', name: 'Ananya' },
        provider: { '@type': 'Organization', name: 'Vidyarthi Learn' },
        hasCourseInstance: { '@type': 'CourseInstance', courseWorkload: 'PT14H30M' },
      }),
      objectSchema({ instructor: STRING, platform: STRING, videoHours: NUMBER }),
    );
    assert.deepEqual(course, { instructor: 'Ananya', platform: 'Vidyarthi Learn', videoHours: 14.5 });
    const post = rules(
      page(
        {
          '@type': 'NewsArticle',
          headline: 'Grocery',
          description: 'Chains are squeezed.',
          publisher: {
            '@type': 'Organization',
            name: 'Aisle Seven',
            interactionStatistic: {
              '@type': 'InteractionCounter',
              interactionType: 'https://schema.org/SubscribeAction',
              userInteractionCount: 10000,
            },
          },
        },
        '<meta name="twitter:label2" content="Replies"><meta name="twitter:data2" content="38">',
      ),
      objectSchema({ subtitle: STRING, newsletter: STRING, subscriber_count: INTEGER, comments: INTEGER }),
    );
    assert.deepEqual(post, {
      subtitle: 'Chains are squeezed.',
      newsletter: 'Aisle Seven',
      subscriber_count: 10000,
      comments: 38,
    });
  });

  test('a hotel’s check-in from, its prices from priceRange (and their currency)', () => {
    const out = rules(
      page({ '@type': 'Hotel', name: 'Levante', checkinTime: '15:00', priceRange: '118 € - 240 €' }),
      objectSchema({ check_in_from: STRING, price_from: NUMBER, currency: STRING }),
    );
    assert.deepEqual(out, { check_in_from: '15:00', price_from: 118, currency: 'EUR' });
  });

  test('a listing page’s name: its last breadcrumb, else its title; a product page’s category is not its name', () => {
    const schema = objectSchema({ category_name: STRING });
    const crumbs = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://example.com/' },
        { '@type': 'ListItem', position: 2, name: 'Bath & Body' },
      ],
    })}</script></head><body><h1>Saltbush</h1></body></html>`;
    assert.equal(rules(crumbs, schema)['category_name'], 'Bath & Body');
    const titled =
      '<html><head><meta property="og:site_name" content="Fern Tea"><meta property="og:title" content="Loose Leaf Tea">' +
      '</head><body><h1>Fern Tea</h1></body></html>';
    assert.equal(rules(titled, objectSchema({ collection: STRING }))['collection'], 'Loose Leaf Tea');
    assert.equal(rules(page({ '@type': 'Product', name: 'Soap' }), schema)['category_name'], null);
  });

  test('a Japanese ingredient line: the name, then its measure (unit first or after the number)', () => {
    const out = rules(
      page({
        '@type': 'Recipe',
        name: '厚揚げ',
        recipeIngredient: ['厚揚げ 1枚（150g）', 'しょうゆ 大さじ1と1/2', '塩 少々'],
      }),
      objectSchema({ ingredients: { type: 'array', items: objectSchema({ name: STRING, amount: STRING }) } }),
    );
    assert.deepEqual(out['ingredients'], [
      { name: '厚揚げ', amount: '1枚（150g）' },
      { name: 'しょうゆ', amount: '大さじ1と1/2' },
      { name: '塩', amount: '少々' },
    ]);
  });
});

describe('qualified offers and amenities', () => {
  const album = page({
    '@type': 'MusicAlbum',
    name: 'Salt & Static',
    albumRelease: [
      { '@type': 'MusicRelease', musicReleaseFormat: 'DigitalFormat', offers: { price: 9, availability: 'InStock' } },
      {
        '@type': 'MusicRelease',
        name: 'Salt & Static – 12" Vinyl LP',
        musicReleaseFormat: 'VinylFormat',
        offers: { price: 24, availability: 'https://schema.org/OutOfStock' },
      },
    ],
  });

  test('a qualifier picks the release, offer or variant whose own text holds it', () => {
    const out = rules(
      album,
      objectSchema({ digital_price: NUMBER, vinyl_price: NUMBER, vinyl_available: BOOLEAN, cassette_price: NUMBER }),
    );
    assert.deepEqual(out, { digital_price: 9, vinyl_price: 24, vinyl_available: false, cassette_price: null });
  });

  test('a qualified name that is no offer’s property is not read from an offer', () => {
    const out = rules(
      page({
        '@type': 'Event',
        name: 'DataHarbor Summit 2025',
        offers: [
          { '@type': 'Offer', name: 'Conference pass (in person)', price: 450 },
          { '@type': 'Offer', name: 'Online pass', price: 150 },
        ],
      }),
      objectSchema({ conference_name: STRING, online_price: NUMBER }),
    );
    assert.deepEqual(out, { conference_name: 'DataHarbor Summit 2025', online_price: 150 });
  });

  test('has_<feature>: the amenity’s stated value; a feature not listed or a plain name says nothing', () => {
    const out = rules(
      page({
        '@type': 'Hotel',
        name: 'Fjordlys',
        amenityFeature: [
          { '@type': 'LocationFeatureSpecification', name: 'Swimming pool', value: false },
          { '@type': 'LocationFeatureSpecification', name: 'Free Wi-Fi', value: true },
          { '@type': 'LocationFeatureSpecification', name: 'Sauna', value: true },
        ],
      }),
      objectSchema({ has_pool: BOOLEAN, sauna_available: BOOLEAN, has_gym: BOOLEAN, sauna: STRING }),
    );
    assert.deepEqual(out, { has_pool: false, sauna_available: true, has_gym: null, sauna: null });
  });
});

describe('after holdout5 was read: names in other languages, enum words, selected offers, editions', () => {
  test('Italian, French and German names are read as their English forms', () => {
    const osteria = rules(
      page({
        '@type': 'Restaurant',
        name: 'Osteria del Melograno',
        telephone: '+39 051 555 2347',
        priceRange: '€€',
        servesCuisine: ['Emiliana', 'Italiana'],
        acceptsReservations: 'True',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Via San Felice 88/B',
          postalCode: '40122',
          addressLocality: 'Bologna',
        },
        geo: { '@type': 'GeoCoordinates', latitude: 44.49712 },
      }),
      objectSchema({
        nome: STRING,
        telefono: STRING,
        fascia_prezzo: STRING,
        cucine: STRINGS,
        accetta_prenotazioni: BOOLEAN,
        indirizzo: objectSchema({ via: STRING, cap: STRING, citta: STRING }),
        latitudine: NUMBER,
      }),
    );
    assert.deepEqual(osteria, {
      nome: 'Osteria del Melograno',
      telefono: '+39 051 555 2347',
      fascia_prezzo: '€€',
      cucine: ['Emiliana', 'Italiana'],
      accetta_prenotazioni: true,
      indirizzo: { via: 'Via San Felice 88/B', cap: '40122', citta: 'Bologna' },
      latitudine: 44.49712,
    });
    const livre = rules(
      page({
        '@type': 'Book',
        name: 'Les Jardins de sel',
        author: { '@type': 'Person', name: 'Hélène Marchetti' },
        inLanguage: 'fr',
        workExample: [
          {
            '@type': 'Book',
            bookFormat: 'https://schema.org/Paperback',
            numberOfPages: 384,
            datePublished: '2024-08-21',
            offers: { price: '22.00', availability: 'https://schema.org/InStock' },
          },
        ],
      }),
      objectSchema({
        titre: STRING,
        auteur: STRING,
        langue: STRING,
        date_parution: { type: 'string', format: 'date' },
        nombre_pages: INTEGER,
        prix: NUMBER,
        disponible: BOOLEAN,
        format: { type: 'string', enum: ['broché', 'relié', 'numérique'] },
      }),
    );
    assert.deepEqual(livre, {
      titre: 'Les Jardins de sel',
      auteur: 'Hélène Marchetti',
      langue: 'fr',
      date_parution: '2024-08-21',
      nombre_pages: 384,
      prix: 22,
      disponible: true,
      format: 'broché',
    });
    const kommode = rules(
      page({ '@type': 'Product', name: 'Kommode', offers: { price: '149.00', priceCurrency: 'EUR' } }),
      objectSchema({ preis: NUMBER, waehrung: STRING, hoehe_cm: NUMBER }),
    );
    assert.deepEqual(kommode, { preis: 149, waehrung: 'EUR', hoehe_cm: null });
  });

  test('an English name with a word of another language is not rewritten while it finds its own value', () => {
    const out = rules(
      page({ '@type': 'BlogPosting', headline: 'Post', keywords: 'bread, rye' }),
      objectSchema({ tag: STRING, tags: STRINGS }),
    );
    assert.deepEqual(out, { tag: 'bread, rye', tags: ['bread', 'rye'] });
  });

  test('enumeration members under a client’s enum words: conditions, availability, formats, job types', () => {
    const out = rules(
      page({
        '@type': 'Product',
        name: 'Camera',
        offers: { itemCondition: 'https://schema.org/UsedCondition', availability: 'https://schema.org/SoldOut' },
      }),
      objectSchema({
        condition: { type: 'string', enum: ['new', 'used', 'refurbished'] },
        stock: { type: 'string', enum: ['in stock', 'out of stock'] },
      }),
    );
    assert.deepEqual(out, { condition: 'used', stock: 'out of stock' });
  });

  test('the offer of the variant the product names comes first; a vendor is the brand; a stock number the sku', () => {
    const out = rules(
      page({
        '@type': 'Product',
        name: 'Skillet',
        sku: 'SK10',
        brand: { '@type': 'Brand', name: 'Ferrowell' },
        offers: [
          { '@type': 'Offer', sku: 'SK08', price: 95 },
          { '@type': 'Offer', sku: 'SK10', price: 125 },
        ],
      }),
      objectSchema({
        price: NUMBER,
        vendor: STRING,
        stock_number: STRING,
        variants: { type: 'array', items: objectSchema({ sku: STRING, price: NUMBER }) },
      }),
    );
    assert.deepEqual(out, {
      price: 125,
      vendor: 'Ferrowell',
      stock_number: 'SK10',
      variants: [
        { sku: 'SK08', price: 95 },
        { sku: 'SK10', price: 125 },
      ],
    });
  });

  test('counts named by an action’s plural (views, likes) without a counter give null, never a loop', () => {
    const schema = objectSchema({ views: INTEGER, likes: INTEGER, shares: INTEGER, downloads: INTEGER });
    assert.deepEqual(rules(page({ '@type': 'VideoObject', name: 'Clip' }), schema), {
      views: null,
      likes: null,
      shares: null,
      downloads: null,
    });
    const counted = rules(
      page({
        '@type': 'VideoObject',
        name: 'Clip',
        interactionCount: '284113',
        interactionStatistic: {
          '@type': 'InteractionCounter',
          interactionType: 'https://schema.org/LikeAction',
          userInteractionCount: 12,
        },
      }),
      schema,
    );
    assert.deepEqual(counted, { views: 284113, likes: 12, shares: null, downloads: null });
  });

  test('a site’s own meta vocabulary by its last segment; mileage in miles; an article’s section is not its title', () => {
    const head =
      '<meta property="place:location:latitude" content="38.71124"><meta property="hearthly:city" content="Lisbon">';
    const rental = `<html><head>${head}</head><body></body></html>`;
    assert.deepEqual(rules(rental, objectSchema({ latitude: NUMBER, city: STRING })), {
      latitude: 38.71124,
      city: 'Lisbon',
    });
    const car = rules(
      page({
        '@type': 'Car',
        name: 'Civic',
        mileageFromOdometer: { '@type': 'QuantitativeValue', value: 38412, unitCode: 'SMI' },
      }),
      objectSchema({ mileage_miles: INTEGER, mileage_km: INTEGER }),
    );
    assert.deepEqual(car, { mileage_miles: 38412, mileage_km: 61818 });
    const article =
      '<html><head><meta property="og:type" content="article"><meta property="og:title" content="Why starters smell">' +
      '</head><body><h1>Why starters smell</h1></body></html>';
    assert.equal(rules(article, objectSchema({ section: STRING }))['section'], null);
  });
});

describe('games, apps and clinics', () => {
  test('a game’s modes, players, age rating; an app’s category and requirements; a clinic’s specialties', () => {
    const game = rules(
      page({
        '@type': 'VideoGame',
        name: 'Harbour Keeper',
        playMode: ['SinglePlayer', 'CoOp'],
        numberOfPlayers: { '@type': 'QuantitativeValue', maxValue: 4 },
        contentRating: 'PEGI 7',
        applicationCategory: 'Game',
        softwareRequirements: 'Windows 10 64-bit',
      }),
      objectSchema({ modes: STRINGS, max_players: INTEGER, pegi: STRING, category: STRING, requires: STRING }),
    );
    assert.deepEqual(game, {
      modes: ['SinglePlayer', 'CoOp'],
      max_players: 4,
      pegi: 'PEGI 7',
      category: 'Game',
      requires: 'Windows 10 64-bit',
    });
    const clinic = rules(
      page({
        '@type': 'Dentist',
        name: 'Riverside Dental',
        medicalSpecialty: ['Dentistry', 'Orthodontics'],
        isAcceptingNewPatients: true,
      }),
      objectSchema({ specialties: STRINGS, accepting_new_patients: BOOLEAN }),
    );
    assert.deepEqual(clinic, { specialties: ['Dentistry', 'Orthodontics'], accepting_new_patients: true });
  });
});

describe('after holdout6 was read: additional properties, yes/no verbs, experience in years, German jobs', () => {
  test('additionalProperty pairs by the schema’s name or its English form, with their unit', () => {
    const out = rules(
      page({
        '@type': 'Product',
        name: 'Fietstas',
        additionalProperty: [
          { '@type': 'PropertyValue', name: 'Inhoud', value: '32', unitText: 'liter' },
          { '@type': 'PropertyValue', name: 'Waterdicht', value: 'Ja' },
          { '@type': 'PropertyValue', name: 'Closure', value: 'Rolsluiting' },
        ],
      }),
      objectSchema({ capacityLiters: NUMBER, waterproof: BOOLEAN, closure: STRING, weight: NUMBER }),
    );
    assert.deepEqual(out, { capacityLiters: 32, waterproof: true, closure: 'Rolsluiting', weight: null });
  });

  test('is_/has_ names without their verb; experience asked in years; a credential by the client’s enum word', () => {
    const job = rules(
      page({
        '@type': 'JobPosting',
        title: 'Data Engineer',
        isAccessibleForFree: true,
        experienceRequirements: { '@type': 'OccupationalExperienceRequirements', monthsOfExperience: 60 },
        educationRequirements: { '@type': 'EducationalOccupationalCredential', credentialCategory: 'bachelor degree' },
      }),
      objectSchema({
        isPaywalled: BOOLEAN,
        min_years_experience: NUMBER,
        education_level: { type: 'string', enum: ['high_school', 'bachelor', 'master'] },
      }),
    );
    assert.deepEqual(job, { isPaywalled: false, min_years_experience: 5, education_level: 'bachelor' });
  });

  test('a German job: employer, a nested location, enum words in German; structured before a visible label', () => {
    const html = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Projektleiter',
      hiringOrganization: { '@type': 'Organization', name: 'Sonnwerk Energie GmbH' },
      employmentType: 'FULL_TIME',
      validThrough: '2025-03-15',
      jobLocation: {
        '@type': 'Place',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Wiesentalstraße 18',
          postalCode: '79115',
          addressCountry: 'DE',
        },
      },
      baseSalary: { '@type': 'MonetaryAmount', currency: 'EUR', value: { minValue: 60000, unitText: 'YEAR' } },
    })}</script></head><body><main><dl><dt>Bewerbungsfrist</dt><dd>15.03.2025. Wir freuen uns.</dd></dl></main></body></html>`;
    const out = rules(
      html,
      objectSchema({
        arbeitgeber: STRING,
        ort: objectSchema({ strasse: STRING, plz: STRING, land: STRING }),
        beschaeftigungsart: { type: 'string', enum: ['vollzeit', 'teilzeit'] },
        gehalt: objectSchema({ zeitraum: { type: 'string', enum: ['jahr', 'monat', 'stunde'] } }),
        bewerbungsfrist: { type: 'string', format: 'date' },
      }),
    );
    assert.deepEqual(out, {
      arbeitgeber: 'Sonnwerk Energie GmbH',
      ort: { strasse: 'Wiesentalstraße 18', plz: '79115', land: 'DE' },
      beschaeftigungsart: 'vollzeit',
      gehalt: { zeitraum: 'jahr' },
      bewerbungsfrist: '2025-03-15',
    });
  });

  test('a guide’s title; reviews’ stars; the shop a product belongs to; an event’s format', () => {
    const guide = rules(
      page({ '@type': 'HowTo', name: 'How to Replace a Kitchen Tap' }),
      objectSchema({ guide_title: STRING }),
    );
    assert.equal(guide['guide_title'], 'How to Replace a Kitchen Tap');
    const product = rules(
      page(
        {
          '@type': 'Product',
          name: 'Beans',
          review: [{ '@type': 'Review', reviewRating: { '@type': 'Rating', ratingValue: 5 }, author: 'Ann' }],
        },
        '<meta property="og:site_name" content="Bean &amp; Bothy">',
      ),
      objectSchema({ shop_name: STRING, reviews: { type: 'array', items: objectSchema({ stars: INTEGER }) } }),
    );
    assert.deepEqual(product, { shop_name: 'Bean & Bothy', reviews: [{ stars: 5 }] });
    const event = rules(
      page({ '@type': 'Event', name: 'Meetup', eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode' }),
      objectSchema({ format: { type: 'string', enum: ['in_person', 'online', 'hybrid'] } }),
    );
    assert.equal(event['format'], 'in_person');
  });
});

describe('after holdout7 was read: votes, a recipe’s method, street lines, free amenities, plans, modules', () => {
  test('votes are ratings; a string method is the cooking method, an array the steps', () => {
    const recipe = page({
      '@type': 'Recipe',
      name: 'Buns',
      cookingMethod: 'Baking',
      recipeInstructions: [
        { '@type': 'HowToStep', text: 'Mix.' },
        { '@type': 'HowToStep', text: 'Bake.' },
      ],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.9', ratingCount: '87', reviewCount: '31' },
    });
    assert.deepEqual(rules(recipe, objectSchema({ method: STRING, rating: objectSchema({ votes: INTEGER }) })), {
      method: 'Baking',
      rating: { votes: 87 },
    });
    assert.deepEqual(rules(recipe, objectSchema({ method: STRINGS }))['method'], ['Mix.', 'Bake.']);
  });

  test('an address asked beside its city is the street line; alone it is the whole address', () => {
    const event = page({
      '@type': 'MusicEvent',
      name: 'Cuarteto',
      startDate: '2025-05-10T20:00:00+02:00',
      location: {
        '@type': 'Place',
        name: 'Teatro de la Alameda',
        address: {
          '@type': 'PostalAddress',
          streetAddress: 'Calle del Coso, 118',
          addressLocality: 'Zaragoza',
          postalCode: '50001',
        },
      },
      offers: [{ price: '18' }, { price: '12' }],
    });
    const out = rules(
      event,
      objectSchema({
        hora_inicio: STRING,
        precio_desde: NUMBER,
        recinto: objectSchema({ nombre: STRING, direccion: STRING, ciudad: STRING, codigo_postal: STRING }),
        venue: objectSchema({ address: STRING }),
      }),
    );
    assert.deepEqual(out, {
      hora_inicio: '20:00',
      precio_desde: 12,
      recinto: {
        nombre: 'Teatro de la Alameda',
        direccion: 'Calle del Coso, 118',
        ciudad: 'Zaragoza',
        codigo_postal: '50001',
      },
      venue: { address: 'Calle del Coso, 118, Zaragoza, 50001' },
    });
  });

  test('free_<amenity>; pricing plans are the offers; a course’s modules; a manufacturer’s number; a vendor', () => {
    const bnb = rules(
      page({
        '@type': 'BedAndBreakfast',
        name: 'Glen House',
        amenityFeature: [{ '@type': 'LocationFeatureSpecification', name: 'Free parking', value: true }],
      }),
      objectSchema({ free_parking: BOOLEAN, free_wifi: BOOLEAN }),
    );
    assert.deepEqual(bnb, { free_parking: true, free_wifi: null });
    const saas = rules(
      page({
        '@type': 'SoftwareApplication',
        name: 'FormCrate',
        publisher: { '@type': 'Organization', name: 'FormCrate Inc.' },
        offers: [
          { '@type': 'Offer', name: 'Free', price: 0 },
          { '@type': 'Offer', name: 'Pro', price: 39 },
        ],
      }),
      objectSchema({ vendor: STRING, plans: { type: 'array', items: objectSchema({ name: STRING, price: NUMBER }) } }),
    );
    assert.deepEqual(saas, {
      vendor: 'FormCrate Inc.',
      plans: [
        { name: 'Free', price: 0 },
        { name: 'Pro', price: 39 },
      ],
    });
    const course = rules(
      page({
        '@type': 'Course',
        name: 'SQL',
        syllabusSections: [
          { '@type': 'Syllabus', name: 'Getting started' },
          { '@type': 'Syllabus', name: 'Joins' },
        ],
      }),
      objectSchema({ modules: { type: 'array', items: objectSchema({ title: STRING }) } }),
    );
    assert.deepEqual(course['modules'], [{ title: 'Getting started' }, { title: 'Joins' }]);
    const product = rules(
      page({ '@type': 'Product', name: 'HD 160', mpn: 'HD160P-EU' }),
      objectSchema({ hersteller_artikelnummer: STRING, artikelname: STRING }),
    );
    assert.deepEqual(product, { hersteller_artikelnummer: 'HD160P-EU', artikelname: 'HD 160' });
  });
});

describe('after holdout8 was read: Blogger dates, vacation rentals, breadcrumbs, roles, workplaces', () => {
  test('an <abbr> stating an ISO date in its title; the publication time of day from it', () => {
    const html =
      '<html><body><article itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="name">Matera</h1>' +
      '<abbr itemprop="datePublished" title="2025-03-09T10:30:00+01:00">10:30</abbr></article></body></html>';
    const out = rules(
      html,
      objectSchema({ data_pubblicazione: { type: 'string', format: 'date' }, ora_pubblicazione: STRING }),
    );
    assert.deepEqual(out, { data_pubblicazione: '2025-03-09', ora_pubblicazione: '10:30' });
  });

  test('a VacationRental states its place under containsPlace; an id is the identifier', () => {
    const out = rules(
      page({
        '@type': 'VacationRental',
        name: 'Creekside A-frame',
        identifier: '1093847561203948571',
        containsPlace: {
          '@type': 'Accommodation',
          additionalType: 'EntirePlace',
          occupancy: { '@type': 'QuantitativeValue', value: 4 },
          numberOfBedrooms: 2,
          numberOfBathroomsTotal: 1,
        },
      }),
      objectSchema({
        listing_id: STRING,
        listing_type: { type: 'string', enum: ['entire_place', 'private_room'] },
        max_guests: INTEGER,
        bedrooms: INTEGER,
        bathrooms: INTEGER,
      }),
    );
    assert.deepEqual(out, {
      listing_id: '1093847561203948571',
      listing_type: 'entire_place',
      max_guests: 4,
      bedrooms: 2,
      bathrooms: 1,
    });
  });

  test('a product’s category from its breadcrumb trail (not the product itself); payments split; roles; workplaces', () => {
    const html = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'BreadcrumbList',
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Home' },
            { '@type': 'ListItem', position: 2, name: 'Backpacking Tents' },
            { '@type': 'ListItem', position: 3, name: 'Trailhead 2' },
          ],
        },
        { '@type': 'Product', name: 'Trailhead 2', offers: { price: '249.95' } },
      ],
    })}</script></head><body></body></html>`;
    assert.deepEqual(rules(html, objectSchema({ category: STRING, prix_ttc: NUMBER })), {
      category: 'Backpacking Tents',
      prix_ttc: 249.95,
    });
    const garage = rules(
      page({ '@type': 'AutoRepair', name: 'Duda Motors', paymentAccepted: 'Cash, Credit Card, Apple Pay' }),
      objectSchema({ payment_methods: STRINGS }),
    );
    assert.deepEqual(garage['payment_methods'], ['Cash', 'Credit Card', 'Apple Pay']);
    const job = rules(
      page({
        '@type': 'JobPosting',
        title: 'Engineer',
        jobLocationType: 'TELECOMMUTE',
        identifier: { '@type': 'PropertyValue', name: 'Workable', value: 'A7F3C91B2E' },
        author: [{ '@type': 'Person', name: 'Ann Lee', jobTitle: 'Environment Reporter' }],
      }),
      objectSchema({
        workplace: { type: 'string', enum: ['remote', 'hybrid', 'onsite'] },
        jobCode: STRING,
        authors: { type: 'array', items: objectSchema({ name: STRING, role: STRING }) },
      }),
    );
    assert.deepEqual(job, {
      workplace: 'remote',
      jobCode: 'A7F3C91B2E',
      authors: [{ name: 'Ann Lee', role: 'Environment Reporter' }],
    });
  });

  test('nutrients written in words (milligrams); a sale’s end and a cover image in other languages', () => {
    const out = rules(
      page({
        '@type': 'Recipe',
        name: 'Buns',
        image: 'https://example.com/buns.jpg',
        nutrition: { '@type': 'NutritionInformation', sodiumContent: '96 milligrams', calories: '248 calories' },
        offers: { price: 5, priceValidUntil: '2025-05-31' },
      }),
      objectSchema({
        nutrition: objectSchema({ sodium_mg: NUMBER, kcal: NUMBER }),
        fin_promotion: { type: 'string', format: 'date' },
        immagine_copertina: STRING,
      }),
    );
    assert.deepEqual(out, {
      nutrition: { sodium_mg: 96, kcal: 248 },
      fin_promotion: '2025-05-31',
      immagine_copertina: 'https://example.com/buns.jpg',
    });
  });
});

describe('RDFa as Drupal writes it, and the older interactionCount', () => {
  const drupal =
    '<html><body><article about="/node/1" typeof="schema:Article">' +
    '<span property="schema:name" content="Les fromagers du Jura"></span>' +
    '<span property="schema:interactionCount" content="UserComments:3"></span>' +
    '<span rel="schema:author"><span about="/auteurs/claire" typeof="schema:Person" property="schema:name">' +
    'Claire Vuillemin</span></span>' +
    '<img property="schema:image" typeof="foaf:Image" src="/files/cave.jpg">' +
    '<a href="/" rel="home">Accueil</a></article></body></html>';

  test('a hanging rel takes the typed element inside it; about+typeof+property is that item’s own property', () => {
    const out = extractJsonByRules(drupal, 'https://www.terroirs.fr/a', {
      schema: objectSchema({
        titre: STRING,
        auteur: objectSchema({ nom: STRING }),
        photo: objectSchema({ url: STRING }),
        nombre_commentaires: INTEGER,
        home: STRING,
      }),
    });
    assert.deepEqual(out, {
      titre: 'Les fromagers du Jura',
      auteur: { nom: 'Claire Vuillemin' },
      photo: { url: 'https://www.terroirs.fr/files/cave.jpg' },
      nombre_commentaires: 3,
      home: null,
    });
  });

  test('interactionCount "UserComments:3" is no view count; a bare number is', () => {
    const schema = objectSchema({ views: INTEGER, comment_count: INTEGER });
    assert.deepEqual(rules(page({ '@type': 'Article', headline: 'A', interactionCount: 'UserComments:3' }), schema), {
      views: null,
      comment_count: 3,
    });
    assert.deepEqual(rules(page({ '@type': 'VideoObject', name: 'V', interactionCount: '482913' }), schema), {
      views: 482913,
      comment_count: null,
    });
  });
});

describe('after holdout9 was read: grouping objects, yes/no by a feature’s name, forums, more languages', () => {
  test('a grouping object (specs, merkmale) is filled from the thing itself; a breadcrumb under WebPage.breadcrumb', () => {
    const html = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'WebPage',
          breadcrumb: {
            '@type': 'BreadcrumbList',
            itemListElement: [
              { '@type': 'ListItem', position: 1, name: 'Startseite' },
              { '@type': 'ListItem', position: 2, name: 'Elektrische Kaffeemühlen' },
              { '@type': 'ListItem', position: 3, name: 'Mahlwerk 64' },
            ],
          },
        },
        {
          '@type': 'Product',
          name: 'Mahlwerk 64',
          weight: { '@type': 'QuantitativeValue', value: 3.9, unitCode: 'KGM' },
          offers: { price: '499', availability: 'https://schema.org/InStock' },
        },
      ],
    })}</script></head><body></body></html>`;
    const out = rules(
      html,
      objectSchema({
        kategorie: STRING,
        sofort_lieferbar: BOOLEAN,
        merkmale: objectSchema({ gewicht_kg: NUMBER }),
        specs: objectSchema({ weight_g: NUMBER }),
        seller: objectSchema({ name: STRING }),
      }),
    );
    assert.deepEqual(out, {
      kategorie: 'Elektrische Kaffeemühlen',
      sofort_lieferbar: true,
      merkmale: { gewicht_kg: 3.9 },
      specs: { weight_g: 3900 },
      seller: null,
    });
  });

  test('a boolean named by a feature alone reads whether the place has it; availability in Polish', () => {
    const motel = rules(
      page({
        '@type': 'Motel',
        name: 'Bayside',
        amenityFeature: [{ '@type': 'LocationFeatureSpecification', name: 'Pool', value: true }],
      }),
      objectSchema({ pool: BOOLEAN, gym: BOOLEAN }),
    );
    assert.deepEqual(motel, { pool: true, gym: null });
    const plecak = rules(
      page({ '@type': 'Product', name: 'Plecak', offers: { availability: 'https://schema.org/InStock' } }),
      objectSchema({ dostepnosc: { type: 'string', enum: ['dostepny', 'niedostepny'] } }),
    );
    assert.equal(plecak['dostepnosc'], 'dostepny');
  });

  test('a forum thread: its topic title, the original post as a group, reply count, replies’ times', () => {
    const out = rules(
      page({
        '@type': 'DiscussionForumPosting',
        headline: 'Starter smells like nail polish remover',
        datePublished: '2025-03-18T07:42:19Z',
        dateModified: '2025-03-19T07:42:19Z',
        author: { '@type': 'Person', name: 'bakerbex' },
        interactionStatistic: {
          '@type': 'InteractionCounter',
          interactionType: 'http://schema.org/CommentAction',
          userInteractionCount: 5,
        },
        comment: [{ '@type': 'Comment', text: 'Hungry starter.', datePublished: '2025-03-18T08:10:05Z' }],
      }),
      objectSchema({
        topic_title: STRING,
        edited: { type: 'string', format: 'date' },
        original_post: objectSchema({ author: STRING, posted_at: STRING }),
        reply_count: INTEGER,
        replies: { type: 'array', items: objectSchema({ posted_at: STRING }) },
      }),
    );
    assert.deepEqual(out, {
      topic_title: 'Starter smells like nail polish remover',
      edited: '2025-03-19',
      original_post: { author: 'bakerbex', posted_at: '2025-03-18T07:42:19Z' },
      reply_count: 5,
      replies: [{ posted_at: '2025-03-18T08:10:05Z' }],
    });
  });

  test('Spanish and French names: an event’s name and start time, a Mexican state, a recipe’s people', () => {
    const race = rules(
      page({
        '@type': 'SportsEvent',
        name: 'Carrera Nocturna 10K',
        startDate: '2025-06-14T20:00:00-06:00',
        location: { '@type': 'Place', address: { '@type': 'PostalAddress', addressRegion: 'Jalisco' } },
      }),
      objectSchema({ nombre_evento: STRING, hora_salida: STRING, sede: objectSchema({ estado: STRING }) }),
    );
    assert.deepEqual(race, {
      nombre_evento: 'Carrera Nocturna 10K',
      hora_salida: '20:00',
      sede: { estado: 'Jalisco' },
    });
    const recette = rules(
      page({ '@type': 'Recipe', name: 'Gratin', recipeYield: '4' }),
      objectSchema({ nb_personnes: INTEGER }),
    );
    assert.equal(recette['nb_personnes'], 4);
  });
});
