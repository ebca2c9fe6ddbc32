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
  /** The paths state the opposite yes/no (`paywalled` is `isAccessibleForFree: false`): booleans are negated. */
  negate?: boolean;
  /**
   * The paths name enumeration members (`suitableForDiet: VegetarianDiet`): the property is true when one of them
   * holds its name's words (`vegetarian`, `gluten free`); otherwise nothing is stated. 'exclusive': the thing
   * states one member of the enumeration (one attendance mode), so a stated other member is `false`.
   */
  member?: boolean | 'exclusive';
  /** The paths state ISO 8601 intervals ('2015-01-01/2023-12-31'): the property is this part of them. */
  interval?: 'start' | 'end';
  /** The paths state numbers in a smaller unit: each is divided by this (months of experience asked in years). */
  divide?: number;
  /** The property is the lowest of the amounts stated ('price from' over several offers). */
  pick?: 'lowest';
  /** The name of a listing page (a category, a collection): see listingName in fill.ts. */
  listing?: boolean;
  /** The page's meta tags are read before the entity (a site's name: og:site_name before the publisher). */
  metaFirst?: boolean;
  /** The meta/metadata values are page titles: a site-name suffix is dropped (see pageTitle in fill.ts). */
  pageTitle?: boolean;
}

export const SYNONYMS: ReadonlyArray<SynonymGroup> = [
  {
    names: [
      'name',
      'title',
      'headline',
      'product name',
      'product title',
      // An article's or a post's own name ("<type> name" is read by structure: a hotel_name only on a Hotel). A
      // show is an episode's series (synonyms-vocabulary.ts).
      'article title',
      'post title',
    ],
    paths: ['name', 'headline', 'title', 'alternativeHeadline'],
    meta: ['og:title', 'twitter:title'],
    metadata: 'title',
    pageTitle: true,
  },
  {
    names: ['description', 'summary', 'abstract', 'dek', 'standfirst', 'subheading', 'subhead', 'strapline', 'excerpt'],
    paths: ['description', 'abstract'],
    meta: ['og:description', 'description', 'twitter:description'],
    metadata: 'description',
  },
  {
    // Clients' schemas in German, French, Spanish and Italian name the price in their language.
    // What a thing costs: a product's price, an event's fee, a how-to's estimated cost.
    names: [
      'price',
      'current price',
      'sale price',
      'amount',
      'preis',
      'prix',
      'precio',
      'prezzo',
      'cost',
      'fee',
      'entry fee',
      'entrance fee',
      'admission',
      'admission fee',
      'admission price',
      'ticket price',
    ],
    paths: ['offers.price', 'offers.lowPrice', 'offers.priceSpecification.price', 'price', 'estimatedCost'],
    // A sale price stated beside the regular one is the current price.
    meta: ['product:sale_price:amount', 'product:price:amount', 'og:price:amount'],
    labels: ['our price', 'sale price', 'price now', 'preis', 'prix', 'precio', 'prezzo', 'unser preis', 'notre prix'],
  },
  // With no lowPrice stated, the lowest of the offers' prices ('tickets from £22').
  {
    names: [
      'low price',
      'min price',
      'price from',
      'lowest price',
      'minimum price',
      'from price',
      'starting price',
      'starting at',
      'prices from',
      'ticket price from',
      'tickets from',
      'ticket price min',
      'cheapest price',
    ],
    // A place's priceRange ('118 € - 240 €') starts at its lowest price.
    paths: [
      'offers.lowPrice',
      'lowPrice',
      'offers.price',
      'offers.priceSpecification.price',
      'hasVariant.offers.price',
      'priceRange',
    ],
    pick: 'lowest',
  },
  {
    names: ['high price', 'max price', 'highest price', 'maximum price', 'price max', 'price to', 'to price'],
    paths: ['offers.highPrice', 'highPrice'],
  },
  {
    names: ['offer count', 'offers count', 'number of offers', 'shop count', 'seller count', 'number of sellers'],
    paths: ['offers.offerCount', 'offerCount'],
  },
  {
    names: ['currency', 'price currency', 'currency code', 'waehrung', 'währung', 'devise', 'moneda', 'valuta'],
    paths: [
      'offers.priceCurrency',
      'offers.priceSpecification.priceCurrency',
      'priceCurrency',
      'currency',
      'currenciesAccepted',
    ],
    meta: ['product:price:currency', 'og:price:currency'],
  },
  {
    names: [
      'availability',
      'stock',
      'in stock',
      'stock status',
      'available',
      'inventory status',
      'available online',
      'online available',
      'online availability',
      'in stock online',
    ],
    paths: ['offers.availability', 'availability'],
    meta: ['product:availability', 'og:availability'],
  },
  {
    names: ['condition', 'item condition'],
    paths: ['offers.itemCondition', 'itemCondition'],
    labels: ['zustand', 'état', 'estado', 'condizione'],
  },
  { names: ['seller', 'merchant', 'retailer', 'store'], paths: ['offers.seller', 'seller'] },
  // The shop a product page belongs to: its seller, else the site's name.
  {
    names: ['shop name', 'store name', 'shop', 'webshop', 'online shop', 'retailer name'],
    paths: ['offers.seller', 'seller'],
    meta: ['og:site_name'],
  },
  // A shop's vendor (Shopify's) is the maker when no seller is stated.
  // A software vendor is its publisher or author.
  {
    names: ['vendor', 'vendor name'],
    paths: ['offers.seller', 'seller', 'brand', 'manufacturer', 'publisher', 'author', 'provider'],
  },
  {
    names: ['brand', 'brand name', 'manufacturer', 'make', 'maker'],
    paths: ['brand', 'manufacturer'],
    meta: ['product:brand', 'og:brand'],
    labels: ['marke', 'hersteller', 'marque', 'fabricant', 'marca', 'fabricante', 'made by'],
  },
  {
    names: [
      'sku',
      'item number',
      'stock number',
      'stock no',
      'stock id',
      'stock code',
      'style code',
      'style number',
      'product code',
      'item code',
      'article number',
      'artikelnummer',
      'référence',
      'referencia',
    ],
    // A product group's own code is its productGroupID (its variants' SKUs are theirs).
    paths: ['sku', 'offers.sku', 'productGroupID'],
    meta: ['product:retailer_item_id', 'product:sku'],
    labels: ['artikelnummer', 'art nr', 'référence', 'réf', 'ref', 'referencia'],
  },
  // A product's codes may be stated on its offer (Shopware, Magento).
  {
    names: ['gtin', 'ean', 'upc', 'barcode'],
    paths: [
      'gtin',
      'gtin13',
      'gtin12',
      'gtin14',
      'gtin8',
      'isbn',
      'offers.gtin',
      'offers.gtin13',
      'offers.gtin12',
      'offers.gtin14',
      'offers.gtin8',
    ],
  },
  {
    names: [
      'mpn',
      'part number',
      'manufacturer part number',
      'manufacturer number',
      'manufacturer product number',
      'manufacturer sku',
      'mfr part number',
    ],
    paths: ['mpn', 'offers.mpn'],
  },
  {
    names: ['model', 'model number', 'model no', 'model name', 'model code'],
    paths: ['model', 'mpn'],
    labels: ['modell', 'modellnummer', 'modèle', 'référence du modèle', 'modelo', 'modello'],
  },
  {
    names: ['color', 'colour', 'colors', 'colours'],
    paths: ['color'],
    meta: ['product:color'],
    labels: ['farbe', 'couleur', 'colore'],
  },
  { names: ['variants', 'variations', 'options'], paths: ['hasVariant', 'offers'] },
  { names: ['items', 'list', 'results', 'entries', 'elements'], paths: ['itemListElement'] },
  // A hotel's stars are its starRating (the classification), not its guests' average rating.
  {
    names: ['stars', 'star rating', 'star class', 'hotel stars'],
    // A review's stars are its rating.
    paths: ['starRating', 'aggregateRating.ratingValue', 'reviewRating.ratingValue'],
  },
  {
    names: [
      'rating',
      'rating value',
      'average',
      'avg',
      'mean',
      'average rating',
      'avg rating',
      'guest rating',
      'user rating',
      'customer rating',
      'review score',
      'user score',
      'audience score',
      'imdb rating',
      'score',
    ],
    paths: ['aggregateRating.ratingValue', 'reviewRating.ratingValue', 'ratingValue', 'aggregateRating'],
  },
  {
    names: [
      'review count',
      'anzahl bewertungen',
      'nombre d avis',
      'reviews count',
      'number of reviews',
      'num reviews',
      'total reviews',
      'rating count',
      'ratings count',
      'ratings total',
      'total ratings',
      'number of ratings',
    ],
    paths: ['aggregateRating.reviewCount', 'aggregateRating.ratingCount', 'reviewCount', 'ratingCount'],
  },
  // Votes are ratings (ratingCount), before written reviews.
  {
    names: ['votes', 'vote count', 'number of votes', 'votes count'],
    paths: ['aggregateRating.ratingCount', 'ratingCount', 'aggregateRating.reviewCount', 'reviewCount'],
  },
  // 'reviews' is both: the review items for an array schema, their stated count for a number schema (coercion
  // keeps the first candidate that fits the type).
  {
    names: ['reviews'],
    paths: ['review', 'reviews', 'aggregateRating.reviewCount', 'aggregateRating.ratingCount'],
  },
  {
    names: ['author', 'authors', 'author name', 'byline', 'writer', 'creator', 'by', 'chef', 'written by', 'posted by'],
    paths: ['author', 'creator'],
    meta: ['author', 'article:author', 'twitter:creator'],
    metadata: 'author',
  },
  // A person's role is their job title (an article's authors: {name, role}).
  {
    names: ['role', 'job role', 'jobtitle', 'occupation title'],
    paths: ['jobTitle', 'roleName', 'hasOccupation.name'],
  },
  {
    names: ['author role', 'author title', 'author job title', 'author position'],
    paths: ['author.jobTitle', 'creator.jobTitle'],
  },
  { names: ['publisher', 'source'], paths: ['publisher', 'sourceOrganization'], meta: ['og:site_name'] },
  // A site's name is the brand it shows (og:site_name, its WebSite's name), not its publisher's legal name.
  {
    names: [
      'site name',
      'website name',
      'blog name',
      'publication name',
      'publication',
      'outlet',
      'newspaper',
      'magazine',
      'newsletter',
      'newsletter name',
    ],
    paths: ['isPartOf[WebSite].name', 'publisher'],
    meta: ['og:site_name', 'application-name'],
    metaFirst: true,
  },
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
    // A job posting is published on its datePosted.
    paths: ['datePublished', 'dateCreated', 'uploadDate', 'datePosted'],
    meta: ['article:published_time', 'og:published_time'],
    metadata: 'publishedTime',
  },
  { names: ['date created', 'created', 'created at', 'creation date'], paths: ['dateCreated', 'datePublished'] },
  {
    names: [
      'date modified',
      'edited',
      'edited at',
      'last edited',
      'modified',
      'updated',
      'updated at',
      'last modified',
      'last updated',
      'last updated date',
      'last modified date',
      'date updated',
      'updated date',
      'modified date',
    ],
    paths: ['dateModified'],
    meta: ['article:modified_time', 'og:updated_time'],
  },
  // A Course states its dates, mode and teachers on its CourseInstance.
  {
    names: ['start date', 'start', 'start time', 'starts', 'event date', 'begins', 'starts at', 'start datetime'],
    paths: ['startDate', 'hasCourseInstance.startDate'],
  },
  {
    names: ['end date', 'end', 'end time', 'ends', 'ends at', 'end datetime'],
    paths: ['endDate', 'hasCourseInstance.endDate'],
  },
  {
    names: ['year', 'release year', 'year published', 'publication year'],
    // A vehicle's year is its model year.
    paths: [
      'copyrightYear',
      'datePublished',
      'dateCreated',
      'startDate',
      'vehicleModelDate',
      'modelDate',
      'productionDate',
    ],
  },
  {
    names: [
      'image',
      'image url',
      'images',
      'photo',
      'photos',
      'picture',
      'thumbnail',
      'thumbnail url',
      'main image',
      'featured image',
      'featured image url',
      'hero image',
      'hero image url',
      'cover image',
      'lead image',
    ],
    paths: ['image', 'thumbnailUrl', 'thumbnail'],
    meta: ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'],
  },
  {
    names: ['url', 'link', 'href', 'page url', 'permalink', 'canonical url', 'canonical'],
    // A media object's or download's link is its contentUrl when it states no page url.
    paths: ['url', 'mainEntityOfPage', 'contentUrl'],
    meta: ['og:url'],
    metadata: 'canonical',
  },
  {
    names: ['category', 'categories', 'section', 'article section', 'genre'],
    // "Composting, Winter Gardening": one stated text of several sections.
    split: 'comma',
    // An app's category is its applicationCategory.
    paths: ['category', 'articleSection', 'genre', 'recipeCategory', 'applicationCategory'],
    meta: ['article:section'],
    labels: ['kategorie', 'catégorie', 'categoría', 'rubrik', 'rubrique'],
    // A category page's category is the page's own name.
    listing: true,
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
  {
    names: [
      'servings',
      'yield',
      'recipe yield',
      'serves',
      'portions',
      'people',
      'number of people',
      'persons',
      'number of persons',
    ],
    paths: ['recipeYield', 'yield'],
    labels: ['portionen', 'personen', 'portions', 'porciones', 'raciones'],
  },
  {
    names: ['calories', 'calories per serving', 'kcal', 'calorie count', 'calories serving', 'serving calories'],
    paths: ['nutrition.calories', 'calories'],
    labels: ['kalorien', 'calorías'],
  },
  {
    names: ['protein', 'proteins', 'protein content'],
    paths: ['nutrition.proteinContent', 'proteinContent'],
    labels: ['eiweiß', 'eiweiss', 'protéines', 'proteínas'],
  },
  {
    names: ['fat', 'fat content', 'total fat'],
    paths: ['nutrition.fatContent', 'fatContent'],
    labels: ['fett', 'matières grasses', 'lipides', 'grasas'],
  },
  {
    names: ['carbohydrates', 'carbs', 'carbohydrate', 'carbohydrate content'],
    paths: ['nutrition.carbohydrateContent', 'carbohydrateContent'],
    labels: ['kohlenhydrate', 'glucides', 'hidratos de carbono', 'carbohidratos'],
  },
  {
    names: ['sugar', 'sugars', 'sugar content'],
    paths: ['nutrition.sugarContent', 'sugarContent'],
    labels: ['zucker', 'davon zucker', 'sucres', 'azúcares'],
  },
  {
    names: ['fiber', 'fibre', 'fiber content'],
    paths: ['nutrition.fiberContent', 'fiberContent'],
    labels: ['ballaststoffe', 'fibres', 'fibra'],
  },
  { names: ['salt', 'salt content'], paths: [], labels: ['salz', 'sel', 'sal'] },
  { names: ['sodium', 'sodium content'], paths: ['nutrition.sodiumContent', 'sodiumContent'] },
  {
    names: ['prep time', 'preparation time', 'prep', 'preparation'],
    paths: ['prepTime'],
    labels: ['zubereitungszeit', 'vorbereitungszeit', 'temps de préparation', 'préparation', 'tiempo de preparación'],
  },
  {
    names: ['cook time', 'cooking time', 'cook', 'cooking'],
    paths: ['cookTime'],
    labels: ['kochzeit', 'garzeit', 'backzeit', 'temps de cuisson', 'cuisson', 'tiempo de cocción'],
  },
  { names: ['total time'], paths: ['totalTime'], labels: ['gesamtzeit', 'temps total', 'tiempo total'] },
  {
    names: ['location', 'venue', 'place', 'job location', 'work location'],
    paths: ['location', 'jobLocation', 'contentLocation'],
  },
  { names: ['venue name', 'location name'], paths: ['location.name'] },
  { names: ['address', 'full address'], paths: ['address', 'location.address', 'jobLocation.address'] },
  // The bare part names come first so that a nested `address: {street, zip}` reads its PostalAddress.
  {
    names: ['street', 'street address'],
    paths: [
      'streetAddress',
      'address.streetAddress',
      'location.address.streetAddress',
      'jobLocation.address.streetAddress',
    ],
  },
  {
    names: ['postal code', 'zip', 'zip code', 'postcode'],
    paths: ['postalCode', 'address.postalCode', 'location.address.postalCode', 'jobLocation.address.postalCode'],
  },
  {
    names: ['state', 'region', 'province', 'county'],
    paths: [
      'addressRegion',
      'address.addressRegion',
      'location.address.addressRegion',
      'jobLocation.address.addressRegion',
    ],
  },
  {
    names: ['city', 'locality', 'suburb', 'town', 'office city'],
    paths: [
      'addressLocality',
      'address.addressLocality',
      'location.address.addressLocality',
      'jobLocation.address.addressLocality',
    ],
  },
  {
    names: ['country'],
    paths: [
      'addressCountry',
      'address.addressCountry',
      'location.address.addressCountry',
      'jobLocation.address.addressCountry',
      'countryOfOrigin',
    ],
  },
  {
    // A meetup's group is its organizer.
    names: [
      'organizer',
      'organiser',
      'host',
      'promoter',
      'organized by',
      'organised by',
      'presented by',
      'group',
      'group name',
      'meetup group',
      'community',
    ],
    paths: ['organizer'],
  },
  // An offer's own name is its ticket tier; a session's location name its room.
  { names: ['tier', 'ticket tier', 'ticket type', 'ticket name'], paths: ['name'] },
  { names: ['room', 'room name', 'hall', 'stage'], paths: ['location.name'] },
  // "Sold out" is the opposite of in stock.
  { names: ['sold out', 'is sold out'], paths: ['availability', 'offers.availability'], negate: true },
  // A recipe states its diets as members: VegetarianDiet, VeganDiet, GlutenFreeDiet, HalalDiet, LowSaltDiet...
  {
    names: [
      'vegetarian',
      'vegan',
      'gluten free',
      'halal',
      'kosher',
      'hindu',
      'low calorie',
      'low fat',
      'low lactose',
      'low salt',
      'diabetic',
      'is vegetarian',
      'is vegan',
      'is gluten free',
    ],
    paths: ['suitableForDiet'],
    member: true,
  },
  // A subtitle is its own line (a book's "A Novel"), not the description.
  // An article's subtitle is its dek (the description) when it states no alternative headline.
  {
    names: ['subtitle', 'sub title', 'subheadline', 'sub headline', 'deck', 'kicker text'],
    paths: ['alternativeHeadline', 'alternateName', 'description'],
  },
  {
    names: ['min age', 'minimum age', 'age limit', 'age restriction'],
    paths: ['typicalAgeRange', 'audience.suggestedMinAge'],
  },
  {
    names: ['education level', 'education', 'education requirements', 'required education'],
    paths: ['educationRequirements.credentialCategory', 'educationRequirements'],
  },
  { names: ['profile url', 'profile link', 'profile'], paths: ['url', 'sameAs'] },
  {
    names: ['author bio', 'author description', 'about the author', 'author about', 'author biography'],
    paths: ['author.description', 'creator.description'],
  },
  { names: ['bio', 'biography'], paths: ['description'] },
  { names: ['latitude', 'lat'], paths: ['geo.latitude', 'latitude', 'location.geo.latitude'] },
  { names: ['longitude', 'lng', 'lon', 'long'], paths: ['geo.longitude', 'longitude', 'location.geo.longitude'] },
  { names: ['isbn', 'isbn13', 'isbn 13', 'isbn10', 'isbn 10'], paths: ['isbn', 'gtin13'] },
  {
    names: [
      'performer',
      'performers',
      'artist',
      'artists',
      'lineup',
      'speaker',
      'speakers',
      'presenter',
      'presenters',
      'ensemble',
      'orchestra',
      'choir',
    ],
    paths: ['performer'],
  },
  { names: ['cast', 'actor', 'actors', 'starring', 'stars list'], paths: ['actor', 'actors'] },
  { names: ['director', 'directors', 'directed by'], paths: ['director'] },
  {
    names: [
      'age rating',
      'content rating',
      'rated',
      'certification',
      'mpaa rating',
      'film rating',
      'pegi',
      'pegi rating',
      'esrb',
      'esrb rating',
      'usk',
    ],
    paths: ['contentRating'],
  },
  {
    names: ['level', 'course level', 'educational level', 'difficulty', 'skill level'],
    paths: ['educationalLevel', 'hasCourseInstance.educationalLevel', 'proficiencyLevel'],
  },
  {
    names: ['mode', 'course mode', 'delivery mode', 'study mode', 'attendance mode'],
    paths: ['courseMode', 'hasCourseInstance.courseMode', 'eventAttendanceMode'],
  },
  {
    names: ['instructor', 'instructors', 'teacher', 'teachers', 'tutor', 'tutors', 'lecturer', 'lecturers'],
    // An online course's creator is its instructor.
    paths: ['instructor', 'hasCourseInstance.instructor', 'creator', 'author'],
  },
  {
    names: ['check in', 'checkin', 'check in time', 'checkin time', 'check in from', 'checkin from', 'check in after'],
    paths: ['checkinTime'],
  },
  {
    names: [
      'check out',
      'checkout',
      'check out time',
      'checkout time',
      'check out until',
      'checkout until',
      'check out by',
    ],
    paths: ['checkoutTime'],
  },
  {
    names: ['room count', 'rooms count', 'number of rooms', 'num rooms', 'total rooms'],
    paths: ['numberOfRooms'],
  },
  {
    names: ['pets allowed', 'pets', 'pet friendly', 'allows pets'],
    paths: ['petsAllowed'],
  },
  {
    names: ['payment methods', 'payment accepted', 'payment options', 'payments accepted', 'accepted payments'],
    paths: ['paymentAccepted'],
    // "Cash, Credit Card, Apple Pay" is one stated text.
    split: 'comma',
  },
  { names: ['price range', 'price level'], paths: ['priceRange'] },
  {
    names: ['total results', 'result count', 'results count', 'number of results', 'number of items', 'item count'],
    paths: ['numberOfItems'],
  },
  {
    names: ['reading time', 'read time', 'time to read', 'time required'],
    paths: ['timeRequired'],
    labels: ['tiempo de lectura', 'temps de lecture', 'lesezeit', 'leestijd', 'tempo di lettura', 'tempo de leitura'],
  },
  {
    names: ['hours per week', 'weekly hours', 'work hours', 'working hours', 'hours a week'],
    paths: ['workHours'],
  },
  { names: ['event status', 'status'], paths: ['eventStatus'] },
  { names: ['tickets', 'ticket url'], paths: ['offers.url', 'offers'] },
  {
    names: [
      'ticket types',
      'ticket tiers',
      'ticket options',
      'ticket prices',
      'price tiers',
      'tiers',
      'offers',
      'plans',
      'pricing plans',
      'packages',
    ],
    paths: ['offers'],
  },
  {
    names: ['doors', 'doors open', 'door time', 'doors time', 'doors opening', 'entry time', 'admission time'],
    paths: ['doorTime'],
    labels: ['einlass', 'ouverture des portes', 'apertura de puertas'],
  },
  // A post's company is its publisher (an engineering blog's), or its author's employer.
  {
    names: ['company', 'company name', 'employer', 'hiring organization'],
    // A play's company is the performing group.
    paths: [
      'hiringOrganization',
      'worksFor',
      'employer',
      'author.worksFor',
      'publisher',
      'performer[PerformingGroup|TheaterGroup|DanceGroup]',
    ],
  },
  {
    names: ['salary', 'base salary', 'pay', 'compensation', 'wage', 'salary range', 'pay range', 'salary band'],
    paths: ['baseSalary', 'estimatedSalary'],
  },
  { names: ['salary currency'], paths: ['baseSalary.currency', 'salaryCurrency'] },
  {
    names: ['salary min', 'min salary', 'minimum salary', 'salary from', 'salary low', 'pay min'],
    paths: ['baseSalary.value.minValue', 'baseSalary.minValue', 'estimatedSalary.value.minValue'],
  },
  {
    names: ['salary max', 'max salary', 'maximum salary', 'salary to', 'salary high', 'pay max'],
    paths: ['baseSalary.value.maxValue', 'baseSalary.maxValue', 'estimatedSalary.value.maxValue'],
  },
  {
    names: ['salary period', 'salary unit', 'pay period', 'salary interval', 'pay interval'],
    paths: ['baseSalary.value.unitText', 'baseSalary.unitText', 'estimatedSalary.value.unitText'],
  },
  {
    names: ['remote', 'is remote', 'remote work', 'work from home', 'telecommute', 'remote ok', 'fully remote'],
    paths: ['jobLocationType'],
  },
  { names: ['employment type', 'job type'], paths: ['employmentType'] },
  {
    names: [
      'date posted',
      'posted',
      'posted at',
      'posted on',
      'posting date',
      'posted date',
      'post date time',
      'listed date',
      'listed on',
      'date listed',
      'listing date',
    ],
    // A post or a comment is posted when it is published.
    paths: ['datePosted', 'datePublished', 'dateCreated'],
  },
  // The parts of an amount range (a salary's MonetaryAmount, a QuantitativeValue) when read as an object.
  { names: ['min', 'minimum', 'min value'], paths: ['minValue', 'value.minValue'] },
  { names: ['max', 'maximum', 'max value', 'to'], paths: ['maxValue', 'value.maxValue'] },
  { names: ['per', 'unit', 'period', 'interval', 'unit text'], paths: ['unitText', 'value.unitText'] },
  {
    names: [
      'valid through',
      'deadline',
      'closing date',
      'application deadline',
      'expires',
      'apply by',
      'apply before',
      'applications close',
    ],
    paths: ['validThrough'],
  },
  { names: ['job title', 'position title'], paths: ['title', 'name'] },
  { names: ['phone', 'telephone', 'phone number', 'tel'], paths: ['telephone', 'contactPoint.telephone'] },
  { names: ['email', 'e mail', 'email address'], paths: ['email', 'contactPoint.email'] },
  {
    names: ['opening hours', 'hours', 'business hours', 'opening times', 'hours of operation'],
    paths: ['openingHoursSpecification', 'openingHours'],
    labels: ['öffnungszeiten', 'horaires', 'horario'],
  },
  { names: ['day', 'days', 'day of week', 'weekday'], paths: ['dayOfWeek'] },
  // 'from' is also the lower end of a range (a salary's { from, to }).
  {
    names: ['opens', 'open', 'opening time', 'open time', 'opens at', 'from'],
    paths: ['opens', 'minValue', 'value.minValue'],
  },
  // A job posting closes on its validThrough date (an opening-hours row states closes first).
  { names: ['closes', 'close', 'closing time', 'close time', 'closes at', 'until'], paths: ['closes', 'validThrough'] },
  {
    names: ['takes reservations', 'accepts reservations', 'reservations', 'reservable', 'reservations accepted'],
    paths: ['acceptsReservations'],
  },
  {
    names: ['faq', 'faqs', 'questions', 'faq items', 'questions and answers', 'qa', 'q and a'],
    paths: ['mainEntity', 'hasPart'],
  },
  { names: ['question', 'q'], paths: ['name', 'text'] },
  { names: ['answer', 'a', 'accepted answer'], paths: ['acceptedAnswer', 'suggestedAnswer'] },
  {
    names: ['paywalled', 'paywall', 'premium', 'subscriber only', 'subscribers only', 'subscription required'],
    paths: ['isAccessibleForFree'],
    negate: true,
  },
  { names: ['free', 'is free', 'accessible for free', 'free access', 'free to read'], paths: ['isAccessibleForFree'] },
  { names: ['version', 'software version', 'app version', 'current version'], paths: ['softwareVersion', 'version'] },
  {
    names: ['developer', 'developers', 'developed by', 'studio'],
    paths: ['author', 'creator', 'developer', 'publisher'],
    labels: ['entwickler', 'développeur', 'desarrollador'],
  },
  {
    names: ['os', 'operating system', 'operating systems', 'platform', 'platforms', 'supported platforms'],
    // A course's platform is its provider.
    paths: ['operatingSystem', 'gamePlatform', 'availableOnDevice', 'provider'],
    labels: ['betriebssystem', 'système d exploitation', 'sistema operativo'],
    // "macOS, Windows" is one stated text.
    split: 'comma',
  },
  // An event's format is its attendance mode.
  {
    names: ['format', 'book format', 'binding'],
    paths: ['bookFormat', 'format', 'encodingFormat', 'eventAttendanceMode'],
  },
  {
    names: ['download size', 'file size', 'size'],
    paths: ['fileSize', 'contentSize'],
    labels: ['dateigröße', 'taille du fichier', 'tamaño'],
  },
  // Specification words: mostly read from visible spec tables, in the site's language.
  {
    names: ['weight', 'net weight', 'item weight', 'product weight'],
    paths: ['weight'],
    labels: ['gewicht', 'nettogewicht', 'poids', 'poids net', 'peso', 'peso neto'],
  },
  {
    names: ['cpu', 'processor', 'chip', 'chipset', 'processor type'],
    paths: ['processor', 'cpu'],
    labels: ['prozessor', 'processeur', 'procesador'],
  },
  {
    names: ['ram', 'memory', 'system memory', 'ram memory', 'ram size'],
    paths: ['memory', 'ram'],
    labels: ['arbeitsspeicher', 'mémoire vive', 'mémoire', 'memoria', 'memoria ram'],
  },
  {
    names: ['storage', 'storage capacity', 'disk space', 'hard drive', 'ssd', 'disk', 'storage size'],
    paths: ['storage'],
    labels: ['speicher', 'speicherplatz', 'festplatte', 'stockage', 'almacenamiento', 'capacidad de almacenamiento'],
  },
  {
    names: ['screen size', 'display size', 'screen', 'display', 'screen diagonal'],
    paths: ['screenSize', 'display'],
    labels: ['bildschirm', 'bildschirmgröße', 'bildschirmdiagonale', 'écran', 'taille d écran', 'pantalla'],
  },
  {
    names: ['battery', 'battery capacity', 'battery size'],
    paths: ['battery'],
    labels: ['akku', 'batterie', 'batería'],
  },
  { names: ['range', 'max range'], paths: [], labels: ['reichweite', 'autonomie', 'autonomía'] },
  {
    names: ['warranty', 'guarantee', 'warranty period'],
    paths: ['warranty'],
    labels: ['garantie', 'gewährleistung', 'garantía', 'garanzia'],
  },
  {
    names: ['capacity'],
    paths: [],
    labels: ['kapazität', 'fassungsvermögen', 'füllmenge', 'capacité', 'capacidad'],
  },
  { names: ['power', 'wattage', 'rated power'], paths: [], labels: ['leistung', 'puissance', 'potencia'] },
  { names: ['height'], paths: ['height'], labels: ['höhe', 'hauteur', 'altura'] },
  { names: ['width'], paths: ['width'], labels: ['breite', 'largeur', 'anchura', 'ancho'] },
  { names: ['depth'], paths: ['depth'], labels: ['tiefe', 'profondeur', 'profundidad'] },
  {
    names: ['energy class', 'energy efficiency class', 'energy rating', 'energy label'],
    paths: [],
    labels: ['energieeffizienzklasse', 'energieklasse', 'classe énergétique', 'clase energética'],
  },
  {
    names: ['noise', 'noise level', 'sound level'],
    paths: [],
    labels: ['geräuschpegel', 'lautstärke', 'niveau sonore', 'nivel de ruido', 'nivel sonoro'],
  },
  {
    names: ['spin speed', 'max spin speed'],
    paths: [],
    labels: ['schleuderdrehzahl', 'vitesse d essorage', 'velocidad de centrifugado'],
  },
  {
    names: ['water tank', 'water tank capacity', 'tank capacity'],
    paths: [],
    labels: ['wassertank', 'réservoir d eau', 'réservoir', 'depósito de agua'],
  },
  { names: ['boiler', 'boiler type'], paths: [], labels: ['kessel', 'chaudière', 'caldera'] },
  { names: ['torque', 'max torque'], paths: [], labels: ['drehmoment', 'couple'] },
  {
    names: ['stock quantity', 'quantity', 'qty', 'stock level', 'stock count', 'units in stock', 'quantity available'],
    paths: ['offers.inventoryLevel', 'inventoryLevel'],
    labels: ['stock', 'lagerbestand', 'en stock', 'existencias'],
  },
  {
    names: ['origin', 'country of origin', 'made in', 'provenance'],
    paths: ['countryOfOrigin', 'countryOfManufacture'],
    labels: ['herkunft', 'herkunftsland', 'origine', 'origen'],
  },
  // A place's amenities: LocationFeatureSpecifications (one stating `value: false` is one it lacks; see fill.ts).
  { names: ['amenities', 'amenity', 'amenity features', 'facilities', 'features'], paths: ['amenityFeature'] },
  { names: ['duration', 'runtime'], paths: ['duration', 'timeRequired'] },
  {
    names: ['body', 'article body', 'review body', 'content', 'text', 'instruction', 'direction', 'step text'],
    paths: ['articleBody', 'reviewBody', 'text'],
  },
  { names: ['word count'], paths: ['wordCount'] },
  { names: ['pages', 'page count', 'number of pages', 'num pages'], paths: ['numberOfPages'] },
  // A count beside a value ({value, count} of a rating): how many ratings or reviews, or interactions.
  { names: ['count', 'total count'], paths: ['ratingCount', 'reviewCount', 'userInteractionCount', 'numberOfItems'] },
  // A listing page's own name: its category, else (listing in fill.ts) its last breadcrumb, heading or title.
  {
    names: [
      'collection',
      'collection name',
      'collection title',
      'category name',
      'category title',
      'listing name',
      'list name',
      'page category',
    ],
    // A book's collection is its series.
    paths: ['category', 'articleSection', 'isPartOf[BookSeries|CreativeWorkSeries|Periodical].name'],
    listing: true,
  },
  // A list element's number is its position in the list (a ListItem's, a HowToStep's).
  {
    names: ['rank', 'position', 'ranking', 'number', 'no', 'index', 'track number', 'step number'],
    paths: ['position'],
  },
];

/**
 * Prefixes a schema's names often carry ('product_price', 'article_title', 'event_date'): stripped for a second
 * lookup when the whole name finds nothing. Only type words: 'company' is not one ('company_name' is not the
 * entity's name).
 */
export const TYPE_PREFIXES = [
  'product',
  'article',
  'recipe',
  'event',
  'job',
  'item',
  'post',
  'page',
  'book',
  'app',
  'software',
  'game',
  'course',
  'movie',
  'film',
];
