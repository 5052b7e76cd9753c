//! Whose conventions a run follows where cutechess-cli and fastchess differ from each other and
//! from Shannon's own: a match given in one tool's command-line form plays and writes as that
//! tool does (how bound scores are read, the PGN's `TimeControl` for an unlimited clock).

use crate::client::BoundScores;
use crate::client::{GoOrder, Pace, TimeControl};
use std::fmt;

/// A tool whose command line Shannon reads, and whose conventions such a run follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// cutechess-cli's.
    Cutechess,
    /// fastchess's.
    Fastchess,
}

impl Dialect {
    /// How a run in `dialect` (`None`: Shannon's own form) reads `lowerbound`/`upperbound`
    /// scores: fastchess passes over them when the move has an exact score; cutechess-cli takes
    /// them, and so does Shannon's own form (the rule its saved runs were played under).
    pub fn bound_scores(dialect: Option<Dialect>) -> BoundScores {
        match dialect {
            Some(Dialect::Fastchess) => BoundScores::Fallback,
            Some(Dialect::Cutechess) | None => BoundScores::Taken,
        }
    }

    /// How a run in `dialect` words UCI's `go`: a node or depth cap beside the time before it
    /// (fastchess) or after it (cutechess-cli and Shannon's own form), and a move without any
    /// limit as `go infinite` (cutechess-cli) or a bare `go` (Shannon's own form).
    pub fn go_order(dialect: Option<Dialect>) -> GoOrder {
        match dialect {
            Some(Dialect::Fastchess) => GoOrder::CapsFirst,
            Some(Dialect::Cutechess) => GoOrder::CapsLastInfinite,
            None => GoOrder::CapsLast,
        }
    }

    /// Whether a run in `dialect` tells the games an interrupt ended as it tells finished ones
    /// (cutechess-cli ends each with `*` and prints `Finished game N (...): * {No result}`, its
    /// `Score of` line and, at the end, `"No result"` among each player's outcomes; fastchess
    /// says nothing of them, and Shannon's own form counts them in its summary).
    pub fn tells_unfinished_games(dialect: Option<Dialect>) -> bool {
        dialect == Some(Dialect::Cutechess)
    }

    /// Whether a run in `dialect` writes the games an interrupt ended to its PGN, as `*`
    /// (cutechess-cli and Shannon's own form do; fastchess writes none of them).
    pub fn writes_unfinished_games(dialect: Option<Dialect>) -> bool {
        dialect != Some(Dialect::Fastchess)
    }

    /// The PGN's `TimeControl` tag for `time_control` in `dialect`, its pace alone (neither tool
    /// writes the caps there: `tc=10+0.1 nodes=5000` is `10+0.1`): cutechess-cli writes `inf`
    /// for no clock (its `tc=inf`), fastchess and Shannon `-` (the PGN standard's "no time
    /// control").
    pub fn time_control_tag(dialect: Option<Dialect>, time_control: &TimeControl) -> String {
        match (dialect, time_control.pace) {
            (Some(Dialect::Cutechess), Pace::Infinite) => "inf".to_string(),
            _ => time_control.to_string(),
        }
    }
}

impl Dialect {
    /// The PGN's time-control tags for a game whose White plays under `white` and Black under
    /// `black`: one `TimeControl` when they are the same, else `WhiteTimeControl` and
    /// `BlackTimeControl`, as cutechess-cli and fastchess write them. "The same" is each tool's:
    /// cutechess-cli compares the whole time control (a depth or node limit included, so depth
    /// 6 against depth 8 gives two tags, both `inf`); fastchess compares only the clock (so
    /// they give one `-`), and so does Shannon's own form (what the tags can show).
    pub fn time_control_tags(
        dialect: Option<Dialect>,
        white: &TimeControl,
        black: &TimeControl,
    ) -> Vec<(&'static str, String)> {
        let (white_tag, black_tag) = (
            Dialect::time_control_tag(dialect, white),
            Dialect::time_control_tag(dialect, black),
        );
        let same = match dialect {
            Some(Dialect::Cutechess) => white == black,
            Some(Dialect::Fastchess) | None => white_tag == black_tag,
        };
        match same {
            true => vec![("TimeControl", white_tag)],
            false => vec![
                ("WhiteTimeControl", white_tag),
                ("BlackTimeControl", black_tag),
            ],
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Cutechess => "cutechess-cli",
            Dialect::Fastchess => "fastchess",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_writes_an_unlimited_clock_its_way() {
        let tag = |dialect, tc: &str| Dialect::time_control_tag(dialect, &tc.parse().unwrap());
        assert_eq!(tag(Some(Dialect::Cutechess), "inf"), "inf");
        assert_eq!(tag(Some(Dialect::Cutechess), "nodes=3000"), "inf");
        assert_eq!(tag(Some(Dialect::Cutechess), "40/60+0.6"), "40/60+0.6");
        assert_eq!(tag(Some(Dialect::Fastchess), "inf"), "-");
        assert_eq!(tag(None, "inf"), "-");
        assert_eq!(tag(None, "10+0.1"), "10+0.1");
    }

    #[test]
    fn engines_under_different_limits_get_a_tag_each_as_each_tool_decides() {
        let tags = |dialect, white: &str, black: &str| {
            Dialect::time_control_tags(dialect, &white.parse().unwrap(), &black.parse().unwrap())
                .into_iter()
                .map(|(tag, value)| format!("{tag} {value}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for dialect in [None, Some(Dialect::Fastchess), Some(Dialect::Cutechess)] {
            assert_eq!(tags(dialect, "10+0.1", "10+0.1"), "TimeControl 10+0.1");
            assert_eq!(
                tags(dialect, "10+0.1", "5+0.05"),
                "WhiteTimeControl 10+0.1, BlackTimeControl 5+0.05"
            );
        }
        assert_eq!(
            tags(Some(Dialect::Cutechess), "depth=6", "depth=8"),
            "WhiteTimeControl inf, BlackTimeControl inf"
        );
        assert_eq!(
            tags(Some(Dialect::Fastchess), "depth=6", "depth=8"),
            "TimeControl -"
        );
        assert_eq!(tags(None, "depth=6", "nodes=100"), "TimeControl -");
    }

    #[test]
    fn dialects_are_saved_by_stable_names() {
        let text = serde_json::to_string(&[Dialect::Cutechess, Dialect::Fastchess]).unwrap();
        assert_eq!(text, r#"["cutechess","fastchess"]"#);
    }
}
