//! The options an engine declares in its `uci` answer (`option name Hash type spin default 16
//! min 1 max 33554432`), read as cutechess-cli and fastchess read them, and what a configured
//! option is worth against them ([`OptionProblem`]): an option the engine does not declare, or
//! a value its declaration does not allow, is not sent, and the runner says so.

use std::fmt;

/// What one declared option accepts.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check,
    /// A number within `min..=max` (fastchess also reads spins with decimal bounds).
    Spin {
        /// The smallest value.
        min: f64,
        /// The largest value.
        max: f64,
    },
    /// One of its `var`s.
    Combo(Vec<String>),
    /// Pressed by `true`.
    Button,
    /// Any text.
    String,
}

/// One `option` line of an engine's `uci` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclaredOption {
    /// Its name as the engine spells it.
    pub name: String,
    /// What it accepts.
    pub kind: OptionKind,
    /// Its declared default, as written (`None`: it declares none).
    pub default: Option<String>,
}

impl DeclaredOption {
    /// Read an `option name <id> type <t> [default x] [min x] [max x] [var x]*` line; `None`
    /// for another line, or an option of no known type (it accepts nothing then, as in both
    /// tools).
    pub fn parse(line: &str) -> Option<DeclaredOption> {
        let rest = line.strip_prefix("option ")?;
        const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
        let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
        for word in rest.split_whitespace() {
            match fields.last_mut() {
                // A name runs to `type`; every other value is one word or runs to a keyword.
                Some((key, words)) if *key == "name" && word != "type" => words.push(word),
                _ if KEYWORDS.contains(&word) => fields.push((word, Vec::new())),
                Some((_, words)) => words.push(word),
                None => return None,
            }
        }
        let one = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, words)| words.join(" "))
        };
        let name = one("name").filter(|name| !name.is_empty())?;
        let number = |key: &str| one(key).and_then(|text| text.parse::<f64>().ok());
        let kind = match one("type")?.as_str() {
            "check" => OptionKind::Check,
            "spin" => OptionKind::Spin {
                min: number("min")?,
                max: number("max")?,
            },
            "combo" => OptionKind::Combo(
                fields
                    .iter()
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, words)| words.join(" "))
                    .collect(),
            ),
            "button" => OptionKind::Button,
            "string" => OptionKind::String,
            _ => return None,
        };
        Some(DeclaredOption {
            name,
            kind,
            default: one("default"),
        })
    }

    /// True when `value` is one this option accepts (fastchess's `isValid`).
    pub fn accepts(&self, value: &str) -> bool {
        match &self.kind {
            OptionKind::Check => value == "true" || value == "false",
            OptionKind::Spin { min, max } => value
                .trim()
                .parse::<f64>()
                .is_ok_and(|v| *min <= v && v <= *max),
            OptionKind::Combo(vars) => vars.iter().any(|var| var == value),
            OptionKind::Button => value == "true",
            OptionKind::String => true,
        }
    }
}

/// A declared option and the value it holds: the last one sent, else its declared default.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionSetting {
    /// The option, as declared.
    pub option: DeclaredOption,
    /// The value it holds (`None`: never sent and no default declared).
    pub value: Option<String>,
}

/// A configured option the runner did not send, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionProblem {
    /// The engine declares no option of this name (compared without case, as UCI says).
    Missing {
        /// The option, as configured.
        name: String,
    },
    /// The engine's declaration does not allow the value.
    Invalid {
        /// The option, as configured.
        name: String,
        /// The value.
        value: String,
    },
}

impl fmt::Display for OptionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionProblem::Missing { name } => write!(f, "the engine has no option {name}"),
            OptionProblem::Invalid { name, value } => {
                write!(
                    f,
                    "the engine's option {name} does not take the value {value}"
                )
            }
        }
    }
}

/// The option of `declared` named `name` (without case), and whether it takes `value`.
pub fn check_option(
    declared: &[DeclaredOption],
    name: &str,
    value: &str,
) -> Result<String, OptionProblem> {
    let option = declared
        .iter()
        .find(|option| option.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionProblem::Missing { name: name.into() })?;
    if !option.accepts(value) {
        return Err(OptionProblem::Invalid {
            name: name.into(),
            value: value.into(),
        });
    }
    Ok(option.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Vec<DeclaredOption> {
        [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name UCI_Chess960 type check default false",
            "option name Style type combo default Normal var Solid var Normal var Risky",
            "option name Clear Hash type button",
            "option name Debug Log File type string default <empty>",
            "option name Skill type spin default 0.5 min 0 max 1.5",
        ]
        .iter()
        .map(|line| DeclaredOption::parse(line).unwrap())
        .collect()
    }

    #[test]
    fn options_are_read_with_their_bounds() {
        let options = declared();
        assert_eq!(options[3].name, "Clear Hash");
        assert_eq!(
            options[0].kind,
            OptionKind::Spin {
                min: 1.0,
                max: 33554432.0
            }
        );
        assert_eq!(
            options[2].kind,
            OptionKind::Combo(vec!["Solid".into(), "Normal".into(), "Risky".into()])
        );
        assert_eq!(options[4].name, "Debug Log File");
        assert_eq!(options[0].default.as_deref(), Some("16"));
        assert_eq!(options[4].default.as_deref(), Some("<empty>"));
        assert_eq!(options[3].default, None);
        assert!(DeclaredOption::parse("id name x").is_none());
        assert!(DeclaredOption::parse("option name X type number default 1").is_none());
    }

    #[test]
    fn values_are_checked_as_fastchess_checks_them() {
        let options = declared();
        assert_eq!(check_option(&options, "hash", "64"), Ok("Hash".into()));
        assert_eq!(
            check_option(&options, "Hash", "-16"),
            Err(OptionProblem::Invalid {
                name: "Hash".into(),
                value: "-16".into()
            })
        );
        assert!(check_option(&options, "Hash", "lots").is_err());
        assert_eq!(
            check_option(&options, "Threads", "2"),
            Err(OptionProblem::Missing {
                name: "Threads".into()
            })
        );
        assert!(check_option(&options, "UCI_Chess960", "true").is_ok());
        assert!(check_option(&options, "UCI_Chess960", "yes").is_err());
        assert!(check_option(&options, "Style", "Risky").is_ok());
        assert!(check_option(&options, "Style", "Wild").is_err());
        assert!(check_option(&options, "Clear Hash", "true").is_ok());
        assert!(check_option(&options, "Skill", "1.25").is_ok());
        assert!(check_option(&options, "Debug Log File", "a b.txt").is_ok());
    }
}
