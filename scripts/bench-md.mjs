// The Markdown of docs/BENCHMARKS.md's tables: figures as text, rows and tables, a section's
// heading with where its figures come from (scripts/bench-sections.mjs).

export const int = n => Math.round(n).toLocaleString('en');
export const fix = (n, d) => (n === null || n === undefined ? '–' : n.toFixed(d));
export const kb = n => `${(n / 1024).toFixed(1)} KB`;
export const yes = ok => (ok ? 'yes' : '**no**');
/** The spread of the alternating pairs' own ratios (page / native runs seconds apart), when recorded. */
export const pairs = ps => {
  if (!ps?.length) return '';
  const s = [...ps].sort((a, b) => a - b);
  return `; each pair's own ratio ${fix(s[0], 2)}–${fix(s.at(-1), 2)}×, median ${fix(s[Math.floor(s.length / 2)], 2)}×`;
};
export const row = cells => `| ${cells.join(' | ')} |`;
export const table = (head, align, rows) => [row(head), row(align), ...rows.map(row)];
/** A section's heading, then where its figures come from. */
export const section = (title, r, detail) => [
  '',
  `## ${title}`,
  '',
  `\`${r.command}\`; ${[r.date, r.commit, r.machine ?? r.cpu, r.rustc, r.node && `Node ${r.node}`].filter(Boolean).join(', ')}.` +
    ` Method and decisions: [${detail}](${detail}).`,
  ...(r.note ? ['', r.note] : []),
  '',
];
