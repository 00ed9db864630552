//! Text an operator pastes from a tool (nccl-tests, `ibnetdiscover`, LLDP tables): the guards
//! every reader of it applies before parsing. Truncated, foreign, binary or oversized input is
//! refused with the line at fault.

use crate::error::{parse_error as error, ParseError};

/// How much a reader accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_bytes: usize,
    pub max_line_chars: usize,
}

/// The input as text, or why not: too large, not UTF-8 (naming the line), NUL bytes.
pub(crate) fn text<'a>(input: &'a [u8], what: &str, limits: Limits) -> Result<&'a str, ParseError> {
    let Limits {
        max_bytes,
        max_line_chars,
    } = limits;
    if input.len() > max_bytes {
        return Err(error(
            0,
            format!(
                "the input is {} bytes; at most {max_bytes} bytes of {what} are read",
                input.len()
            ),
        ));
    }
    let text = std::str::from_utf8(input).map_err(|e| {
        let line = input[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        error(line, "is not text (binary data or an unknown encoding)")
    })?;
    // NUL bytes and overlong lines, with their line numbers, whichever comes first. This reads
    // megabytes of fabric dumps, so neither is looked for line by line: the NUL by the standard
    // library's word-at-a-time search, long lines by jumping from each line to the last line
    // break within the next max_line_chars + 1 bytes. Only where there is none can a line be
    // too long, and only that line is measured.
    let nul = text.find('\0');
    let line_of = |at: usize| input[..at].iter().filter(|b| **b == b'\n').count() + 1;
    let mut start = 0;
    while start + max_line_chars < input.len() && nul.is_none_or(|at| start <= at) {
        let window = &input[start..=start + max_line_chars];
        if let Some(last) = window.iter().rposition(|b| *b == b'\n') {
            start += last + 1;
            continue;
        }
        let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
        if nul.is_some_and(|at| at < end) {
            break;
        }
        long_line(&text[start..end], line_of(start), what, max_line_chars)?;
        start = end + 1;
    }
    if let Some(at) = nul {
        return Err(error(line_of(at), "is not text (it holds NUL bytes)"));
    }
    Ok(text)
}

/// The lines of `text` as `str::lines` gives them (without `\n` or `\r\n`), each line break
/// found eight bytes at a time: a dump has a hundred thousand lines of a few dozen bytes, too
/// short for the standard library's general search to pay off.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    let line_end = move |from: usize| -> usize {
        let mut at = from;
        while let Some(chunk) = bytes.get(at..at + 8) {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            // A `\n` becomes a zero byte, whose high bit the subtraction sets; bytes after
            // the first zero may be set too, never bytes before it.
            let word = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\n'));
            let zero = word.wrapping_sub(ONES) & !word & HIGHS;
            if zero != 0 {
                return at + (zero.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        bytes[at..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| at + i)
    };
    let mut next = 0;
    std::iter::from_fn(move || {
        if next >= text.len() {
            return None;
        }
        let start = next;
        let end = line_end(start);
        next = end + 1;
        let line = &text[start..end];
        // As `str::lines`: a `\r` is part of the line break only before a `\n`.
        Some(if end < text.len() {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line
        })
    })
}

fn long_line(raw: &str, line: usize, what: &str, max_chars: usize) -> Result<(), ParseError> {
    if raw.len() > max_chars && raw.chars().count() > max_chars {
        return Err(error(
            line,
            format!("is longer than {max_chars} characters: not {what}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_those_of_str_lines() {
        let mut texts: Vec<String> = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\r\n",
            "a\r",
            "\r",
            "\r\n\r\n",
            "a\rb\n",
            "é\nü\r\nñ",
            "12345678\n",
            "1234567\n",
            "123456789\n",
            "1234567\r\n",
            "12345678",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every placement of line breaks among eight-byte words.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 40) as usize;
            let text: String = (0..len)
                .map(|i| match (x >> (i % 60)) % 7 {
                    0 => '\n',
                    1 => '\r',
                    2 => 'é',
                    _ => 'x',
                })
                .collect();
            texts.push(text);
        }
        for text in &texts {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }
}
