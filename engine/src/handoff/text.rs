//! Quoting for the text formats of the bundle: CSV (RFC 4180, with text a spreadsheet would
//! run kept as text), YAML double-quoted scalars (YAML 1.2 §7.3.1), comments, and Slurm
//! hostlists. Every text of the design that reaches a file goes through one of these; names
//! that switches and schedulers read are already restricted by the spec's rules
//! ([`crate::spec::names`]).

use crate::units::push_hex;
use std::borrow::Cow;

/// Bytes a large file is handed on in: a file that lists every cable (hundreds of megabytes
/// for a million cables) is written a piece at a time and never held whole.
const PIECE_BYTES: usize = 1 << 16;

/// Where the pieces of a file being written go, in order.
pub type Pieces<'o> = dyn FnMut(&str) + 'o;

/// Hands `text` on to `out` once it holds a piece, or whatever it holds when `last`, and
/// empties it for more.
pub(crate) fn hand_on(text: &mut String, out: &mut Pieces, last: bool) {
    if (last && !text.is_empty()) || text.len() >= PIECE_BYTES {
        out(text);
        text.clear();
    }
}

/// [`hand_on`] for a file written as bytes: only whole strings and ASCII are written into it,
/// so each piece, cut at the end of a line, is UTF-8 and nothing is ever replaced.
pub(crate) fn hand_on_bytes(bytes: &mut Vec<u8>, out: &mut Pieces, last: bool) {
    if (last && !bytes.is_empty()) || bytes.len() >= PIECE_BYTES {
        out(&String::from_utf8_lossy(bytes));
        bytes.clear();
    }
}

/// The file a writer hands on in pieces, as one text: for a caller that wants it whole.
pub fn whole(write: impl FnOnce(&mut Pieces)) -> String {
    let mut text = String::new();
    write(&mut |piece: &str| text.push_str(piece));
    text
}

/// A cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return) with a leading apostrophe, so that it stays text [OWASP, "CSV
/// Injection"]; and the same after every `;` in it, where a spreadsheet whose list separator is
/// `;` (as in much of Europe) splits the line and starts a cell. Every CSV the planner writes
/// puts its cells through this.
pub fn spreadsheet_text(text: &str) -> Cow<'_, str> {
    const RUNS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];
    let runs = |piece: &str| piece.starts_with(RUNS);
    let split_runs = text.contains(';') && text.split(';').any(runs);
    if !runs(text) && !split_runs {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 4);
    for (i, piece) in text.split(';').enumerate() {
        if i > 0 {
            out.push(';');
        }
        if runs(piece) {
            out.push('\'');
        }
        out.push_str(piece);
    }
    out.into()
}

/// The text of a comment line: the design's text on one line (`#` comments of YAML, Slurm and
/// the READMEs end at any line break, YAML 1.1 readers' U+2028 included).
pub fn comment(text: &str) -> Cow<'_, str> {
    crate::spec::names::one_line(text)
}

/// One CSV line: fields with a comma, quote or line break are quoted, quotes doubled
/// [RFC 4180 §2], and text a spreadsheet would run kept as text ([`spreadsheet_text`]). Lines
/// end with `\n`.
pub fn csv_row<S: AsRef<str>>(fields: &[S]) -> String {
    let mut line = String::new();
    push_csv_row(&mut line, fields);
    line
}

/// [`csv_row`], appended to `line`.
pub fn push_csv_row<S: AsRef<str>>(line: &mut String, fields: &[S]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        let cell = spreadsheet_text(f.as_ref());
        let f: &str = &cell;
        // Bytes rather than a pattern of chars: the bundle writes a few hundred thousand fields.
        let special = f.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'));
        if special || f.starts_with(' ') || f.ends_with(' ') {
            line.push('"');
            line.push_str(&f.replace('"', "\"\""));
            line.push('"');
        } else {
            line.push_str(f);
        }
    }
    line.push('\n');
}

/// A YAML double-quoted scalar: always quoted, so that names such as `no`, `on`, `1e3` or
/// `null` stay strings in every YAML version; `\` and `"` are escaped, and control characters
/// and the characters YAML 1.1 reads as line breaks (NEL, U+2028, U+2029) written as `\uXXXX`
/// [YAML 1.2 §5.7], as are U+FFFE and U+FFFF, which YAML cannot hold as they are [§5.1].
pub fn yaml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_yaml_string(&mut out, s);
    out
}

