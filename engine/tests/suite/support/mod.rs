//! Helpers shared by the hand-off tests: a reader for the YAML subset the bundle writes (block
//! mappings and sequences, flow sequences of scalars, `{}`, double-quoted and plain scalars,
//! comments, `---` documents) into JSON values, so that tests check structure, not text; a
//! Slurm hostlist expander and a CSV reader; and the examples the tests read, evaluated.
#![allow(dead_code)]

use serde_json::{Map, Number, Value};

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Splits `key: value` (the key may be quoted); `None` when the line is not a mapping entry.
fn key_value(s: &str) -> Option<(String, &str)> {
    if let Some(rest) = s.strip_prefix('"') {
        let end = closing_quote(rest)?;
        let key = unquote(&s[..end + 2]);
        let after = &rest[end + 1..];
        let value = after.strip_prefix(':')?;
        return Some((key, value.trim()));
    }
    let at = s
        .find(": ")
        .or_else(|| s.strip_suffix(':').map(|k| k.len()))?;
    Some((s[..at].to_string(), s[at + 1..].trim()))
}

fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

fn unquote(s: &str) -> String {
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            Some(c) => out.push(c),
            None => panic!("dangling escape in {s}"),
        }
    }
    out
}

fn scalar(s: &str) -> Value {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('"') {
        assert!(
            s.ends_with('"') && closing_quote(inner) == Some(s.len() - 2),
            "bad quoting: {s}"
        );
        return Value::String(unquote(s));
    }
    if s == "{}" {
        return Value::Object(Map::new());
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let mut items = Vec::new();
        let mut rest = inner.trim();
        while !rest.is_empty() {
            let end = if let Some(inner) = rest.strip_prefix('"') {
                closing_quote(inner).unwrap() + 2
            } else {
                rest.find(',').unwrap_or(rest.len())
            };
            items.push(scalar(&rest[..end]));
            rest = rest[end..]
                .trim_start()
                .trim_start_matches(',')
                .trim_start();
        }
        return Value::Array(items);
    }
    match s {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        "null" | "~" | "" => return Value::Null,
        _ => {}
    }
    if let Ok(n) = s.parse::<i64>() {
        return Value::Number(n.into());
    }
    if let Some(n) = s.parse::<f64>().ok().and_then(Number::from_f64) {
        return Value::Number(n);
    }
    assert!(
        !s.contains(": ") && !s.starts_with(['&', '*', '!', '|', '>', '\'']),
        "unsupported: {s}"
    );
    Value::String(s.to_string())
}

fn block(lines: &mut Vec<String>, i: &mut usize, at: usize) -> Value {
    let first = lines[*i].clone();
    if first[at..].starts_with("- ") {
        let mut items = Vec::new();
        while *i < lines.len() && indent(&lines[*i]) == at && lines[*i][at..].starts_with("- ") {
            let rest = lines[*i][at + 2..].to_string();
            if key_value(&rest).is_some() {
                // "- key: value": a mapping two columns in.
                lines[*i] = format!("{}  {rest}", " ".repeat(at));
                items.push(block(lines, i, at + 2));
            } else {
                items.push(scalar(&rest));
                *i += 1;
            }
        }
        return Value::Array(items);
    }
    let mut map = Map::new();
    while *i < lines.len() && indent(&lines[*i]) == at {
        let line = lines[*i].clone();
        let (key, value) =
            key_value(&line[at..]).unwrap_or_else(|| panic!("not a mapping entry: {line:?}"));
        *i += 1;
        let v = if value.is_empty() {
            if *i < lines.len() && indent(&lines[*i]) > at {
                let deeper = indent(&lines[*i]);
                block(lines, i, deeper)
            } else if *i < lines.len()
                && indent(&lines[*i]) == at
                && lines[*i][at..].starts_with("- ")
            {
                block(lines, i, at)
            } else {
                Value::Null
            }
        } else {
            scalar(value)
        };
        assert!(map.insert(key.clone(), v).is_none(), "duplicate key {key}");
    }
    Value::Object(map)
}

