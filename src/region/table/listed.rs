//! Split keys written out as text, not as region names: a shell `create` statement, a
//! bracketed list of quoted keys, and one key per line (`get_splits`, a `SPLITS_FILE`).

use super::*;

// ---- create statements and quoted lists ---------------------------------------------------

/// 1-based line and column of byte `at` of `text`.
pub(super) fn line_col_of(text: &str, at: usize) -> (usize, usize) {
    let head = text.get(..at).unwrap_or(text);
    let line_start = head.rfind('\n').map_or(0, |i| i + 1);
    (
        head.matches('\n').count() + 1,
        head.get(line_start..).map_or(1, |s| s.chars().count() + 1),
    )
}

/// Byte index of the first `pat` in `text` (a plain window scan: the patterns are short
/// words, and `str::find` would link core's two-way searcher for them).
fn find(text: &str, pat: &str) -> Option<usize> {
    text.as_bytes()
        .windows(pat.len())
        .position(|w| w == pat.as_bytes())
}

/// The value after `NAME =>` (spaces allowed around `=>`), as the index where it starts.
fn after_arrow(text: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = find(text.get(from..)?, name) {
        let at = from + i + name.len();
        let rest = text.get(at..)?;
        let r = rest.trim_start();
        if let Some(v) = r.strip_prefix("=>") {
            return Some(text.len() - v.trim_start().len());
        }
        from = at;
    }
    None
}

pub(super) fn from_create(text: &str) -> Result<Option<RegionList>> {
    if let Some(at) = find(text, "SPLITS_FILE") {
        let (l, c) = line_col_of(text, at);
        return Err(parse_error(
            l,
            c,
            "the statement reads its keys from a SPLITS_FILE: paste the file's lines instead",
        ));
    }
    let table = text
        .trim_start()
        .strip_prefix("create")
        .map(str::trim_start)
        .filter(|r| r.starts_with(['\'', '"']))
        .and_then(|r| {
            let at = text.len() - r.len();
            let (l, c) = line_col_of(text, at);
            quoted(r, l, c).ok().map(|(s, _)| s)
        });
    if let Some(at) = after_arrow(text, "SPLITS") {
        let (l, c) = line_col_of(text, at);
        let rest = text.get(at..).unwrap_or("");
        let keys = list_at(rest, l, c)?;
        return explicit(RegionSource::Create, table, keys, &[], Vec::new()).map(Some);
    }
    let Some(at) = after_arrow(text, "NUMREGIONS") else {
        return Ok(None);
    };
    let digits: String = text
        .get(at..)
        .unwrap_or("")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let (l, c) = line_col_of(text, at);
    let regions: u32 = digits
        .parse()
        .map_err(|_| parse_error(l, c, "NUMREGIONS => must be followed by a number"))?;
    let algo_at = after_arrow(text, "SPLITALGO").ok_or_else(|| {
        parse_error(l, c, "NUMREGIONS needs SPLITALGO => 'HexStringSplit', 'DecimalStringSplit' or 'UniformSplit'")
    })?;
    let (al, ac) = line_col_of(text, algo_at);
    let (algo, _) = quoted(text.get(algo_at..).unwrap_or(""), al, ac)?;
    let short = algo.rsplit('.').next().unwrap_or(&algo);
    let presplit = match short {
        "HexStringSplit" => PreSplit::HexString {
            regions,
            first_row: None,
            last_row: None,
        },
        "DecimalStringSplit" => PreSplit::DecimalString {
            regions,
            first_row: None,
            last_row: None,
        },
        "UniformSplit" => PreSplit::Uniform {
            regions,
            first_row: None,
            last_row: None,
        },
        _ => {
            return Err(parse_error(
                al,
                ac,
                format!("SPLITALGO `{algo}` is not one of RegionSplitter's: HexStringSplit, DecimalStringSplit, UniformSplit"),
            ))
        }
    };
    Ok(Some(RegionList {
        load_shares: None,
        source: RegionSource::Create,
        table,
        regions,
        presplit,
        verified: 0,
        notes: Vec::new(),
        load: Vec::new(),
        assignment: None,
    }))
}

/// The keys of a bracketed list of quoted strings at the start of `s` (which starts at
/// `line`, `col` of the text), through `Bytes.toBytesBinary`.
pub(super) fn list_at(s: &str, line: usize, col: usize) -> Result<Vec<Vec<u8>>> {
    let Some(mut rest) = s.strip_prefix('[') else {
        return Err(parse_error(
            line,
            col,
            "expected `[` to open the list of split keys",
        ));
    };
    let (mut l, mut c) = (line, col + 1);
    let mut keys = Vec::new();
    let skip = |r: &str, l: &mut usize, c: &mut usize, allow_comma: bool| -> usize {
        let mut n = 0;
        let mut comma = !allow_comma;
        for ch in r.chars() {
            match ch {
                '\n' => {
                    *l += 1;
                    *c = 1;
                }
                ' ' | '\t' | '\r' => *c += 1,
                ',' if !comma => {
                    comma = true;
                    *c += 1;
                }
                _ => break,
            }
            n += ch.len_utf8();
        }
        n
    };
    loop {
        rest = rest.get(skip(rest, &mut l, &mut c, false)..).unwrap_or("");
        if rest.starts_with(']') {
            return Ok(keys);
        }
        if rest.is_empty() {
            return Err(parse_error(
                l,
                c,
                "the list of split keys has no closing `]`",
            ));
        }
        let (text, used) = quoted(rest, l, c)?;
        keys.push(to_bytes_binary_str(&text));
        // A quoted key never spans lines.
        c += rest.get(..used).map_or(0, |u| u.chars().count());
        rest = rest.get(used..).unwrap_or("");
        let n = skip(rest, &mut l, &mut c, true);
        let had_comma = rest.get(..n).is_some_and(|u| u.contains(','));
        rest = rest.get(n..).unwrap_or("");
        if !had_comma && !rest.starts_with(']') {
            return Err(parse_error(l, c, "expected `,` or `]` after a split key"));
        }
    }
}

