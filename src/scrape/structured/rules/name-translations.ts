// Property names in a client's own language: `prezzo`, `nombre_pages`, `data_parution`, `telefono`, `serienname`.
// When a name finds nothing as written, each of its words is put into English through a word list (German,
// French, Spanish, Italian, Portuguese, Dutch and a little Polish; accents folded), connectors (`de`, `di`,
// `von`...) are dropped, and the English forms a developer would write are tried: in order, reversed ("data
// parution" -> "publication date"), and "number of ..." for a count. A German compound of two listed words is
// split ("serienname" -> series name). The English form is then looked up exactly as an English name (fill.ts).
// Words that are also common English names (tag, alt, note) are left out.

import { memoized } from './memo.js';

/** Accent-folded lower case ('Währung' -> 'wahrung', 'città' -> 'citta'). */
function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase();
}

/** Word lists by meaning: the English word first, then its translations (already folded). */
const MEANINGS: ReadonlyArray<readonly [string, string]> = [
  ['name', 'nome nom nombre naam nazwa bezeichnung'],
  ['title', 'titel titre titolo titulo tytul'],
  ['description', 'beschreibung descrizione descripcion descricao beschrijving opis'],
  ['summary', 'zusammenfassung resume riassunto resumen resumo samenvatting'],
  ['price', 'preis prix precio prezzo preco prijs cena'],
  ['currency', 'wahrung devise moneda valuta moeda waluta'],
  ['brand', 'marke marque marca merk'],
  ['manufacturer', 'hersteller fabricant fabricante produttore fabrikant producent'],
  [
    'available',
    'verfugbar lieferbar disponible disponibile disponivel beschikbaar dostepny leverbaar erhaltlich vorratig',
  ],
  [
    'availability',
    'verfugbarkeit disponibilite disponibilidad disponibilita disponibilidade beschikbaarheid dostepnosc',
  ],
  ['stock', 'lager voorraad magazzino existencias'],
  ['condition', 'zustand etat condizione condicao staat stan'],
  ['reference', 'referenz referencia riferimento referentie'],
  ['code', 'codice codigo kod'],
  ['rating', 'bewertung valoracion valutazione avaliacao beoordeling ocena'],
  ['reviews', 'bewertungen avis resenas recensioni recensies opinioni opiniones opinie rezensionen'],
  ['number', 'numero liczba nummer'],
  // A count of things ('anzahl_bewertungen' -> reviews count, 'aantal' of a rating).
  ['count', 'anzahl aantal antal'],
  ['product', 'artikel produkt produit producto prodotto produto product'],
  ['average', 'durchschnitt moyenne promedio media gemiddelde srednia gennemsnit'],
  ['comments', 'kommentare commentaires comentarios commenti reacties kommentarer'],
  ['keywords', 'schlagworte schlusselworter trefwoorden'],
  ['from', 'desde ab vanaf des'],
  ['time', 'hora ora heure uhrzeit'],
  ['venue', 'recinto spielstatte salle'],
  ['performer', 'conjunto ensemble interprete kunstler artiste artista'],
  ['summary', 'chapo chapeau'],
  ['author', 'autor auteur autore'],
  ['publisher', 'verlag editeur editorial editore editora uitgever wydawca'],
  ['date', 'datum fecha'],
  [
    'publication',
    'veroffentlichung erscheinung parution publicacion pubblicazione publicacao publicatie publikacja sortie uscita',
  ],
  ['published', 'veroffentlicht erschienen publie publicado pubblicato gepubliceerd'],
  ['language', 'sprache langue idioma lingua taal jezyk'],
  ['pages', 'seiten paginas pagine strony paginas'],
  ['format', 'formato formaat'],
  ['address', 'adresse direccion indirizzo endereco adres'],
  ['street', 'strasse rue calle via rua straat ulica'],
  ['city', 'stadt ville ciudad citta cidade stad plaats miasto localidad localita'],
  ['postal code', 'plz postleitzahl cap cep postcode'],
  ['province', 'provinz provincia provincie regione regiao bundesland wojewodztwo'],
  ['country', 'pays pais paese kraj'],
  ['phone', 'telefon telephone telefono telefone telefoon'],
  ['email', 'courriel correo'],
  ['website', 'webseite sito'],
  ['opening hours', 'offnungszeiten horaires horario horarios orari orario openingstijden'],
  // Not German 'Tag' (day): an English 'tag' would be read as a day.
  ['day', 'jour dia giorno dag dzien wochentag'],
  ['opens', 'offnet ouvre abre apre opent'],
  ['closes', 'schliesst ferme cierra chiude sluit'],
  ['cuisine', 'kuche cocina cucina cucine cozinha keuken'],
  ['range', 'klasse fascia gamme rango faixa'],
  ['reservations', 'reservierung reservierungen reservations reservas prenotazione prenotazioni reserveringen'],
  ['accepts', 'akzeptiert accepte acepta accetta aceita accepteert'],
  ['latitude', 'breitengrad latitud latitudine'],
  ['longitude', 'langengrad longitud longitudine'],
  ['image', 'bild imagen immagine imagem afbeelding obraz'],
  ['category', 'kategorie categorie categoria kategoria rubrik rubrique'],
  ['tags', 'schlagworter etiquettes etiquetas etichette'],
  ['weight', 'gewicht poids peso waga'],
  ['color', 'farbe couleur colore cor kleur kolor'],
  ['size', 'grosse taille talla taglia tamanho maat rozmiar'],
  ['material', 'matiere materiale materiaal'],
  ['width', 'breite largeur ancho larghezza largura breedte'],
  ['height', 'hohe hauteur alto altezza altura hoogte'],
  ['depth', 'tiefe profondeur profundidad profondita profundidade diepte'],
  ['length', 'lange longueur largo lunghezza comprimento lengte'],
  ['ingredients', 'zutaten ingredientes ingredienti ingredienten skladniki'],
  ['instructions', 'zubereitung anleitung etapes pasos passaggi procedimento bereiding stappen'],
  ['servings', 'portionen porciones porzioni porcoes porties'],
  ['time', 'zeit temps tiempo tempo tijd czas'],
  ['preparation', 'vorbereitung preparacion preparazione preparacao voorbereiding'],
  ['cooking', 'kochzeit cuisson coccion cottura cozedura'],
  ['rooms', 'zimmer habitaciones camere kamers pokoje'],
  ['bedrooms', 'schlafzimmer chambres quartos slaapkamers sypialnie'],
  ['bathrooms', 'badezimmer bagni banheiros badkamers lazienki'],
  ['floor area', 'wohnflache flache surface superficie oppervlakte'],
  ['year', 'jahr annee ano anno jaar rok'],
  ['built', 'baujahr construction construccion costruzione construcao bouwjaar'],
  ['mileage', 'kilometerstand kilometrage kilometraje chilometraggio quilometragem'],
  ['fuel', 'kraftstoff carburant combustible carburante combustivel brandstof'],
  ['transmission', 'getriebe boite cambio transmision versnellingsbak'],
  ['start', 'beginn debut inicio inizio'],
  ['end', 'ende fin fine einde'],
  ['venue', 'veranstaltungsort lieu lugar luogo locatie'],
  ['organizer', 'veranstalter organisateur organizador organizzatore organisator'],
  ['tickets', 'karten billets entradas biglietti bilhetes kaartjes'],
  ['company', 'unternehmen firma entreprise societe empresa azienda societa bedrijf'],
  ['salary', 'gehalt salaire salario stipendio salaris wynagrodzenie'],
  ['contract', 'vertrag contrat contrato contratto'],
  ['duration', 'dauer duree duracion durata duracao duur'],
  ['level', 'niveau nivel livello'],
  ['instructor', 'dozent enseignant profesor docente professor'],
  ['series', 'serie serien reihe'],
  ['discount', 'rabatt remise descuento sconto desconto korting'],
  ['old', 'ancien anterior vecchio antigo oud fruherer vorheriger bisheriger precedent precedente'],
  ['dimensions', 'masse abmessungen dimensiones dimensioni afmetingen wymiary'],
  ['quantity', 'stuck menge quantite cantidad quantita quantidade hoeveelheid ilosc'],
  ['shipping', 'versand livraison envio spedizione verzending dostawa'],
  ['cost', 'kosten frais gastos costi custos'],
  ['returns', 'rucksendung retours devoluciones resi devolucoes'],
  ['warranty', 'garantie garantia garanzia gwarancja'],
  ['seller', 'verkaufer vendeur vendedor venditore verkoper sprzedawca'],
  ['type', 'typ tipo'],
  ['free', 'kostenlos gratuit gratis gratuito gratuita'],
  ['delivery', 'lieferung lieferzeit entrega consegna levering'],
  ['event', 'evento veranstaltung evenement wydarzenie'],
  ['start', 'salida partenza depart vertrek'],
  ['state', 'estado'],
  ['people', 'personnes personen personas persone pessoas osoby'],
  ['number', 'nb nbr anz'],
  ['features', 'merkmale eigenschaften caracteristiques caracteristicas caratteristiche kenmerken cechy'],
  ['sale', 'promotion promocion promozione promocao aktion angebot aanbieding'],
  ['cover', 'copertina couverture portada capa titelbild omslag'],
  ['total', 'totale gesamt totaal'],
  ['serving', 'porzione portion porcion porcao portie'],
  ['votes', 'voti votos stemmen stimmen'],
  ['calories', 'calorie kalorien calorias calorieen'],
  ['employer', 'arbeitgeber employeur empleador datore werkgever'],
  ['location', 'ort standort arbeitsort emplacement ubicacion sede localizacao locatie'],
  ['country', 'land'],
  ['period', 'zeitraum periode periodo'],
  ['employment type', 'beschaftigungsart anstellungsart arbeitszeitmodell'],
  ['deadline', 'bewerbungsfrist frist scadenza plazo'],
  ['capacity', 'inhoud fassungsvermogen kapazitat capacite capacidad capacita volumen'],
  ['waterproof', 'waterdicht wasserdicht impermeable impermeabile etanche'],
  ['closure', 'sluiting verschluss fermeture cierre chiusura'],
];