/// The documents of a YAML text.
pub fn yaml_documents(text: &str) -> Vec<Value> {
    let mut docs = Vec::new();
    for doc in text
        .split("\n---\n")
        .flat_map(|d| d.strip_prefix("---\n").or(Some(d)))
    {
        let mut lines: Vec<String> = doc
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#') && *l != "---")
            .map(str::to_string)
            .collect();
        if lines.is_empty() {
            continue;
        }
        assert!(lines.iter().all(|l| !l.contains('\t')), "tabs in YAML");
        let mut i = 0;
        let value = block(&mut lines, &mut i, 0);
        assert_eq!(i, lines.len(), "unparsed YAML from line {:?}", lines.get(i));
        docs.push(value);
    }
    docs
}

pub fn yaml(text: &str) -> Value {
    let mut docs = yaml_documents(text);
    assert_eq!(docs.len(), 1, "one YAML document expected");
    docs.remove(0)
}

/// Expands a Slurm hostlist (`node-[001-003,007],ufm`).
pub fn expand_hostlist(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = list;
    while !rest.is_empty() {
        let (item, tail) = match rest.find(['[', ',']) {
            Some(at) if rest.as_bytes()[at] == b'[' => {
                let close = rest.find(']').unwrap();
                (&rest[..=close], rest[close + 1..].trim_start_matches(','))
            }
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, ""),
        };
        if let Some((prefix, ranges)) = item.split_once('[') {
            for range in ranges.trim_end_matches(']').split(',') {
                let (a, b) = range.split_once('-').unwrap_or((range, range));
                let width = a.len();
                for n in a.parse::<u64>().unwrap()..=b.parse::<u64>().unwrap() {
                    out.push(format!("{prefix}{n:0width$}"));
                }
            }
        } else {
            out.push(item.to_string());
        }
        rest = tail;
    }
    out
}

/// Rows of an RFC 4180 CSV text (quoted fields may hold commas and doubled quotes).
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', false) if field.is_empty() => quoted = true,
                ('"', true) if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                ('"', true) => quoted = false,
                (',', false) => fields.push(std::mem::take(&mut field)),
                (c, _) => field.push(c),
            }
        }
        assert!(!quoted, "unclosed quote in {line:?}");
        fields.push(field);
        rows.push(fields);
    }
    rows
}

/// The examples the hand-off tests read: the 4-SU SuperPOD and the hybrid design.
pub const EXAMPLES: [&str; 2] = [engine::examples::SUPERPOD_4SU, engine::examples::HYBRID];

/// An example read and evaluated.
pub fn design(example: &str) -> (engine::DesignSpec, engine::Report) {
    let spec = engine::DesignSpec::from_json(example).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    (spec, report)
}

/// An example whose Ethernet fabrics are built of Arista switches (a Tomahawk 5 the catalog
/// configures as EOS) rather than NVIDIA Spectrum ones, read and evaluated.
pub fn on_arista(example: &str) -> (engine::DesignSpec, engine::Report) {
    let mut value: serde_json::Value = serde_json::from_str(example).unwrap();
    arista_switches(&mut value);
    let spec = engine::DesignSpec::from_value(value).unwrap();
    let report = engine::evaluate(&spec).unwrap();
    (spec, report)
}

/// Puts every Ethernet fabric of a spec's JSON on Tomahawk 5 switches, configured as Arista EOS.
pub fn arista_switches(value: &mut serde_json::Value) {
    for fabric in value["fabrics"].as_array_mut().unwrap() {
        let technology = fabric["technology"].as_str().unwrap_or_default();
        if !technology.starts_with("ib_") {
            fabric["switch"] = "tomahawk5".into();
        }
    }
}

/// The cables of `fabric` on the sheet of `report`.
pub fn cable_count(report: &engine::Report, fabric: &str) -> usize {
    let (fabrics, _) = engine::handoff::planned(report);
    fabrics
        .iter()
        .find(|f| f.fabric.name == fabric)
        .unwrap()
        .cable_count()
}

pub fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}
