// The references the page links to, as pages of their own: docs/*.md rendered by marked into
// <out>/docs/*.html (links between them kept, images copied), each with the docs' stylesheet and a
// link back to the lab. Static text: no script, and a CSP that allows none.
// Usage: node scripts/build-docs.mjs [out]   (out: dist/www; scripts/build-page.mjs runs it)

import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs');
const OUT = path.join(path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/www')), 'docs');

// Markdown of our own: a link to another doc (`x.md`, `x.md#part`) goes to its page; one out of
// docs/ (`../presets`) to nowhere a static page has, so it is left as text.
const marked = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type !== 'link') return;
    if (/^[\w-]+\.md(#.*)?$/.test(token.href)) token.href = token.href.replace(/\.md(#|$)/, '.html$1');
    else if (token.href.startsWith('../')) token.href = '';
  },
});
const escapeHtml = s => s.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

mkdirSync(OUT, { recursive: true });
const pages = readdirSync(DOCS).filter(f => f.endsWith('.md'));
for (const f of pages) {
  const md = readFileSync(path.join(DOCS, f), 'utf8');
  const title = md.match(/^#\s+(.+)$/m)?.[1] ?? f;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self'">
<title>${escapeHtml(title.replace(/[`*]/g, ''))} · rowkey-lab</title>
<link rel="stylesheet" href="docs.css">
</head>
<body>
<nav><a href="../index.html">← rowkey-lab</a> · <a href="keyspec.html">Key language</a> · <a href="design-document.html">Design document</a> · <a href="cli.html">CLI</a> · <a href="page.html">The page</a></nav>
<main>
${marked.parse(md)}
</main>
</body>
</html>
`;
  writeFileSync(path.join(OUT, f.replace(/\.md$/, '.html')), html);
}
cpSync(path.join(DOCS, 'img'), path.join(OUT, 'img'), { recursive: true });
writeFileSync(
  path.join(OUT, 'docs.css'),
  `:root { color-scheme: light dark; --line: #d8dde3; --code: #f4f6f8; }
@media (prefers-color-scheme: dark) { :root { --line: #333a42; --code: #1e2227; } }
body { font: 16px/1.55 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }
nav { border-bottom: 1px solid var(--line); padding-bottom: 0.5rem; }
pre, code { font-family: ui-monospace, monospace; font-size: 0.9em; background: var(--code); }
pre { padding: 0.75rem; overflow-x: auto; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; }
img { max-width: 100%; }
`,
);
console.log(`[build-docs] ${pages.length} pages into ${path.relative(ROOT, OUT)}/`);
