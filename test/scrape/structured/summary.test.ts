// The extractive summary (no model): TextRank's choice of sentences, quoted whole and in reading order, within the
// bounds, from markdown with its syntax removed; in English, German and Japanese; bounded on hostile input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeMarkdown, summarizeText } from '../../../src/scrape/structured/rules/summary.js';

const ENGLISH = `# City council approves new bike lanes

By Jane Doe

The city council voted on Tuesday to build forty kilometres of protected bike lanes across the downtown area.

The plan, which will cost about twelve million dollars, replaces parking spaces on six major streets with lanes separated from traffic by concrete curbs. Supporters of the bike lanes say the network will make cycling safer for commuters and reduce traffic in the downtown area.

Several shop owners opposed the plan at the meeting. They argued that losing parking spaces would keep customers away from their stores. One bakery owner said her business depends on drivers who stop for a few minutes.

Council members pointed to a study of similar bike lanes in other cities. The study found that protected bike lanes increased cycling by a third within two years, while shops on those streets reported stable sales.

Construction of the first bike lanes will begin in the spring. The city expects the whole network of protected lanes to be finished by the end of next year.

Meanwhile, the weather stayed mild for most of the week.
`;

const GERMAN = `Der Stadtrat hat am Dienstag den Bau neuer Radwege in der Innenstadt beschlossen. Insgesamt sollen vierzig Kilometer geschützte Radwege entstehen, die durch Betonbordsteine vom Autoverkehr getrennt sind.

Die Arbeiten beginnen am 3. Oktober und sollen bis Ende des nächsten Jahres abgeschlossen sein. Dafür fallen auf sechs Hauptstraßen Parkplätze weg, z. B. in der Bahnhofstraße und am Marktplatz.

Mehrere Ladenbesitzer kritisierten den Plan in der Sitzung. Sie befürchten, dass ohne Parkplätze weniger Kunden in ihre Geschäfte kommen. Dr. Petra Schmidt vom Verkehrsamt verwies dagegen auf eine Studie über geschützte Radwege in anderen Städten.

Laut der Studie stieg der Radverkehr auf geschützten Radwegen innerhalb von zwei Jahren um ein Drittel. Die Geschäfte an diesen Straßen meldeten zugleich stabile Umsätze.

Das Wetter blieb die ganze Woche über mild.
`;

const JAPANESE = `市議会は火曜日、中心市街地に保護された自転車専用道路を整備する計画を承認した。計画では、六本の主要道路の駐車スペースを廃止し、コンクリートの縁石で車道から分離した自転車専用道路を設ける。

総事業費は約十二億円と見込まれている。賛成派は、自転車専用道路の整備によって通勤者の安全が高まり、中心市街地の渋滞も緩和されると主張している。

一方、商店主の一部は計画に反対した。駐車スペースがなくなれば客足が遠のくと懸念している。

市は他都市の調査を根拠に挙げた。調査によると、保護された自転車専用道路の整備後、二年以内に自転車の利用が三分の一増えた。

工事は春に始まる予定だ。今週は穏やかな天気が続いた。
`;

const sentenceSplitter = new Intl.Segmenter('en', { granularity: 'sentence' });
const sentencesOf = (text: string): string[] =>
  [...sentenceSplitter.segment(text)].map((s) => s.segment.trim()).filter(Boolean);

/** Each sentence of `summary` is found in `source`, each one after the previous: quoted, and in reading order. */
function assertQuotedInOrder(summary: string, sentences: string[], source: string): void {
  let from = -1;
  for (const sentence of sentences) {
    const at = source.indexOf(sentence, from + 1);
    assert.ok(at > from, `"${sentence}" not found after position ${from} of the source`);
    from = at;
  }
  assert.ok(summary.length > 0);
}

