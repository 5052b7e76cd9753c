//! The words of a cutechess-cli/fastchess command line grouped into options: an option is a word
//! of a dash and a name; its values are the words up to the next option (a word starting with
//! a dash and a digit, or a dot, is a negative number, a value: both tools read it so).

use super::error::CompatError;

/// One option and the words after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Opt {
    /// As written: `-engine`.
    pub name: String,
    /// Its values.
    pub values: Vec<String>,
}

/// True for a word that starts an option.
pub fn is_option(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('-')
        && chars
            .next()
            .is_some_and(|c| !c.is_ascii_digit() && c != '.')
}

/// The options of `args` (the words after `match`), in order.
pub fn options(args: &[String]) -> Result<Vec<Opt>, CompatError> {
    let mut options: Vec<Opt> = Vec::new();
    for word in args {
        if is_option(word) {
            let name = match word.as_str() {
                "--help" => "-help".to_string(),
                "--version" | "-v" | "--v" => "-version".to_string(),
                "--compliance" => {
                    return Err(CompatError::refused(
                        "--compliance",
                        "it comes first, alone with its engine, as fastchess reads it: \
                         --compliance ENGINE [\"ARGS\"]",
                    ))
                }
                long if long.starts_with("--") => {
                    return Err(CompatError::MixedForms(long.to_string()))
                }
                name => name.to_string(),
            };
            options.push(Opt {
                name,
                values: Vec::new(),
            });
        } else {
            match options.last_mut() {
                Some(option) => option.values.push(word.clone()),
                None => {
                    return Err(CompatError::Missing {
                        option: word.clone(),
                        expected: "an option before it".into(),
                    })
                }
            }
        }
    }
    Ok(options)
}

/// `key=value` words as pairs; a word without `=` is an error naming `option`.
pub fn pairs(option: &str, values: &[String]) -> Result<Vec<(String, String)>, CompatError> {
    if values.is_empty() {
        return Err(CompatError::Missing {
            option: option.to_string(),
            expected: "key=value settings".into(),
        });
    }
    values
        .iter()
        .map(|word| match word.split_once('=') {
            Some((key, value)) if !key.is_empty() && !value.is_empty() => {
                Ok((key.to_string(), value.to_string()))
            }
            _ => Err(CompatError::malformed(option, word, "key=value")),
        })
        .collect()
}

/// The one value of `option`.
pub fn single<'a>(option: &str, values: &'a [String]) -> Result<&'a str, CompatError> {
    match values {
        [value] => Ok(value),
        [] => Err(CompatError::Missing {
            option: option.to_string(),
            expected: "a value".into(),
        }),
        [_, extra, ..] => Err(CompatError::malformed(
            option,
            extra,
            "expected (one value)",
        )),
    }
}

/// A number of `option`, from `word`.
pub fn number<T: std::str::FromStr>(option: &str, word: &str) -> Result<T, CompatError> {
    word.parse()
        .map_err(|_| CompatError::malformed(option, word, "a number"))
}

/// `true` or `false`.
pub fn boolean(option: &str, word: &str) -> Result<bool, CompatError> {
    match word {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(CompatError::malformed(option, word, "true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_take_the_words_up_to_the_next_option() {
        let got = options(&words(
            "-engine cmd=a name=b -maxmoves 10 -recover -draw score=-5",
        ))
        .unwrap();
        let names: Vec<&str> = got.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["-engine", "-maxmoves", "-recover", "-draw"]);
        assert_eq!(got[0].values, ["cmd=a", "name=b"]);
        assert!(got[2].values.is_empty());
        let negative = options(&words("-sprt elo0 -5 -wait 0")).unwrap();
        assert_eq!(negative[0].values, ["elo0", "-5"]);
        assert_eq!(
            options(&words("-rounds 2 --games 4")).unwrap_err(),
            CompatError::MixedForms("--games".into())
        );
        assert!(matches!(
            pairs("-draw", &words("movenumber=40 movecount")),
            Err(CompatError::Malformed { .. })
        ));
    }
}