/// [`yaml_string`], appended to `out`.
pub(crate) fn push_yaml_string(out: &mut String, s: &str) {
    out.push('"');
    // Device names need no escapes: copied whole.
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push_str(s);
        out.push('"');
        return;
    }
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control()
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FFFE}' | '\u{FFFF}') =>
            {
                out.push_str("\\u");
                push_hex(out, u64::from(c as u32), 4);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Splits `node-012` into (`node-`, `012`).
fn numbered(name: &str) -> (&str, &str) {
    let digits = name
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    name.split_at(name.len() - digits)
}

/// A Slurm hostlist expression of `names`, in their order: runs of the same prefix and digit
/// count become ranges that keep the zero padding (`node-[001-031,040]`)
/// [slurm.schedmd.com/topology.conf.html].
pub fn hostlist<S: AsRef<str>>(names: &[S]) -> String {
    // (prefix, digits, ranges) of each run of numbered names.
    type Group = (String, usize, Vec<(u64, u64)>);
    let mut groups: Vec<Group> = Vec::new();
    let mut plain: Vec<String> = Vec::new();
    let mut order: Vec<(bool, usize)> = Vec::new();
    for name in names {
        let name = name.as_ref();
        let (prefix, digits) = numbered(name);
        let Ok(n) = digits.parse::<u64>() else {
            order.push((false, plain.len()));
            plain.push(name.to_string());
            continue;
        };
        let width = digits.len();
        match groups
            .iter_mut()
            .find(|(p, w, _)| p == prefix && *w == width)
        {
            Some((_, _, ranges)) => match ranges.last_mut() {
                Some(last) if last.1 + 1 == n => last.1 = n,
                _ => ranges.push((n, n)),
            },
            None => {
                order.push((true, groups.len()));
                groups.push((prefix.to_string(), width, vec![(n, n)]));
            }
        }
    }
    let parts: Vec<String> = order
        .into_iter()
        .map(|(grouped, i)| {
            if !grouped {
                return plain[i].clone();
            }
            let (prefix, w, ranges) = &groups[i];
            if let [(a, b)] = ranges.as_slice() {
                if a == b {
                    return format!("{prefix}{a:0w$}", w = *w);
                }
            }
            let inner: Vec<String> = ranges
                .iter()
                .map(|(a, b)| {
                    if a == b {
                        format!("{a:0w$}", w = *w)
                    } else {
                        format!("{a:0w$}-{b:0w$}", w = *w)
                    }
                })
                .collect();
            format!("{prefix}[{}]", inner.join(","))
        })
        .collect();
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_row(&["a", "b,c", "d\"e"]), "a,\"b,c\",\"d\"\"e\"\n");
    }

    #[test]
    fn csv_cells_a_spreadsheet_would_run_stay_text() {
        assert_eq!(
            csv_row(&["=HYPERLINK(\"x\")", "-1", "@a", "plain"]),
            "\"'=HYPERLINK(\"\"x\"\")\",'-1,'@a,plain\n"
        );
    }

    #[test]
    fn a_cell_split_where_a_semicolon_list_separator_splits_it_stays_text() {
        assert_eq!(csv_row(&["x;=2+5;", "a; b"]), "x;'=2+5;,a; b\n");
        assert_eq!(spreadsheet_text("=1;@2;-3"), "'=1;'@2;'-3");
    }

    #[test]
    fn comments_are_one_line() {
        assert_eq!(comment("a\rusername evil\u{2028}b"), "a username evil b");
    }

    #[test]
    fn yaml_strings_are_double_quoted_and_escaped() {
        assert_eq!(yaml_string("no"), "\"no\"");
        assert_eq!(yaml_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(yaml_string("a\u{2028}b\u{85}"), "\"a\\u2028b\\u0085\"");
        assert_eq!(yaml_string("a\u{FFFF}"), "\"a\\uffff\"");
    }

    #[test]
    fn hostlists_keep_zero_padding_and_break_runs() {
        let names = ["node-001", "node-002", "node-003", "node-007", "ufm"];
        assert_eq!(hostlist(&names), "node-[001-003,007],ufm");
        assert_eq!(hostlist(&["leaf-01"]), "leaf-01");
        assert_eq!(hostlist(&["a1", "a2", "b-01"]), "a[1-2],b-01");
    }
}