describe('summarizeMarkdown', () => {
  it('summarises an English article with its own sentences, in reading order, within the defaults', () => {
    const summary = summarizeMarkdown(ENGLISH, { language: 'en' });
    const sentences = sentencesOf(summary);
    assert.ok(sentences.length >= 2 && sentences.length <= 5, summary);
    assert.ok(summary.length <= 800);
    assertQuotedInOrder(summary, sentences, ENGLISH);
    assert.ok(!summary.includes('City council approves'), 'the heading is not prose');
    assert.ok(!summary.includes('Jane Doe'), 'a byline is not a sentence');
    assert.ok(!summary.includes('weather'), 'the off-topic sentence is the least central');
  });

  it('keeps German abbreviations and dates inside their sentences', () => {
    const summary = summarizeMarkdown(GERMAN, { language: 'de', maxSentences: 10, maxChars: 2000 });
    // Fewer sentences than the bound: the whole text comes back, so every sentence can be checked.
    assert.ok(summary.includes('Die Arbeiten beginnen am 3. Oktober und sollen bis Ende des nächsten Jahres'));
    assert.ok(summary.includes('z. B. in der Bahnhofstraße und am Marktplatz.'));
    assert.ok(summary.includes('Dr. Petra Schmidt vom Verkehrsamt verwies'));

    const short = summarizeMarkdown(GERMAN, { language: 'de', maxSentences: 3 });
    const picked = ['Der Stadtrat', 'Insgesamt', 'Die Arbeiten', 'Dafür', 'Mehrere', 'Sie befürchten', 'Dr. Petra']
      .concat(['Laut der Studie', 'Die Geschäfte', 'Das Wetter'])
      .filter((start) => short.includes(start));
    assert.ok(picked.length >= 1 && picked.length <= 3, short);
    assert.ok(!short.includes('Wetter'), short);
    const positions = picked.map((start) => short.indexOf(start));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      'reading order',
    );
  });

  it('summarises Japanese (no spaces between words) on character bigrams, sentences joined without spaces', () => {
    const summary = summarizeMarkdown(JAPANESE, { language: 'ja', maxSentences: 3 });
    const sentences = summary.split(/(?<=。)/).filter(Boolean);
    assert.ok(sentences.length >= 1 && sentences.length <= 3, summary);
    assert.ok(!summary.includes(' '), 'no space is put between Japanese sentences');
    assertQuotedInOrder(summary, sentences, JAPANESE);
    assert.ok(summary.includes('自転車専用道路'), 'the central sentences are about the bike lanes');
    assert.ok(!summary.includes('天気'), summary);
  });

  it('picks the most central sentence of a constructed text', () => {
    // The hub shares words with every other sentence; the others share nothing with each other.
    const hub = 'Volcanic soil, coastal fog and cold nights shape the flavour of the island vineyards.';
    const text = [
      'Volcanic soil drains quickly.',
      'Coastal fog rolls in every morning.',
      hub,
      'Cold nights keep the acidity high.',
      'The island has a small airport.',
      'Vineyards cover the southern slopes.',
    ].join(' ');
    assert.equal(summarizeMarkdown(text, { maxSentences: 1 }), hub);
  });

  it('does not quote near-copies of a sentence it already chose', () => {
    const text = [
      'Preheat the oven and roast the squash with olive oil, garlic and thyme.',
      'Roast the squash with olive oil, garlic and thyme in the preheated oven.',
      'Serve the squash warm with the garlic and thyme yogurt.',
      'The oven should be hot before the squash goes in.',
      'Olive oil keeps the squash from drying out.',
      'Leftovers keep for three days in the fridge.',
    ].join(' ');
    const summary = summarizeMarkdown(text, { maxSentences: 2 });
    const copies = ['Preheat the oven and roast', 'Roast the squash with olive oil'].filter((s) => summary.includes(s));
    assert.ok(copies.length <= 1, summary);
  });

  it('removes markdown syntax and keeps link text', () => {
    const markdown = [
      '# Heading that is not prose',
      '',
      'The **new** bridge opens *today* after [three years](https://example.com/a_b) of ~~delays~~ work.',
      '',
      '![A photo of the bridge.](https://example.com/bridge.jpg)',
      '',
      '```js',
      'const secret = "code is not prose.";',
      '```',
      '',
      '| Year | Cost. |',
      '| --- | --- |',
      '| 2020 | High. |',
      '',
      '- Engineers tested the `load` of the bridge with forty trucks.',
      '- Menu',
      '',
      '> Mayor Smith called the bridge a \\*historic\\* moment for the city.',
      '',
      'Subheading',
      '---',
      '',
      'Traffic on the old ferry route is expected to fall by half.',
    ].join('\n');
    const summary = summarizeMarkdown(markdown, { maxSentences: 10, maxChars: 2000 });
    assert.equal(
      summary,
      'The new bridge opens today after three years of delays work. ' +
        'Engineers tested the load of the bridge with forty trucks. ' +
        'Mayor Smith called the bridge a *historic* moment for the city. ' +
        'Traffic on the old ferry route is expected to fall by half.',
    );
  });

  it('gives the empty string when there is no prose', () => {
    assert.equal(summarizeMarkdown(''), '');
    assert.equal(summarizeMarkdown('   \n\n  '), '');
    assert.equal(summarizeMarkdown('# Only a heading\n\n## And another'), '');
    assert.equal(summarizeMarkdown('```\nSome code. More code.\n```'), '');
    assert.equal(summarizeMarkdown('| a. | b. |\n| --- | --- |\n| c. | d. |'), '');
    assert.equal(summarizeMarkdown('![An image.](https://example.com/x.png)'), '');
    assert.equal(summarizeMarkdown('- Home\n- About\n- Contact'), '');
  });

  it('returns a short text as it is', () => {
    const text = 'One sentence here. And a second one.';
    assert.equal(summarizeMarkdown(text), text);
    assert.equal(summarizeMarkdown('Just one.'), 'Just one.');
  });

  it('respects maxSentences and maxChars, never cutting a sentence when a whole one fits', () => {
    for (const [maxSentences, maxChars] of [
      [1, 800],
      [2, 250],
      [3, 120],
      [5, 400],
    ] as const) {
      const summary = summarizeMarkdown(ENGLISH, { maxSentences, maxChars });
      const sentences = sentencesOf(summary);
      assert.ok(sentences.length >= 1 && sentences.length <= maxSentences, `${maxSentences}: ${summary}`);
      assert.ok(summary.length <= maxChars, `${maxChars}: ${summary}`);
      assert.ok(!summary.endsWith('…'));
      assertQuotedInOrder(summary, sentences, ENGLISH);
    }
  });

  it('cuts a single sentence longer than maxChars at a word, with an ellipsis', () => {
    const long = 'The committee ' + 'carefully reviewed every single proposal '.repeat(10) + 'before voting.';
    const summary = summarizeMarkdown(long, { maxChars: 60 });
    assert.ok(summary.length <= 60, summary);
    assert.ok(summary.endsWith('…'));
    assert.ok(long.startsWith(summary.slice(0, -1)), 'a prefix of the sentence');
    assert.ok(long.charAt(summary.length - 1) === ' ', 'cut at a word boundary');
  });

  it('is deterministic and breaks ties by position', () => {
    // Nothing shared between sentences: every score is equal, so the first ones win.
    const text = 'Apples grow red. Bicycles need oil. Clouds bring rain. Dolphins swim fast. Engines roar loudly.';
    assert.equal(summarizeMarkdown(text, { maxSentences: 2 }), 'Apples grow red. Bicycles need oil.');
    assert.equal(summarizeMarkdown(ENGLISH), summarizeMarkdown(ENGLISH));
  });

  it('accepts a malformed language tag and odd options', () => {
    assert.ok(summarizeMarkdown(ENGLISH, { language: 'not a tag!!' }).length > 0);
    assert.ok(summarizeMarkdown(ENGLISH, { maxSentences: NaN, maxChars: -3 }).length <= 800);
  });

  it('stays bounded on hostile input', () => {
    const twoMegabytes = 2 * 1024 * 1024;
    const giantSentence = 'word '.repeat(twoMegabytes / 5) + 'end.';
    const tinySentences = 'A b. '.repeat(100_000);
    const bracketStorm = '[x]('.repeat(twoMegabytes / 4);
    const deepQuote = '> '.repeat(twoMegabytes / 2) + 'Quoted words here.';
    const manyItems = '- Item number one.\n'.repeat(twoMegabytes / 19);
    const initials = 'A. '.repeat(twoMegabytes / 3) + 'Smith.';
    for (const input of [giantSentence, tinySentences, bracketStorm, deepQuote, manyItems, initials]) {
      const summary = summarizeMarkdown(input);
      assert.ok(summary.length <= 800, `${summary.length} chars`);
      assert.equal(typeof summarizeText(input), 'string');
    }
    const giant = summarizeMarkdown(giantSentence);
    assert.ok(giant.length > 0 && giant.endsWith('…'), 'the giant sentence is cut and says so');
  });
});

describe('summarizeText', () => {
  it('reads one block per line and drops lines that are not sentences', () => {
    const text = ENGLISH.replace(/^# /, '').replace(/\n\n/g, '\n');
    const summary = summarizeText(text, { language: 'en-GB', maxSentences: 3 });
    const sentences = sentencesOf(summary);
    assert.ok(sentences.length >= 1 && sentences.length <= 3);
    assertQuotedInOrder(summary, sentences, ENGLISH);
    assert.ok(!summary.includes('City council approves'));
  });

  it('joins hard-wrapped lines of a paragraph', () => {
    const text = 'The river flooded the lower town\nafter three days of rain.\nResidents were moved to the school.';
    assert.equal(
      summarizeText(text),
      'The river flooded the lower town after three days of rain. Residents were moved to the school.',
    );
  });
});
