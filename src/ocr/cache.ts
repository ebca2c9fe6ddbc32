// Recognized text by image content: a crawl of pages that share a logo reads it once.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export class OcrCache {
  private readonly texts: LRUCache<string, string>;

  constructor(entries: number) {
    // Bounded by size too: a text is at most what one image holds, but entries × text must not grow without end.
    this.texts = new LRUCache<string, string>({
      max: Math.max(1, entries),
      maxSize: 64 * 1024 * 1024,
      sizeCalculation: (t) => t.length + 64,
    });
  }

  static keyOf(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  set(key: string, text: string): void {
    this.texts.set(key, text);
  }
}
