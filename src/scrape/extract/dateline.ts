// Recognises a line that is only a date and time ("Updated: Sat 8:31 PM, Feb 17, 2018"), with no author or other words.

/**
 * Words a date line is made of, in the languages of the usual themes (English, German, French,
 * Spanish, Portuguese): months and weekdays (full and abbreviated), the labels around them
 * ("Posted", "Updated", "Last modified", "on", "at", "às", "um ... Uhr"), a.m./p.m. and time zones.
 */
const DATE_WORDS = new Set(
  [
    // months
    'january february march april may june july august september october november december',
    'jan feb mar apr jun jul aug sep sept oct nov dec',
    'januar jänner februar märz mai juni juli oktober dezember jän mär okt dez',
    'janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre decembre janv févr avr juil déc',
    'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre ene abr ago dic',
    'janeiro fevereiro março maio junho julho setembro outubro dezembro fev mai set out dez',
    // weekdays
    'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun',
    'montag dienstag mittwoch donnerstag freitag samstag sonntag mo di mi do fr sa so',
    'lundi mardi mercredi jeudi vendredi samedi dimanche',
    'lunes martes miércoles miercoles jueves viernes sábado sabado domingo',
    'segunda terça terca quarta quinta sexta feira',
    // labels, a.m./p.m., ordinals, time zones
    'posted published updated last modified created date on at am pm a m p st nd rd th',
    'veröffentlicht aktualisiert zuletzt um uhr',
    'publié publie mis à a jour le er',
    'publicado actualizado atualizado de del el las los às as em',
    'gmt utc est edt cst cdt mst mdt pst pdt bst cet cest ist aest aedt et',
  ]
    .join(' ')
    .split(' '),
);

const TOKEN = /\p{L}+|\p{N}+/gu;
/** What makes a line a date rather than a number: a month's name, a clock time or a numeric date. */
const TIME_OR_NUMERIC_DATE = /\b\d{1,2}[:.h]\d{2}\b|\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/;
const MONTHS = new Set(
  [
    'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec',
    'januar jänner februar märz mai juni juli oktober dezember jän mär okt dez',
    'janvier février fevrier mars avril juin juillet août aout septembre octobre novembre décembre decembre janv févr avr juil déc',
    'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre ene abr ago dic',
    'janeiro fevereiro março maio junho julho setembro outubro dezembro fev set out',
  ]
    .join(' ')
    .split(' '),
);

/** Longest text looked at: a date line is short. */
export const MAX_DATE_LINE_CHARS = 120;

/**
 * Whether `text` is only a date and/or time with its labels: every word is a date word, there is a
 * number, and a month's name, a clock time or a numeric date. "Posted: Fri 6:45 PM, Feb 16, 2018",
 * "sexta-feira, 22 de outubro de 2010 às 20:13", "19.11.2019, 08:57" are; "By Ann Lee, May 3",
 * "1 of 6" and "Image 1 of 23" are not.
 */
export function isDateOnly(text: string): boolean {
  if (text.length > MAX_DATE_LINE_CHARS) return false;
  const tokens = text.toLowerCase().match(TOKEN);
  if (!tokens || tokens.length > 16) return false;
  let number = false;
  let month = false;
  for (const t of tokens) {
    if (/^\p{N}+$/u.test(t)) number = true;
    else if (!DATE_WORDS.has(t)) return false;
    else if (MONTHS.has(t)) month = true;
  }
  return number && (month || TIME_OR_NUMERIC_DATE.test(text));
}
