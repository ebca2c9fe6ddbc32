// The second part of the synonym table (see synonyms.ts for the format): schema.org's properties of the kinds of
// pages clients send most (products and offers, articles and media, events, jobs, places and lodging, homes,
// vehicles, books, courses, software, datasets), each under the names developers give them in their own
// schemas. Written from the vocabulary (what each property means), not from any one page; a name already owned
// by a group in synonyms.ts stays there (the first group naming a key owns it).
//
// Path segments may name the kinds of thing they accept: `priceSpecification[ListPrice|StrikethroughPrice]` reads
// only the price specifications of those types or whose priceType is one of them, `[has:referenceQuantity]` only
// those stating that property (a unit price: per kilogram, per litre); see valuesAt in match.ts.
import type { SynonymGroup } from './synonyms.js';

const LIST_PRICE = 'priceSpecification[ListPrice|StrikethroughPrice|SRP|MSRP|InvoicePrice]';

export const VOCABULARY: ReadonlyArray<SynonymGroup> = [
  // ---- Offers: the price before a reduction, sale windows, shipping, returns, unit prices.
  {
    names: [
      'regular price',
      'list price',
      'original price',
      'was price',
      'old price',
      'compare at price',
      'compare price',
      'msrp',
      'rrp',
      'srp',
      'retail price',
      'strikethrough price',
      'strike price',
      'before price',
      'price before',
      'full price',
      'normal price',
      'uvp',
      'prix barre',
      'prix barré',
      'streichpreis',
    ],
    paths: [`offers.${LIST_PRICE}.price`, `${LIST_PRICE}.price`, `hasVariant.offers.${LIST_PRICE}.price`],
    // readMeta states the Open Graph price as the regular one when a sale price is also stated.
    meta: ['product:regular_price:amount', 'product:original_price:amount'],
  },
  {
    names: [
      'sale ends',
      'sale end',
      'sale end date',
      'sale ends at',
      'sale until',
      'offer ends',
      'offer end',
      'offer valid until',
      'deal ends',
      'promo ends',
      'price valid until',
      'price valid through',
      'valid until',
    ],
    paths: ['offers.priceValidUntil', 'priceValidUntil', 'offers.validThrough'],
    meta: ['product:sale_price_dates:end'],
  },
  {
    names: ['sale starts', 'sale start', 'sale start date', 'offer starts', 'valid from', 'on sale from', 'sale from'],
    paths: ['offers.validFrom', 'validFrom'],
    meta: ['product:sale_price_dates:start'],
  },
  {
    names: [
      'shipping cost',
      'shipping',
      'shipping price',
      'shipping fee',
      'shipping rate',
      'shipping costs',
      'delivery cost',
      'delivery fee',
      'delivery price',
      'delivery charge',
      'standard delivery cost',
      'standard shipping cost',
      'postage',
      'postage cost',
      'shipping amount',
    ],
    paths: [
      'offers.shippingDetails.shippingRate.value',
      'offers.shippingDetails.shippingRate',
      'shippingDetails.shippingRate.value',
      'shippingDetails.shippingRate',
    ],
  },
  {
    names: [
      'return days',
      'return window',
      'return window days',
      'returns window',
      'return period',
      'return period days',
      'returns days',
      'days to return',
      'return policy days',
      'merchant return days',
    ],
    paths: [
      'offers.hasMerchantReturnPolicy.merchantReturnDays',
      'hasMerchantReturnPolicy.merchantReturnDays',
      'merchantReturnDays',
    ],
  },
  // returnFees: FreeReturn (a member whose words hold the name's).
  {
    names: ['free returns', 'free return', 'returns free', 'is free return'],
    paths: ['offers.hasMerchantReturnPolicy.returnFees', 'hasMerchantReturnPolicy.returnFees', 'returnFees'],
    member: 'exclusive',
  },
  {
    names: [
      'unit price',
      'price per unit',
      'price per kg',
      'price per kilo',
      'price per kilogram',
      'price per litre',
      'price per liter',
      'price per l',
      'price per 100g',
      'price per 100 g',
      'price per 100ml',
      'price per 100 ml',
      'base price',
      'grundpreis',
      'prix au kilo',
      'prix au kg',
    ],
    paths: [
      'offers.priceSpecification[has:referenceQuantity].price',
      'priceSpecification[has:referenceQuantity].price',
    ],
  },
  {
    names: ['pack size', 'package size', 'pack weight', 'net contents', 'net content', 'net quantity', 'contents'],
    paths: ['weight', 'size', 'netContent'],
  },
  {
    names: ['listing id', 'item id', 'product id', 'product number', 'listing number', 'ad id', 'reference number'],
    paths: ['productID', 'sku', 'identifier', 'offers.sku'],
  },
  {
    names: ['product group id', 'parent sku', 'group id', 'item group id'],
    paths: ['productGroupID', 'inProductGroupWithID'],
  },
  {
    names: [
      'material',
      'materials',
      'fabric',
      'composition',
      'made of',
      'fabric composition',
      'outer material',
      'shell material',
      'upper material',
      'main material',
    ],
    paths: ['material', 'hasVariant.material'],
    labels: ['material', 'materiale', 'matière', 'matériau', 'zusammensetzung', 'composición'],
    split: 'comma',
  },
  { names: ['pattern', 'print'], paths: ['pattern', 'hasVariant.pattern'] },
  {
    names: ['sizes', 'available sizes', 'size options', 'size range'],
    paths: ['size', 'hasVariant.size', 'offers.itemOffered.size'],
  },
  {
    names: ['gender', 'target gender', 'suggested gender', 'department', 'for gender'],
    paths: ['audience.suggestedGender', 'suggestedGender', 'audience.audienceType'],
  },
  {
    names: ['age group', 'audience', 'target audience', 'audience type'],
    paths: ['audience.audienceType', 'audience'],
  },
  { names: ['awards', 'award', 'prizes'], paths: ['award', 'awards'] },
  { names: ['slogan', 'tagline', 'motto'], paths: ['slogan'] },
  { names: ['asin'], paths: ['asin', 'productID'] },
  { names: ['nsn', 'gtin8', 'gtin 8'], paths: ['gtin8', 'nsn'] },
  // ---- Creative works: series, people around a work, counts, licence, access.
  {
    names: [
      'series',
      'series name',
      'book series',
      'part of series',
      'show name',
      'podcast',
      'podcast name',
      'podcast title',
      'show title',
      'collection name',
    ],
    paths: ['partOfSeries.name', 'isPartOf[BookSeries|CreativeWorkSeries|PodcastSeries|TVSeries|Periodical].name'],
  },
  {
    names: ['series position', 'position in series', 'series number', 'book number', 'volume number', 'series index'],
    paths: ['position', 'volumeNumber', 'isPartOf.position'],
  },
  { names: ['season', 'season number'], paths: ['partOfSeason.seasonNumber', 'seasonNumber'] },
  { names: ['episode', 'episode number', 'episode no'], paths: ['episodeNumber'] },
  {
    names: ['hosts', 'host name', 'hosted by', 'podcast host', 'podcast hosts', 'presented by host'],
    paths: ['organizer', 'author', 'creator'],
  },
  { names: ['guests', 'guest', 'featuring', 'featured guests', 'guest names'], paths: ['actor', 'contributor'] },
  {
    names: ['channel', 'channel name', 'uploader', 'uploaded by', 'youtuber', 'creator name'],
    paths: ['author', 'creator', 'publisher'],
  },
  { names: ['channel url', 'channel link', 'uploader url'], paths: ['author.url', 'creator.url', 'publisher.url'] },
  { names: ['editor', 'editors', 'edited by'], paths: ['editor'] },
  { names: ['translator', 'translators', 'translated by'], paths: ['translator'] },
  { names: ['illustrator', 'illustrators', 'illustrated by'], paths: ['illustrator'] },
  { names: ['narrator', 'narrated by', 'read by'], paths: ['readBy', 'narrator'] },
  {
    names: ['contributors', 'contributor'],
    paths: ['contributor'],
  },
  {
    names: ['producer', 'producers', 'produced by', 'winery', 'distillery', 'brewery', 'domaine', 'bodega'],
    paths: ['producer', 'manufacturer', 'brand', 'productionCompany'],
  },
  {
    names: ['production company', 'studio name', 'production studio', 'distributor', 'distributed by'],
    paths: ['productionCompany', 'distributor', 'publisher'],
  },
  {
    names: ['license', 'licence', 'license url', 'licence url', 'copyright license', 'usage license'],
    paths: ['license', 'usageInfo'],
  },
  {
    names: ['copyright', 'copyright holder', 'rights holder', 'rights'],
    paths: ['copyrightHolder', 'copyrightNotice'],
  },
  { names: ['copyright year'], paths: ['copyrightYear'] },
  {
    names: ['views', 'view count', 'views count', 'number of views', 'plays', 'play count', 'watch count'],
    // The older microdata interactionCount ("284113"); InteractionCounters are read by structure.
    paths: ['interactionCount'],
  },
  {
    names: ['comment count', 'comments count', 'number of comments', 'num comments', 'comments', 'total comments'],
    paths: ['commentCount'],
    labels: ['replies', 'comentarios', 'commentaires', 'kommentare', 'reacties', 'commenti'],
  },
  { names: ['edition', 'book edition', 'edition number'], paths: ['bookEdition', 'version'] },
  { names: ['about', 'subject', 'subjects', 'topic'], paths: ['about'] },
  { names: ['mentions'], paths: ['mentions'] },
  { names: ['dateline', 'location created', 'filed from'], paths: ['locationCreated', 'contentLocation', 'dateline'] },
  {
    names: ['photo credit', 'image credit', 'photographer', 'image author'],
    paths: ['image.creditText', 'image.author', 'image.creator'],
  },
  { names: ['caption', 'image caption', 'photo caption'], paths: ['image.caption', 'caption'] },
  {
    names: ['upload date', 'uploaded', 'uploaded at', 'uploaded on', 'date uploaded'],
    paths: ['uploadDate', 'datePublished'],
  },
  { names: ['embed url', 'embed link', 'player url', 'embed'], paths: ['embedUrl'] },
  {
    names: [
      'video url',
      'audio url',
      'media url',
      'file url',
      'content url',
      'download url',
      'download link',
      'mp3 url',
    ],
    paths: ['contentUrl', 'associatedMedia.contentUrl', 'audio.contentUrl', 'video.contentUrl', 'downloadUrl'],
  },
  { names: ['transcript', 'transcript url'], paths: ['transcript'] },
  {
    names: ['family friendly', 'is family friendly', 'kid friendly', 'safe for kids'],
    paths: ['isFamilyFriendly'],
  },
  { names: ['explicit', 'is explicit', 'explicit content'], paths: ['isFamilyFriendly'], negate: true },
  // A show is an episode's series, else the thing itself (a play, a TV series).
  { names: ['show'], paths: ['partOfSeries.name', 'name'] },
  // ---- Music.
  {
    names: ['artist name', 'band', 'musician', 'by artist', 'recording artist'],
    paths: ['byArtist', 'performer', 'author', 'creator'],
  },
  { names: ['album', 'album name', 'album title', 'record'], paths: ['inAlbum.name', 'name'] },
  { names: ['label', 'record label', 'music label', 'label name'], paths: ['recordLabel', 'publisher'] },
  { names: ['catalog number', 'catalogue number', 'cat no', 'catalog no', 'catalogue no'], paths: ['catalogNumber'] },
  {
    names: ['track count', 'tracks count', 'number of tracks', 'num tracks', 'track total'],
    paths: ['numTracks', 'track.numberOfItems'],
  },
  { names: ['tracks', 'tracklist', 'track list', 'songs'], paths: ['track'] },
  // ---- Events: the competition, teams, capacity, the first and last dates of a run.
  {
    names: [
      'competition',
      'league',
      'tournament',
      'season name',
      'championship',
      'parent event',
      'festival name',
      'part of event',
      'event series',
    ],
    paths: ['superEvent'],
  },
  {
    names: ['kickoff', 'kick off', 'kickoff time', 'tip off', 'tipoff', 'first pitch', 'match time', 'game time'],
    paths: ['startDate'],
  },
  { names: ['home team', 'home', 'host team', 'home side'], paths: ['homeTeam'] },
  { names: ['away team', 'away', 'visiting team', 'visitors', 'away side'], paths: ['awayTeam'] },
  { names: ['teams', 'competitors', 'opponents', 'participants'], paths: ['competitor', 'homeTeam', 'awayTeam'] },
  { names: ['sport'], paths: ['sport'] },
  {
    names: [
      'first performance',
      'first date',
      'opening night',
      'opens on',
      'run starts',
      'runs from',
      'season start',
      'first show',
      'on sale date',
      'from date',
    ],
    paths: ['startDate', 'subEvent.startDate'],
  },
  {
    names: [
      'last performance',
      'last date',
      'closing night',
      'closes on',
      'run ends',
      'runs until',
      'final show',
      'to date',
    ],
    paths: ['endDate', 'subEvent.endDate'],
  },
  {
    names: ['running time', 'run time', 'running time minutes', 'show length', 'show duration', 'event duration'],
    paths: ['duration', 'timeRequired'],
  },
  {
    names: [
      'capacity max',
      'max attendees',
      'maximum attendees',
      'max capacity',
      'attendee capacity',
      'seats',
      'total capacity',
    ],
    paths: ['maximumAttendeeCapacity', 'maximumPhysicalAttendeeCapacity', 'location.maximumAttendeeCapacity'],
  },
  {
    names: [
      'spots left',
      'seats left',
      'places left',
      'remaining capacity',
      'remaining spots',
      'tickets left',
      'remaining seats',
    ],
    paths: ['remainingAttendeeCapacity'],
  },
  { names: ['curfew', 'finish time', 'finishes at', 'show ends'], paths: ['endDate'] },
  {
    names: ['headliner', 'headliners', 'headline act', 'main act', 'top billing'],
    paths: ['performer'],
  },
  {
    names: ['online', 'is online', 'virtual', 'is virtual', 'online event'],
    paths: ['eventAttendanceMode'],
    member: 'exclusive',
  },
  { names: ['age range', 'ages', 'typical age range', 'suitable ages'], paths: ['typicalAgeRange'] },
  // ---- Jobs.
  {
    names: [
      'remote country',
      'remote countries',
      'remote location',
      'eligible countries',
      'applicant location',
      'applicant location requirements',
      'hiring region',
      'remote region',
      'location requirements',
    ],
    paths: ['applicantLocationRequirements'],
  },
  {
    names: [
      'closes',
      'closing',
      'closing date',
      'closes on',
      'application closes',
      'apply until',
      'expiry date',
      'expiration date',
      'expires at',
      'valid through date',
    ],
    paths: ['validThrough'],
  },
  {
    names: ['experience months', 'months of experience', 'min experience months', 'experience', 'experience required'],
    paths: ['experienceRequirements.monthsOfExperience', 'experienceRequirements'],
  },
  // monthsOfExperience in years (60 -> 5).
  {
    names: [
      'years of experience',
      'experience years',
      'years experience',
      'min years experience',
      'min experience years',
      'minimum years of experience',
      'min years of experience',
      'required years of experience',
    ],
    paths: ['experienceRequirements.monthsOfExperience'],
    divide: 12,
  },
  {
    names: ['qualifications', 'requirements', 'required qualifications'],
    paths: ['qualifications', 'experienceRequirements'],
  },
  { names: ['skills', 'required skills', 'key skills', 'tech stack'], paths: ['skills'], split: 'comma' },
  { names: ['responsibilities', 'duties', 'key responsibilities'], paths: ['responsibilities'] },
  { names: ['benefits', 'perks', 'job benefits'], paths: ['jobBenefits', 'benefits'] },
  { names: ['industry', 'sector'], paths: ['industry', 'hiringOrganization.industry'] },
  { names: ['occupational category', 'job category', 'job family', 'occupation'], paths: ['occupationalCategory'] },
  { names: ['direct apply', 'easy apply', 'one click apply', 'quick apply'], paths: ['directApply'] },
  {
    names: ['openings', 'positions', 'number of openings', 'vacancies', 'headcount', 'total openings'],
    paths: ['totalJobOpenings'],
  },
  {
    // A job's reference is its identifier; a shop's (PrestaShop's) its sku.
    names: ['job id', 'job code', 'requisition id', 'req id', 'posting id', 'reference', 'job reference', 'vacancy id'],
    paths: ['identifier', 'sku', 'productID', 'mpn'],
  },
  {
    names: ['company url', 'company website', 'employer url', 'employer website'],
    paths: ['hiringOrganization.sameAs', 'hiringOrganization.url'],
  },
  { names: ['company logo', 'employer logo', 'logo'], paths: ['hiringOrganization.logo', 'logo', 'publisher.logo'] },
  // ---- Organizations and places.
  { names: ['legal name', 'registered name', 'company legal name'], paths: ['legalName'] },
  {
    names: ['founded', 'founding date', 'founded year', 'year founded', 'established', 'since', 'founded in'],
    paths: ['foundingDate'],
  },
  { names: ['founder', 'founders', 'founded by'], paths: ['founder'] },
  {
    names: ['employees', 'employee count', 'number of employees', 'team size', 'company size', 'staff count'],
    paths: ['numberOfEmployees'],
  },
  { names: ['area served', 'service area', 'serves', 'coverage area'], paths: ['areaServed', 'serviceArea'] },
  { names: ['currencies accepted', 'accepted currencies'], paths: ['currenciesAccepted'] },
  { names: ['menu', 'menu url', 'menu link'], paths: ['hasMenu', 'menu'] },
  { names: ['map', 'map url', 'map link', 'google maps url', 'directions url'], paths: ['hasMap', 'map'] },
  {
    names: [
      'reservation url',
      'booking url',
      'book url',
      'booking link',
      'reserve url',
      'appointment url',
      'book online',
    ],
    paths: [
      'potentialAction[ReserveAction|ScheduleAction].target.urlTemplate',
      'potentialAction[ReserveAction|ScheduleAction].target',
    ],
  },
  { names: ['smoking allowed', 'smoking'], paths: ['smokingAllowed'] },
  {
    names: ['social links', 'social profiles', 'social media', 'same as', 'profiles', 'social urls'],
    paths: ['sameAs'],
  },
  { names: ['vat id', 'vat number', 'tax id', 'vat'], paths: ['vatID', 'taxID'] },
  { names: ['parent organization', 'parent company', 'owner', 'owned by'], paths: ['parentOrganization', 'brand'] },
  {
    names: ['country code', 'country iso', 'iso country', 'country iso code'],
    paths: [
      'addressCountry',
      'address.addressCountry',
      'location.address.addressCountry',
      'jobLocation.address.addressCountry',
    ],
  },
  { names: ['neighborhood', 'neighbourhood', 'district'], paths: ['containedInPlace', 'address.addressRegion'] },
  // ---- Lodging and homes.
  {
    names: ['bedrooms', 'beds', 'number of bedrooms', 'bedroom count', 'num bedrooms', 'bed count', 'bedrooms count'],
    paths: ['numberOfBedrooms'],
  },
  {
    names: ['bathrooms', 'baths', 'number of bathrooms', 'bathroom count', 'num bathrooms', 'bathrooms total'],
    paths: ['numberOfBathroomsTotal', 'numberOfFullBathrooms', 'numberOfBathrooms'],
  },
  { names: ['rooms', 'rooms total', 'total rooms count', 'number of rooms total'], paths: ['numberOfRooms'] },
  {
    names: [
      'floor area',
      'floor size',
      'living area',
      'area size',
      'square feet',
      'sqft',
      'square footage',
      'surface',
      'size sqft',
      'floor space',
      'living space',
    ],
    paths: ['floorSize'],
  },
  { names: ['lot size', 'plot size', 'land size', 'lot area'], paths: ['lotSize'] },
  { names: ['year built', 'built', 'construction year', 'built in', 'baujahr'], paths: ['yearBuilt'] },
  {
    names: ['occupancy', 'max guests', 'guests max', 'sleeps', 'max occupancy', 'guest capacity'],
    paths: ['occupancy.maxValue', 'occupancy', 'maxOccupancy'],
  },
  { names: ['lease length', 'minimum stay', 'min stay', 'lease term'], paths: ['leaseLength'] },
  {
    names: ['property type', 'home type', 'accommodation type', 'listing type'],
    paths: ['accommodationCategory', 'additionalType'],
  },
  // ---- Vehicles.
  { names: ['trim', 'trim level', 'variant', 'version name', 'configuration'], paths: ['vehicleConfiguration'] },
  {
    names: ['model year', 'vehicle year', 'car year', 'year of manufacture', 'production year', 'build year'],
    paths: ['vehicleModelDate', 'modelDate', 'productionDate', 'dateVehicleFirstRegistered'],
  },
  {
    names: ['first registration', 'registration date', 'first registered', 'registered'],
    paths: ['dateVehicleFirstRegistered'],
  },
  {
    names: ['gearbox', 'transmission', 'transmission type', 'gear box', 'getriebe', 'boîte de vitesses'],
    paths: ['vehicleTransmission'],
  },
  { names: ['fuel', 'fuel type', 'kraftstoff', 'carburant'], paths: ['fuelType', 'vehicleEngine.fuelType'] },
  {
    names: [
      'engine size',
      'engine capacity',
      'displacement',
      'engine displacement',
      'engine cc',
      'cc',
      'cubic capacity',
      'hubraum',
    ],
    paths: ['vehicleEngine.engineDisplacement'],
  },
  {
    names: ['horsepower', 'engine power', 'power hp', 'hp', 'bhp', 'ps', 'kw', 'power kw', 'leistung'],
    paths: ['vehicleEngine.enginePower'],
  },
  { names: ['engine', 'engine type'], paths: ['vehicleEngine.name', 'vehicleEngine.engineType', 'vehicleEngine'] },
  {
    names: ['mileage', 'odometer', 'kilometers', 'kilometres', 'miles', 'km', 'kilometerstand', 'kilométrage'],
    paths: ['mileageFromOdometer'],
  },
  { names: ['body type', 'body style', 'body', 'karosserie'], paths: ['bodyType'] },
  { names: ['drive', 'drivetrain', 'drive type', 'drive wheel configuration'], paths: ['driveWheelConfiguration'] },
  { names: ['doors', 'number of doors', 'door count'], paths: ['numberOfDoors'] },
  { names: ['seats count', 'seating capacity', 'number of seats', 'seat count'], paths: ['seatingCapacity'] },
  { names: ['vin', 'vehicle identification number', 'chassis number'], paths: ['vehicleIdentificationNumber'] },
  { names: ['owners', 'previous owners', 'number of owners'], paths: ['numberOfPreviousOwners'] },
  { names: ['emissions', 'co2', 'co2 emissions'], paths: ['emissionsCO2'] },
  // ---- Courses.
  { names: ['provider', 'institution', 'school', 'university', 'platform name', 'offered by'], paths: ['provider'] },
  { names: ['course code', 'module code', 'course id', 'course number'], paths: ['courseCode'] },
  { names: ['prerequisites', 'requirements course', 'pre requisites'], paths: ['coursePrerequisites'] },
  {
    names: ['credential', 'certificate', 'credential awarded', 'award earned', 'qualification'],
    paths: ['educationalCredentialAwarded'],
  },
  { names: ['credits', 'ects', 'credit points', 'number of credits', 'units'], paths: ['numberOfCredits'] },
  {
    names: [
      'workload',
      'course workload',
      'video hours',
      'hours of video',
      'course length',
      'course duration',
      'total hours',
    ],
    paths: ['courseWorkload', 'hasCourseInstance.courseWorkload', 'timeRequired'],
  },
  {
    names: ['students', 'enrolled', 'enrollments', 'learners', 'students count', 'enrolled students'],
    paths: ['totalHistoricalEnrollment'],
  },
  {
    names: ['syllabus', 'syllabus sections', 'curriculum', 'modules', 'course modules', 'lessons', 'chapters'],
    paths: ['syllabusSections', 'hasPart'],
  },
  // ---- Software.
  { names: ['app category', 'application category', 'software category'], paths: ['applicationCategory'] },
  {
    names: ['min ram', 'ram required', 'memory requirements', 'required ram', 'min memory'],
    paths: ['memoryRequirements'],
  },
  { names: ['storage requirements', 'disk requirements', 'required storage'], paths: ['storageRequirements'] },
  { names: ['requirements software', 'system requirements'], paths: ['softwareRequirements', 'memoryRequirements'] },
  { names: ['release notes', 'changelog', 'whats new'], paths: ['releaseNotes'] },
  { names: ['install url', 'app store url', 'store url'], paths: ['installUrl', 'downloadUrl'] },
  { names: ['screenshots', 'screenshot', 'screenshot url'], paths: ['screenshot'] },
  // ---- Games and apps.
  { names: ['play mode', 'game mode', 'game modes', 'play modes', 'modes'], paths: ['playMode'] },
  {
    names: ['players', 'number of players', 'player count', 'max players', 'maximum players'],
    paths: ['numberOfPlayers.maxValue', 'numberOfPlayers'],
  },
  { names: ['min players', 'minimum players'], paths: ['numberOfPlayers.minValue'] },
  {
    names: ['requires', 'requirements os', 'minimum os', 'min os', 'requires os', 'compatibility'],
    paths: ['softwareRequirements', 'operatingSystem'],
  },
  // ---- Clinics.
  {
    names: ['specialty', 'specialties', 'specialities', 'speciality', 'medical specialty', 'medical specialties'],
    paths: ['medicalSpecialty'],
  },
  {
    names: ['accepting new patients', 'new patients', 'accepts new patients', 'is accepting new patients'],
    paths: ['isAcceptingNewPatients'],
  },
  {
    names: ['services', 'available services', 'treatments', 'procedures'],
    paths: ['availableService', 'hasOfferCatalog'],
  },
  // ---- Datasets.
  { names: ['temporal coverage', 'coverage', 'time period', 'period covered'], paths: ['temporalCoverage'] },
  {
    names: ['coverage start', 'coverage from', 'temporal coverage start', 'period start', 'data from', 'covers from'],
    paths: ['temporalCoverage'],
    interval: 'start',
  },
  {
    names: [
      'coverage end',
      'coverage to',
      'temporal coverage end',
      'period end',
      'data to',
      'covers to',
      'coverage until',
    ],
    paths: ['temporalCoverage'],
    interval: 'end',
  },
  { names: ['spatial coverage', 'geographic coverage', 'region covered', 'geography'], paths: ['spatialCoverage'] },
  {
    names: ['formats', 'file formats', 'download formats', 'distribution formats'],
    paths: ['distribution.encodingFormat', 'encodingFormat'],
  },
  { names: ['downloads', 'distributions', 'files'], paths: ['distribution'] },
  { names: ['catalog', 'data catalog', 'catalogue', 'portal'], paths: ['includedInDataCatalog'] },
  { names: ['variables', 'variables measured', 'measures', 'fields measured'], paths: ['variableMeasured'] },
  { names: ['identifier', 'doi', 'dataset id', 'video id', 'listing identifier'], paths: ['identifier', 'doi'] },
  // How a job is worked: on site, hybrid, remote (jobLocationType states only TELECOMMUTE).
  {
    names: [
      'workplace',
      'workplace type',
      'work location type',
      'location type',
      'work arrangement',
      'work mode',
      'work model',
    ],
    paths: ['jobLocationType'],
  },
  {
    names: ['publication time', 'published time', 'time published', 'publish time', 'posted time'],
    paths: ['datePublished', 'dateCreated'],
  },
  // ---- Recipes and how-tos.
  { names: ['cooking method', 'method of cooking', 'cook method'], paths: ['cookingMethod'] },
  {
    names: ['course', 'meal', 'meal type', 'dish type', 'recipe course', 'courses'],
    paths: ['recipeCategory'],
    split: 'comma',
  },
  { names: ['tools', 'equipment', 'tools needed'], paths: ['tool'] },
  { names: ['supplies', 'materials needed', 'supply'], paths: ['supply'] },
  { names: ['estimated cost', 'total cost', 'approx cost'], paths: ['estimatedCost'] },
  {
    names: ['saturated fat', 'saturates', 'saturated fat content'],
    paths: ['nutrition.saturatedFatContent', 'saturatedFatContent'],
  },
  { names: ['cholesterol', 'cholesterol content'], paths: ['nutrition.cholesterolContent', 'cholesterolContent'] },
  { names: ['trans fat', 'trans fat content'], paths: ['nutrition.transFatContent'] },
  { names: ['serving size', 'portion size'], paths: ['nutrition.servingSize', 'servingSize'] },
  // ---- Ratings and reviews.
  {
    names: ['best rating', 'rating scale', 'max rating', 'rating max', 'out of', 'scale'],
    paths: ['aggregateRating.bestRating', 'reviewRating.bestRating', 'bestRating'],
  },
  {
    names: ['worst rating', 'min rating', 'rating min'],
    paths: ['aggregateRating.worstRating', 'reviewRating.worstRating', 'worstRating'],
  },
  { names: ['reviewer', 'review author', 'reviewed by', 'critic'], paths: ['author'] },
  { names: ['item reviewed', 'reviewed item', 'product reviewed'], paths: ['itemReviewed'] },
  { names: ['pros', 'positives', 'advantages'], paths: ['positiveNotes'] },
  { names: ['cons', 'negatives', 'disadvantages'], paths: ['negativeNotes'] },
  // ---- Q&A.
  {
    names: ['answer count', 'answers count', 'number of answers', 'num answers'],
    paths: ['answerCount', 'mainEntity.answerCount'],
  },
  { names: ['upvotes', 'upvote count', 'vote score', 'votes up'], paths: ['upvoteCount', 'mainEntity.upvoteCount'] },
];
