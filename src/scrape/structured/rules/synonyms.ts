// The synonym table: which facts of a page a schema property name can mean. A property is looked up by its own
// name first (case/separator-insensitive), then through the first group listing that name. Paths are dotted
// property names on the main entity ('offers.price' is the price of the entity's offer); meta keys are read
// after the entity, visible labels after the meta tags. docs/structured-rules.md prints this table; keep them
// in step.
import type { PageMetadata } from '../../extract/metadata.js';

export type MetadataField = keyof Pick<
  PageMetadata,
  'title' | 'description' | 'author' | 'publishedTime' | 'keywords' | 'language' | 'canonical'
>;

export interface SynonymGroup {
  /** Property names of a client's schema that mean this fact (compared after normalizeKey). */
  names: string[];
  /** Paths on the entity, tried in order. */
  paths: string[];
  /** <meta> keys (lower-case), tried in order, for the page's main entity only. */
  meta?: string[];
  /** Page metadata read after the meta tags. */
  metadata?: MetadataField;
  /** Labels of the visible content that also mean this fact, beyond `names`. */
  labels?: string[];
  /** A single text value of an array-of-strings property is a list written out: split on commas or lines. */
  split?: 'comma' | 'lines';
}

export const SYNONYMS: ReadonlyArray<SynonymGroup> = [
  {
    names: ['name', 'title', 'headline', 'product name', 'product title'],
    paths: ['name', 'headline', 'title', 'alternativeHeadline'],
    meta: ['og:title', 'twitter:title'],
    metadata: 'title',
  },
  {
    names: ['description', 'summary', 'abstract'],
    paths: ['description', 'abstract'],
    meta: ['og:description', 'description', 'twitter:description'],
    metadata: 'description',
  },
  {
    names: ['price', 'current price', 'sale price', 'amount'],
    paths: ['offers.price', 'offers.lowPrice', 'offers.priceSpecification.price', 'price'],
    meta: ['product:price:amount', 'og:price:amount'],
    labels: ['our price', 'sale price', 'price now'],
  },
  { names: ['low price', 'min price', 'price from'], paths: ['offers.lowPrice', 'lowPrice'] },
  { names: ['high price', 'max price'], paths: ['offers.highPrice', 'highPrice'] },
  {
    names: ['currency', 'price currency', 'currency code'],
    paths: ['offers.priceCurrency', 'offers.priceSpecification.priceCurrency', 'priceCurrency', 'currency'],
    meta: ['product:price:currency', 'og:price:currency'],
  },
  {
    names: ['availability', 'stock', 'in stock', 'stock status', 'available', 'inventory status'],
    paths: ['offers.availability', 'availability'],
    meta: ['product:availability', 'og:availability'],
  },
  { names: ['condition', 'item condition'], paths: ['offers.itemCondition', 'itemCondition'] },
  { names: ['seller', 'merchant', 'vendor', 'retailer', 'store'], paths: ['offers.seller', 'seller'] },
  { names: ['brand', 'brand name', 'manufacturer', 'make'], paths: ['brand', 'manufacturer'] },
  { names: ['sku', 'item number'], paths: ['sku', 'offers.sku'] },
  { names: ['gtin', 'ean', 'upc', 'barcode'], paths: ['gtin', 'gtin13', 'gtin12', 'gtin14', 'gtin8', 'isbn'] },
  { names: ['mpn', 'part number'], paths: ['mpn'] },
  { names: ['color', 'colour', 'colors', 'colours'], paths: ['color'] },
  { names: ['variants', 'variations', 'options'], paths: ['hasVariant', 'offers'] },
  { names: ['items', 'list', 'results', 'entries', 'elements'], paths: ['itemListElement'] },
  {
    names: ['rating', 'rating value', 'average rating', 'avg rating', 'stars'],
    paths: ['aggregateRating.ratingValue', 'reviewRating.ratingValue', 'ratingValue', 'aggregateRating'],
  },
  {
    names: ['review count', 'reviews count', 'number of reviews', 'num reviews', 'total reviews', 'rating count'],
    paths: ['aggregateRating.reviewCount', 'aggregateRating.ratingCount', 'reviewCount', 'ratingCount'],
  },
  // 'reviews' is both: the review items for an array schema, their stated count for a number schema (coercion
  // keeps the first candidate that fits the type).
  {
    names: ['reviews'],
    paths: ['review', 'reviews', 'aggregateRating.reviewCount', 'aggregateRating.ratingCount'],
  },
  {
    names: ['author', 'authors', 'author name', 'byline', 'writer', 'creator', 'by'],
    paths: ['author', 'creator'],
    meta: ['author', 'article:author', 'twitter:creator'],
    metadata: 'author',
  },
  { names: ['publisher', 'site name', 'source'], paths: ['publisher', 'sourceOrganization'], meta: ['og:site_name'] },
  {
    names: ['date'],
    paths: ['datePublished', 'dateCreated', 'startDate', 'uploadDate', 'datePosted', 'dateModified'],
    meta: ['article:published_time'],
    metadata: 'publishedTime',
  },
  {
    names: [
      'date published',
      'published date',
      'publish date',
      'publication date',
      'published',
      'published at',
      'published on',
      'pub date',
      'release date',
      'post date',
    ],
    paths: ['datePublished', 'dateCreated', 'uploadDate'],
    meta: ['article:published_time', 'og:published_time'],
    metadata: 'publishedTime',
  },
  { names: ['date created', 'created', 'created at', 'creation date'], paths: ['dateCreated', 'datePublished'] },
  {
    names: ['date modified', 'modified', 'updated', 'updated at', 'last modified', 'last updated', 'date updated'],
    paths: ['dateModified'],
    meta: ['article:modified_time', 'og:updated_time'],
  },
  { names: ['start date', 'start', 'start time', 'starts', 'event date', 'begins'], paths: ['startDate'] },
  { names: ['end date', 'end', 'end time', 'ends'], paths: ['endDate'] },
  {
    names: ['image', 'image url', 'images', 'photo', 'photos', 'picture', 'thumbnail', 'thumbnail url', 'main image'],
    paths: ['image', 'thumbnailUrl', 'thumbnail'],
    meta: ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'],
  },
  {
    names: ['url', 'link', 'href', 'page url', 'permalink', 'canonical url', 'canonical'],
    paths: ['url', 'mainEntityOfPage'],
    meta: ['og:url'],
    metadata: 'canonical',
  },
  {
    names: ['category', 'categories', 'section', 'article section', 'genre'],
    paths: ['category', 'articleSection', 'genre', 'recipeCategory'],
    meta: ['article:section'],
  },
  {
    names: ['keywords', 'tags', 'tag', 'topics'],
    paths: ['keywords'],
    meta: ['keywords', 'article:tag', 'news_keywords'],
    metadata: 'keywords',
    split: 'comma',
  },
  { names: ['language', 'lang', 'in language', 'locale'], paths: ['inLanguage'], metadata: 'language' },
  {
    names: ['ingredients', 'recipe ingredient', 'recipe ingredients', 'ingredient list'],
    paths: ['recipeIngredient', 'ingredients', 'supply'],
    split: 'lines',
  },
  {
    names: ['instructions', 'steps', 'recipe instructions', 'method', 'directions'],
    paths: ['recipeInstructions', 'step'],
    split: 'lines',
  },
  { names: ['cuisine', 'recipe cuisine'], paths: ['recipeCuisine', 'servesCuisine'] },
  { names: ['servings', 'yield', 'recipe yield', 'serves'], paths: ['recipeYield', 'yield'] },
  { names: ['calories'], paths: ['nutrition.calories'] },
  { names: ['prep time', 'preparation time'], paths: ['prepTime'] },
  { names: ['cook time', 'cooking time'], paths: ['cookTime'] },
  { names: ['total time'], paths: ['totalTime'] },
  {
    names: ['location', 'venue', 'place', 'job location', 'work location'],
    paths: ['location', 'jobLocation', 'contentLocation'],
  },
  { names: ['venue name', 'location name'], paths: ['location.name'] },
  { names: ['address', 'full address'], paths: ['address', 'location.address', 'jobLocation.address'] },
  { names: ['street', 'street address'], paths: ['address.streetAddress', 'location.address.streetAddress'] },
  {
    names: ['postal code', 'zip', 'zip code', 'postcode'],
    paths: ['address.postalCode', 'location.address.postalCode'],
  },
  { names: ['state', 'region'], paths: ['address.addressRegion', 'location.address.addressRegion'] },
  { names: ['city', 'locality'], paths: ['address.addressLocality', 'location.address.addressLocality'] },
  { names: ['country'], paths: ['address.addressCountry', 'location.address.addressCountry'] },
  { names: ['organizer', 'organiser', 'host'], paths: ['organizer'] },
  { names: ['performer', 'performers', 'artist', 'artists', 'lineup'], paths: ['performer'] },
  { names: ['event status', 'status'], paths: ['eventStatus'] },
  { names: ['tickets', 'ticket url'], paths: ['offers.url'] },
  {
    names: ['company', 'company name', 'employer', 'hiring organization'],
    paths: ['hiringOrganization', 'worksFor', 'employer'],
  },
  { names: ['salary', 'base salary', 'pay', 'compensation', 'wage'], paths: ['baseSalary', 'estimatedSalary'] },
  { names: ['salary currency'], paths: ['baseSalary.currency', 'salaryCurrency'] },
  { names: ['employment type', 'job type'], paths: ['employmentType'] },
  { names: ['date posted', 'posted', 'posted at', 'posting date'], paths: ['datePosted'] },
  {
    names: ['valid through', 'deadline', 'closing date', 'application deadline', 'expires'],
    paths: ['validThrough'],
  },
  { names: ['job title', 'position title'], paths: ['title', 'name'] },
  { names: ['phone', 'telephone', 'phone number', 'tel'], paths: ['telephone', 'contactPoint.telephone'] },
  { names: ['email', 'e mail', 'email address'], paths: ['email', 'contactPoint.email'] },
  { names: ['opening hours', 'hours'], paths: ['openingHours', 'openingHoursSpecification'] },
  { names: ['duration', 'runtime'], paths: ['duration', 'timeRequired'] },
  { names: ['body', 'article body', 'review body', 'content', 'text'], paths: ['articleBody', 'reviewBody', 'text'] },
  { names: ['word count'], paths: ['wordCount'] },
  { names: ['pages', 'page count', 'number of pages', 'num pages'], paths: ['numberOfPages'] },
  { names: ['rank', 'position', 'ranking'], paths: ['position'] },
];

/**
 * Prefixes a schema's names often carry ('product_price', 'article_title', 'event_date'): stripped for a second
 * lookup when the whole name finds nothing. Only type words: 'company' is not one ('company_name' is not the
 * entity's name).
 */
export const TYPE_PREFIXES = ['product', 'article', 'recipe', 'event', 'job', 'item', 'post', 'page', 'book'];
