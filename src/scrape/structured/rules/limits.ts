// Every bound of the rules path in one place (docs/structured-rules.md lists them): a hostile page (a huge
// script, thousands of item scopes, a table of 50,000 rows, JSON nested thousands deep) costs bounded time and
// memory, and nothing recurses deeper than a cap.
export const RULE_LIMITS = {
  /** A JSON-LD script longer than this (characters) is skipped whole. */
  maxJsonLdChars: 1_000_000,
  /** JSON-LD scripts read per page. */
  maxJsonLdScripts: 100,
  /** Items (JSON-LD nodes, microdata and RDFa scopes) read per page, all sources together. */
  maxItems: 2_000,
  /** Nesting of JSON-LD objects/arrays, and of microdata/RDFa scopes, followed; deeper values are dropped. */
  maxDepth: 24,
  /** Values kept per property (a JSON-LD array, a repeated itemprop). */
  maxValuesPerProp: 500,
  /** Characters kept of one text value. */
  maxTextChars: 10_000,
  /** Property names longer than this are ignored (nobody's schema asks for them). */
  maxKeyChars: 200,
  /** <meta> tags read. */
  maxMetaTags: 1_000,
  /** <h1> elements looked at for the page's heading (the first with text wins). */
  maxHeadingsRead: 5,
  /** Values kept of one repeated Open Graph list tag (article:tag). */
  maxMetaListValues: 50,
  /** Tables read in the main content, and rows and cells read per table. */
  maxTables: 200,
  maxRowsPerTable: 1_000,
  maxCellsPerRow: 50,
  /** Label/value pairs kept (tables, definition lists, "Label: value" text together). */
  maxPairs: 5_000,
  /** An hours text ("Mo-Fr 09:00-18:00", "7:30 AM – 6:00 PM") longer than this is not read as hours. */
  maxHoursChars: 80,
  /** A label longer than this (characters) is prose, not a label. */
  maxLabelChars: 60,
  /** Elements of an output array (before the schema's own maxItems). */
  maxArrayItems: 1_000,
  /** Nesting of the client's schema followed when filling (the schema check allows 16). */
  maxSchemaDepth: 16,
} as const;
