// Images of known text for the OCR benchmark: fonts, sizes and backgrounds varied, lines made of words and numbers
// from a fixed seed, drawn as SVG text by libvips (sharp) with the system's fonts.
import sharp from 'sharp';

export const FONTS = [
  'DejaVu Sans',
  'DejaVu Serif',
  'DejaVu Sans Mono',
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Mono',
];
export const SIZES = [14, 18, 24, 32, 44];
/** Background, text colour. */
export const BACKGROUNDS: Array<[string, string]> = [
  ['#ffffff', '#111111'],
  ['#f3ecd6', '#2a2118'],
  ['#e4e4e4', '#303030'],
  ['#dde8f5', '#0d2a4d'],
];
const WORDS = (
  'invoice total order delivery station river north garden weather report monday april account number price ' +
  'shipping market village summer winter bridge library museum service customer payment balance amount street ' +
  'harbour engine window morning evening quarter region office ticket journey'
).split(' ');

export interface BenchImage {
  font: string;
  size: number;
  background: string;
  text: string;
  png: Buffer;
}

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Lines that fit an 800 px wide image at `size` (a glyph is about 0.62 em wide in these fonts). */
function linesFor(size: number, rnd: () => number): string[] {
  const perLine = Math.floor(720 / (size * 0.62));
  const lineCount = Math.min(8, Math.floor(480 / (size * 1.8)));
  return Array.from({ length: lineCount }, () => {
    let line = '';
    for (;;) {
      const word =
        rnd() < 0.2 ? String(Math.floor(rnd() * 90000 + 1000)) : (WORDS[Math.floor(rnd() * WORDS.length)] as string);
      if ((line + ' ' + word).trim().length > perLine) return line;
      line = `${line} ${word}`.trim();
    }
  });
}

export async function drawImage(
  font: string,
  size: number,
  [background, ink]: [string, string],
  lines: string[],
): Promise<Buffer> {
  const body = lines
    .map(
      (l, i) =>
        `<text x="40" y="${70 + i * size * 1.8}" font-family="${font}" font-size="${size}" fill="${ink}">${l}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="100%" height="100%" fill="${background}"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** `count` images cycling through every font, size and background. */
export async function benchImages(count: number, seed = 11): Promise<BenchImage[]> {
  const rnd = random(seed);
  const out: BenchImage[] = [];
  for (let i = 0; i < count; i++) {
    const font = FONTS[i % FONTS.length] as string;
    const size = SIZES[Math.floor(i / FONTS.length) % SIZES.length] as number;
    const colours = BACKGROUNDS[i % BACKGROUNDS.length] as [string, string];
    // From a caption of two lines to a page of text.
    const lines = linesFor(size, rnd).slice(0, 2 + (i % 7));
    out.push({
      font,
      size,
      background: colours[0],
      text: lines.join('\n'),
      png: await drawImage(font, size, colours, lines),
    });
  }
  return out;
}

/** Character error rate: edit distance over the length of the truth, whitespace runs counted as one space. */
export function characterErrors(read: string, truth: string): { errors: number; chars: number } {
  const a = read.replace(/\s+/g, ' ').trim();
  const b = truth.replace(/\s+/g, ' ').trim();
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return { errors: previous[b.length] as number, chars: b.length };
}