/// A Ruby (or JSON) string literal at the start of `s`: its text and the bytes it used.
/// Single quotes: only `\\` and `\'` are escapes. Double quotes: `\\ \" \# \/ \n \t \r \0`,
/// `\uXXXX` and `\xNN` below 0x80; Ruby turns `"\xFF"` into a byte that is not UTF-8, which
/// reaches Java as U+FFFD, so it is refused rather than guessed.
fn quoted(s: &str, line: usize, col: usize) -> Result<(String, usize)> {
    let mut chars = s.char_indices();
    let q = match chars.next() {
        Some((_, q @ ('\'' | '"'))) => q,
        _ => return Err(parse_error(line, col, "expected a quoted split key")),
    };
    let (mut out, mut c) = (String::new(), col + 1);
    while let Some((i, ch)) = chars.next() {
        if ch == q {
            return Ok((out, i + 1));
        }
        if ch == '\n' {
            break;
        }
        let here = c;
        c += 1;
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        c += 1;
        if q == '\'' {
            if e != '\\' && e != '\'' {
                out.push('\\');
            }
            out.push(e);
            continue;
        }
        match e {
            '\\' | '"' | '#' | '/' | '\'' => out.push(e),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'x' | 'u' => {
                let n = if e == 'x' { 2 } else { 4 };
                let rest = chars.as_str();
                let hex: String = rest
                    .chars()
                    .take(n)
                    .take_while(char::is_ascii_hexdigit)
                    .collect();
                let v = hex
                    .chars()
                    .try_fold(0, |v, d| Some(v * 16 + d.to_digit(16)?))
                    .filter(|_| hex.len() == n);
                let ch = v
                    .filter(|&v| e == 'u' || v < 0x80)
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        parse_error(line, here, format!("`\\{e}{hex}` in a double-quoted key: write the key in single quotes as toStringBinary text (`'\\xFF'`), which the shell passes to Bytes.toBytesBinary unchanged"))
                    })?;
                out.push(ch);
                for _ in 0..n {
                    chars.next();
                }
                c += n;
            }
            _ => {
                return Err(parse_error(
                    line,
                    here,
                    format!("unsupported escape `\\{e}` in a double-quoted key"),
                ))
            }
        }
    }
    Err(parse_error(
        line,
        col,
        format!("the key opened with {q} here is not closed on its line"),
    ))
}

// ---- get_splits and SPLITS_FILE -----------------------------------------------------------

pub(super) fn from_lines(text: &str) -> Result<RegionList> {
    let mut keys: Vec<Vec<u8>> = Vec::new();
    let mut lines_of: Vec<usize> = Vec::new();
    let mut total: Option<(usize, u64)> = None;
    let mut echo: Option<(usize, usize, &str)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let t = line.trim();
        if t.is_empty() || t.starts_with("hbase(") || is_took(t) {
            continue;
        }
        if let Some(n) = t.strip_prefix("Total number of splits =") {
            let n = n.trim().parse::<u64>().map_err(|_| {
                parse_error(
                    i + 1,
                    1,
                    "`Total number of splits =` must be followed by a number",
                )
            })?;
            total = Some((i + 1, n));
            continue;
        }
        if let Some(list) = t.strip_prefix("=>") {
            let at =
                line.len() - line.trim_start().len() + 2 + (list.len() - list.trim_start().len());
            echo = Some((i + 1, column(line, at), list.trim_start()));
            continue;
        }
        keys.push(to_bytes_binary_str(line));
        lines_of.push(i + 1);
    }
    if keys.is_empty() {
        if let Some((l, c, list)) = echo {
            let keys = list_at(list, l, c)?;
            return explicit(RegionSource::List, None, keys, &[], Vec::new());
        }
    }
    if let Some((line, n)) = total {
        if n != keys.len() as u64 + 1 {
            return Err(parse_error(
                line,
                1,
                format!(
                    "`Total number of splits = {n}` counts {n} regions, so {} split keys should follow, but {} do (was the output cut?)",
                    n.saturating_sub(1),
                    keys.len()
                ),
            ));
        }
    }
    explicit(RegionSource::Lines, None, keys, &lines_of, Vec::new())
}

/// The shell's `Took 0.0123 seconds` line.
fn is_took(t: &str) -> bool {
    t.strip_prefix("Took ")
        .and_then(|r| r.strip_suffix(" seconds"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit() || c == b'.'))
}
