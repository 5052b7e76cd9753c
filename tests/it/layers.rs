//! The command line's room (`src/cli/`): `mod.rs` only dispatches, and a subcommand file takes
//! what it shares with the others from `cli/prelude.rs` or a sibling module, never from the
//! dispatcher above it (issue 33: 18 such imports ran back up before the prelude).

use std::path::Path;

/// The modules `mod.rs` declares (`mod x;`, `pub mod x;`).
fn declared_modules(mod_rs: &str) -> Vec<String> {
    mod_rs
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            let name = rest.strip_suffix(';')?;
            Some(name.trim_start_matches("r#").to_string())
        })
        .collect()
}

/// Each `super::NAME` in `code` (up to its tests), NAME's first path segment.
fn super_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let mut rest = line;
        while let Some(at) = rest.find("super::") {
            rest = &rest[at + "super::".len()..];
            let name: String = rest
                .trim_start_matches("r#")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '{')
                .collect();
            found.push((n + 1, name));
        }
    }
    found
}

#[test]
fn the_subcommand_files_import_nothing_from_the_dispatcher() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let modules = declared_modules(&std::fs::read_to_string(cli.join("mod.rs")).unwrap());
    assert!(modules.iter().any(|m| m == "prelude"), "{modules:?}");
    let mut offenders = Vec::new();
    for entry in std::fs::read_dir(&cli).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("mod.rs") {
            continue;
        }
        let code = std::fs::read_to_string(&path).unwrap();
        for (line, name) in super_paths(&code) {
            // `super::{a, b}` names several: each must be a module.
            if name.starts_with('{') || !modules.contains(&name) {
                offenders.push(format!("{}:{line}: super::{name}", path.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a subcommand file takes these from cli/mod.rs (move them to cli/prelude.rs or a \
         module of their own): {offenders:#?}"
    );
}

#[test]
fn the_check_sees_an_import_from_the_dispatcher() {
    let modules = declared_modules("mod prelude;\npub mod generate;\nmod r#match;\n");
    assert_eq!(modules, ["prelude", "generate", "match"]);
    let code = "use super::prelude::CliError;\nuse super::CliError;\nfn f() { super::r#match::run() }\n#[cfg(test)]\nmod tests { use super::*; }\n";
    let paths = super_paths(code);
    assert_eq!(
        paths,
        [
            (1, "prelude".to_string()),
            (2, "CliError".to_string()),
            (3, "match".to_string())
        ]
    );
    let upward: Vec<_> = paths.iter().filter(|(_, n)| !modules.contains(n)).collect();
    assert_eq!(upward, [&(2, "CliError".to_string())]);
}
