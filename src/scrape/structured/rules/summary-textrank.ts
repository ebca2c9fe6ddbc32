// TextRank (Mihalcea & Tarau 2004) over sentences: a sentence is central when it shares terms with many sentences
// that are themselves central. Similarity of two sentences is their shared terms over log|Si| + log|Sj| (the log
// keeps long sentences from winning by length alone); scores are weighted PageRank with damping 0.85.

const DAMPING = 0.85;
/** PageRank stops when no score moves by more than this, or after MAX_ITERATIONS (it converges in ~20-50). */
const TOLERANCE = 1e-6;
const MAX_ITERATIONS = 200;

/** log|S| with |S| taken as at least 2, so that two one-term sentences do not divide by zero. */
const logSize = (size: number): number => Math.log(Math.max(2, size));

/**
 * Shared-term counts of every pair of sentences, through an inverted index (term → sentences holding it): only pairs
 * that share something are visited. `counts[i * n + j]` for i < j.
 */
function overlaps(terms: ReadonlyArray<readonly string[]>): Uint16Array {
  const n = terms.length;
  const postings = new Map<string, number[]>();
  terms.forEach((list, sentence) => {
    for (const term of list) {
      const holders = postings.get(term);
      if (holders) holders.push(sentence);
      else postings.set(term, [sentence]);
    }
  });
  // A count never exceeds a sentence's term count, which MAX_TERM_CHARS keeps far below 65,536.
  const counts = new Uint16Array(n * n);
  for (const holders of postings.values()) {
    // Sentences were pushed in order, and each term of a sentence is distinct: holders are ascending and unique.
    for (let a = 0; a < holders.length; a++) {
      const row = holders[a] * n;
      for (let b = a + 1; b < holders.length; b++) counts[row + holders[b]]++;
    }
  }
  return counts;
}

/** The TextRank score of each sentence, given its distinct terms. Sentences with nothing in common all score 0.15. */
export function textRankScores(terms: ReadonlyArray<readonly string[]>): Float64Array {
  const n = terms.length;
  const counts = overlaps(terms);
  // The graph as adjacency lists (undirected, weighted), and each node's total edge weight.
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  const weights: number[][] = Array.from({ length: n }, () => []);
  const strength = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const shared = counts[i * n + j];
      if (shared === 0) continue;
      const w = shared / (logSize(terms[i].length) + logSize(terms[j].length));
      neighbours[i].push(j);
      weights[i].push(w);
      neighbours[j].push(i);
      weights[j].push(w);
      strength[i] += w;
      strength[j] += w;
    }
  }

  let scores = new Float64Array(n).fill(1);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      const around = neighbours[i];
      const w = weights[i];
      let sum = 0;
      for (let k = 0; k < around.length; k++) {
        const j = around[k];
        sum += (w[k] / strength[j]) * scores[j];
      }
      const score = 1 - DAMPING + DAMPING * sum;
      change = Math.max(change, Math.abs(score - scores[i]));
      next[i] = score;
    }
    [scores, next] = [next, scores];
    if (change < TOLERANCE) break;
  }
  return scores;
}
