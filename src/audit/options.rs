//! The `option` lines of an engine's `uci` answer, checked against the UCI specification:
//! `option name <id> type <check|spin|combo|button|string> [default <x>] [min <x>] [max <x>]
//! [var <x>]*`, a check's default `true` or `false`, a spin's default a whole number within
//! `min..=max`, a combo's default one of its `var`s, a string's default present (`<empty>` for
//! none).

/// What is wrong with one option line, or `None` when it is well-formed.
pub fn option_problem(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.first() != Some(&"name") {
        return Some("it does not start with `option name`".into());
    }
    const KEYWORDS: [&str; 6] = ["type", "default", "min", "max", "var", "name"];
    // Each keyword's value runs to the next keyword (names and strings may hold spaces).
    let mut fields: Vec<(&str, String)> = Vec::new();
    for word in words {
        if KEYWORDS.contains(&word) {
            fields.push((word, String::new()));
        } else if let Some((_, value)) = fields.last_mut() {
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(word);
        }
    }
    let one = |key: &str| -> Option<&str> {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    };
    if one("name").is_none_or(str::is_empty) {
        return Some("it has no name".into());
    }
    let Some(kind) = one("type") else {
        return Some("it has no `type`".into());
    };
    let default = one("default");
    match kind {
        "check" => match default {
            Some("true" | "false") => None,
            Some(other) => Some(format!("a check's default is true or false, not '{other}'")),
            None => Some("a check has no default".into()),
        },
        "spin" => {
            let number = |key: &str| -> Result<i64, String> {
                let text = one(key).ok_or_else(|| format!("a spin has no {key}"))?;
                text.parse()
                    .map_err(|_| format!("a spin's {key} '{text}' is not a whole number"))
            };
            let values = (number("default"), number("min"), number("max"));
            match values {
                (Ok(d), Ok(min), Ok(max)) if min <= d && d <= max => None,
                (Ok(d), Ok(min), Ok(max)) => Some(format!(
                    "a spin's default {d} is outside min {min} .. max {max}"
                )),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Some(e),
            }
        }
        "combo" => {
            let vars: Vec<&str> = fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.as_str())
                .collect();
            match default {
                _ if vars.is_empty() => Some("a combo has no var".into()),
                Some(d) if vars.contains(&d) => None,
                Some(d) => Some(format!(
                    "a combo's default '{d}' is not among its vars ({})",
                    vars.join(", ")
                )),
                None => Some("a combo has no default".into()),
            }
        }
        "button" => None,
        "string" if default.is_some() => None,
        "string" => Some("a string has no default (write `default <empty>` for none)".into()),
        other => Some(format!(
            "unknown type '{other}' (check, spin, combo, button, string)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_options_pass() {
        for line in [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name UCI_Chess960 type check default false",
            "option name Style type combo default Normal var Solid var Normal var Risky",
            "option name Clear Hash type button",
            "option name Debug Log File type string default <empty>",
            "option name SyzygyPath type string default",
            "option name Move Generator type combo default bitboard var bitboard var 0x88",
        ] {
            assert_eq!(option_problem(line), None, "{line}");
        }
    }

    #[test]
    fn malformed_options_are_named() {
        let cases = [
            (
                "option name Hash type spin default 4096 min 1 max 1024",
                "outside",
            ),
            (
                "option name Style type combo default Wild var Solid var Normal",
                "not among",
            ),
            ("option name Threads type number default 1", "unknown type"),
            ("option name Ponder type check default yes", "true or false"),
            (
                "option name Hash type spin default x min 1 max 2",
                "whole number",
            ),
            ("option name X type combo default A", "no var"),
            ("option name Path type string", "no default"),
            ("option type check default true", "option name"),
            ("option name Y default 1", "no `type`"),
        ];
        for (line, why) in cases {
            let problem = option_problem(line).unwrap_or_else(|| panic!("{line} passed"));
            assert!(problem.contains(why), "{line}: {problem}");
        }
    }
}
