// Stop words for the summary's sentence similarity: function words would link every sentence to every other and
// flatten TextRank's scores. Short lists (the most frequent words of each language), lower case.

const LISTS: Record<string, string> = {
  en:
    'the of and to in is was for on that with as by at from it its this be are were been has have had not but or an ' +
    'which who whom what when where why how their there they them he she his her him we our you your i me my us will ' +
    'would can could should may might must do does did done than then so if into about over after before also more ' +
    'most such only other some any all no nor up out just like these those said says while being very',
  de:
    'der die das den dem des ein eine einer eines einem einen und oder aber als auch auf aus bei bis durch für gegen ' +
    'hat hatte haben ist sind war waren wird werden wurde wurden sein seine ihr ihre ihrem ihren im in ins mit nach ' +
    'nicht noch nur ob sich sie er es wir ich du man so um von vor wie was wo zu zum zur über unter dass doch ' +
    'schon sehr kann können soll sollen muss diese dieser dieses diesem jetzt dann wenn weil mehr viele',
  fr:
    'le la les un une des du de d l et ou mais en au aux à ce cet cette ces qui que quoi dont où est sont était ' +
    'été être avoir a ont avait il elle ils elles on nous vous je tu se sa son ses leur leurs pour par sur dans avec ' +
    'sans sous plus pas ne ni comme si aussi très tout tous toute toutes y n s c qu lui même entre après avant déjà',
  es:
    'el la los las un una unos unas de del al a y o u e en que es son fue fueron era ser ha han había haber se su sus ' +
    'lo le les por para con sin sobre entre como más muy pero ya no ni si también este esta estos estas ese esa eso ' +
    'esos esas hay él ella ellos ellas nos me te mi tu cuando donde desde hasta porque todo todos toda todas',
  pt:
    'o a os as um uma uns umas de do da dos das no na nos nas ao aos à às e ou em que é são foi foram era ser se seu ' +
    'sua seus suas por para com sem sobre entre como mais muito mas já não nem também este esta estes estas esse essa ' +
    'isso isto ele ela eles elas nós eu tu lhe quando onde desde até porque todo todos toda todas há ter tem têm',
  it:
    'il lo la i gli le un uno una di del dello della dei degli delle a al allo alla ai agli alle da dal dalla dai in ' +
    'nel nello nella nei negli nelle su sul sulla con per tra fra e ed o ma che è sono era erano essere stato stata ' +
    'ha hanno aveva avere si suo sua suoi sue loro non anche più come questo questa questi queste quello quella ne ci',
  nl:
    'de het een en of maar in op aan van voor met door naar bij uit over onder tot om als dan dat die dit deze zijn ' +
    'is was waren wordt werd worden heeft hebben had hij zij ze wij we jij je ik u hun haar niet geen ook ' +
    'nog al wel er hier daar wat wie waar hoe zo zeer meer veel kan kunnen moet zal zullen want omdat toen nu',
};

const sets = new Map<string, ReadonlySet<string>>();

function listFor(language: string): ReadonlySet<string> | undefined {
  const words = LISTS[language];
  if (words === undefined) return undefined;
  let set = sets.get(language);
  if (!set) {
    set = new Set(words.split(' '));
    sets.set(language, set);
  }
  return set;
}

const NONE: ReadonlySet<string> = new Set();
/** How many words of the sample are looked at to guess the language, and the hits a guess needs. */
export const GUESS_SAMPLE_WORDS = 2_000;
const GUESS_MIN_HITS = 5;

/**
 * The stop words for `language` (a BCP 47 tag; its primary subtag decides). With no tag, or one without a list, the
 * language is guessed from `sampleWords` (lower-case words of the text): the list with the most hits, if it has a few.
 * One language's list is never applied to another's text blindly: German "war" is an English content word.
 */
export function stopWordsFor(language: string | undefined, sampleWords: readonly string[]): ReadonlySet<string> {
  const primary = language?.split(/[-_]/)[0]?.toLowerCase() ?? '';
  const known = listFor(primary);
  if (known) return known;
  let best = NONE;
  let bestHits = GUESS_MIN_HITS - 1;
  const sample = sampleWords.slice(0, GUESS_SAMPLE_WORDS);
  for (const candidate of Object.keys(LISTS)) {
    const list = listFor(candidate) ?? NONE;
    let hits = 0;
    for (const word of sample) if (list.has(word)) hits++;
    if (hits > bestHits) {
      best = list;
      bestHits = hits;
    }
  }
  return best;
}