const WORDS = new Map<string, string>();
for (const [english, words] of MEANINGS) for (const w of words.split(' ')) if (!WORDS.has(w)) WORDS.set(w, english);

/** Words that join the parts of a name in these languages ("date de parution", "numero di pagine"). */
const CONNECTORS = new Set(
  'de di da del della dello des du do dos das der die von van het le la el il lo d l op auf en sur im'.split(' '),
);

/** Words that only say the price includes tax (TTC, inkl. MwSt., IVA incluida): the price is the price. */
const TAX_WORDS = new Set('ttc inkl mwst brutto iva incluida incluso incl'.split(' '));

/** Phrases that are one word in English ("mots clés", "code postal", "op voorraad"), folded, joined by spaces. */
const PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['mots cles', 'keywords'],
  ['palabras clave', 'keywords'],
  ['parole chiave', 'keywords'],
  ['palavras chave', 'keywords'],
  ['code postal', 'postalcode'],
  ['codigo postal', 'postalcode'],
  ['codice postale', 'postalcode'],
  ['op voorraad', 'instock'],
  ['sofort lieferbar', 'instock'],
  ['sofort verfugbar', 'instock'],
  ['auf lager', 'instock'],
  ['en stock', 'instock'],
  ['a partir de', 'from'],
];

/** A word in English: listed, else a compound of two listed words ("serienname", "bewertungsanzahl"), else itself. */
function englishWord(word: string): string {
  // German written without umlauts: 'waehrung', 'hoehe', 'frueherer'.
  const listed = WORDS.get(word) ?? WORDS.get(word.replace(/([aou])e/g, '$1'));
  if (listed) return listed;
  if (word.length >= 8) {
    for (let i = 3; i <= word.length - 3; i++) {
      const head = WORDS.get(word.slice(0, i)) ?? WORDS.get(word.slice(0, i - 1));
      const rest = word.slice(i);
      const tail = WORDS.get(rest) ?? (ENGLISH_TAILS.has(rest) ? rest : undefined);
      if (head && tail) return `${head} ${tail}`;
    }
  }
  return word;
}

