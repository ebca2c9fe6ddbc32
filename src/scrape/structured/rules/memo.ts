// A bounded cache for pure functions of a string: the rules look the same names, labels and types up many times
// per page and across pages (a profile of holdout5 spent a fifth of its time splitting the same words again).
// When full the cache is emptied, so hostile inputs with endless distinct names cost memory only up to the bound.

export function memoized<T>(fn: (text: string) => T, size = 8192): (text: string) => T {
  const cache = new Map<string, T>();
  return (text: string): T => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const value = fn(text);
    if (cache.size >= size) cache.clear();
    cache.set(text, value);
    return value;
  };
}
