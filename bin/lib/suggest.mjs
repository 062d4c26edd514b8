// "did you mean" hints for a mistyped command, option or preset id.

/** Edit distance (insertions, deletions, substitutions) between `a` and `b`. */
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * The closest of `words` to a mistyped `word` (edit distance at most 2, or 3 for long words) as
 * ` (did you mean <prefix><word>?)`, or '' when none is that close. `prefix` is `--` for options.
 * Written here rather than taken from npm: the package has no runtime dependencies, and this is
 * a dozen lines.
 */
export function didYouMean(word, words, prefix = '') {
  const limit = word.length > 8 ? 3 : 2;
  let best = null;
  let bestDistance = limit + 1;
  for (const w of words) {
    const d = distance(word, w);
    if (d < bestDistance) {
      best = w;
      bestDistance = d;
    }
  }
  return best ? ` (did you mean ${prefix}${best}?)` : '';
}
