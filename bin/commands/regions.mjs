// regions: a table's current regions (and load) read from what HBase prints.
import { CliError, EXIT } from '../lib/errors.mjs';
import { out, pctOf, table } from '../lib/format.mjs';
import { loadRegions } from '../lib/io.mjs';

export async function regions(pos, opt) {
  if (pos[0] === undefined)
    throw new CliError(
      EXIT.USAGE,
      'missing <FILE> (get_splits or list_regions output, a SPLITS_FILE, ...; - for stdin)',
    );
  const list = await loadRegions(pos[0], opt.table);
  const FROM = {
    regionNames: 'region names',
    create: 'a create statement',
    list: 'a list of keys',
    lines: 'one key per line',
  };
  const now = list.loadShares;
  out(opt, list, () =>
    [
      `${list.regions} region${list.regions === 1 ? '' : 's'}${list.table ? ` of table ${list.table}` : ''}, read from ${FROM[list.source]}` +
        (list.source === 'regionNames' ? ` (${list.verified} checked against their MD5)` : ''),
      ...list.notes.map(n => `* ${n}`),
      ...(now
        ? [
            '',
            table(
              list.load.map((l, i) => [
                i,
                l.startKey,
                l.server ?? '-',
                l.requests ?? '-',
                l.writes ?? '-',
                pctOf(now.shares[i]),
                l.storeFileMb ?? '-',
              ]),
              ['region', 'start', 'server', 'requests', 'writes', `% of ${now.what}`, 'MB'],
              [1, 2],
            ),
          ]
        : []),
      '',
      // the regions section the list gives a design without one
      JSON.stringify(
        { regions: { presplit: list.presplit, ...(list.assignment ? { assignment: list.assignment } : {}) } },
        null,
        2,
      ),
    ].join('\n'),
  );
}