/** English words that end compounds of these languages ("Serienname", "Artikelcode"). */
const ENGLISH_TAILS = new Set(['name', 'code', 'id', 'url', 'link', 'nr']);

/**
 * The English forms of a name written in another language, most likely first; a name of English words only gets
 * just its words in the other order (none for one word). Names repeat across a schema's lookups and across pages:
 * the forms are cached, bounded.
 */
export const englishNames: (name: string) => readonly string[] = memoized(translate, 4096);

function translate(name: string): string[] {
  const words = name
    .normalize('NFKC')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map(fold);
  if (!words.length || words.length > 6) return [];
  let joined = ` ${words.join(' ')} `;
  for (const [phrase, english] of PHRASES) joined = joined.replace(` ${phrase} `, ` ${english} `);
  const kept = joined
    .trim()
    .split(' ')
    .filter((w) => w !== '' && !CONNECTORS.has(w) && !TAX_WORDS.has(w));
  if (!kept.length) return [];
  // Italian and Portuguese 'data' is a date when it names one ('data_pubblicazione'); alone it may be data.
  const english = kept.map((w) => (w === 'data' && kept.length > 1 ? 'date' : englishWord(w)));
  // A name of English words only is still tried the other way round ('date_publication' -> publication date).
  if (english.every((w, i) => w === words[i]) && kept.length === words.length) {
    return english.length > 1 ? [[...english].reverse().join(' ')] : [];
  }
  const out: string[] = [];
  // 'nombre' is a name in Spanish and a number in French ('nombre_pages'): both readings are tried.
  const readings = [english];
  const ambiguous = kept.findIndex((w) => AMBIGUOUS.has(w));
  if (ambiguous >= 0) {
    readings.push(english.map((w, i) => (i === ambiguous ? (AMBIGUOUS.get(kept[i] as string) as string) : w)));
  }
  for (const reading of readings) {
    out.push(reading.join(' '));
    // Romance languages name the head first ("data parution", "fascia prezzo"); a trailing unit stays last
    // ("tempo totale min" -> "total time min").
    const unit = reading.length > 2 && UNIT_WORDS.has(reading[reading.length - 1] as string);
    const head = unit ? reading.slice(0, -1) : reading;
    if (head.length > 1) out.push([...[...head].reverse(), ...(unit ? reading.slice(-1) : [])].join(' '));
    if (reading[0] === 'number' && reading.length > 1) out.push(`number of ${reading.slice(1).join(' ')}`);
  }
  return [...new Set(out)];
}

/** Unit words a name may end in, kept last when the other words are reversed. */
const UNIT_WORDS = new Set(
  'min mins minuti minuten minutos minutes h ore stunden horas g kg mg cm mm m ml l eur'.split(' '),
);

/** Words with a second meaning in another of the languages: the second English word. */
const AMBIGUOUS = new Map([
  ['nombre', 'number'],
  // A Mexican address's estado is its state; a Spanish product's its condition.
  ['estado', 'condition'],
]);
