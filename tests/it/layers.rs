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

// ---------------------------------------------------------------------------------------------
// The whole house: the ladder of rooms, and no files importing each other round.
// ---------------------------------------------------------------------------------------------

/// The rooms of `src/` from the ground up, written once: a room imports only from rooms on lower
/// rungs (never from one on its own rung or above). The rules core first (what `cargo build
/// --no-default-features` builds), then the engine and the programs on it; `bin` is the
/// command line (`main.rs`, `cli/`, `bin/`) over the whole library. docs/architecture.md
/// points here: a new room must say where it stands.
pub const LADDER: &[&[&str]] = &[
    &["types"],
    &["attacks", "stats", "jobs"],
    &["position"],
    &["movegen"],
    &["game", "tablebase", "perft"],
    &["notation"],
    &["codec", "uci", "client", "experiment"],
    &["arena", "audit"],
    &["bin"],
];

/// The one circle allowed: the perft counting path's instruction tiers, deliberately
/// monomorphised over each other (each tier's functions call the others' for their
/// instruction set).
const ALLOWED_CIRCLE: &[&str] = &[
    "perft/fast/hashed.rs",
    "perft/fast/listed.rs",
    "perft/fast/playout.rs",
    "perft/fast/tier.rs",
];

/// One source file: its path under `src/`, its room, its module path and its code up to its
/// tests, without comments.
struct SourceFile {
    path: String,
    room: String,
    module: Vec<String>,
    code: String,
    /// The whole file's lines, its tests and comments included.
    lines: usize,
}

fn source_files() -> Vec<SourceFile> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "lib.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            files.push(SourceFile {
                room: room_of(&rel),
                module: module_of(&rel),
                code: without_tests_and_comments(&text),
                lines: text.lines().count(),
                path: rel,
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// `arena/state/mod.rs` is in room `arena`; the command line's files are in `bin`.
fn room_of(rel: &str) -> String {
    let first = rel.split('/').next().unwrap().trim_end_matches(".rs");
    match first {
        "main" | "cli" | "bin" => "bin".to_string(),
        room => room.to_string(),
    }
}

/// `arena/state/mod.rs` is module `arena::state`, `arena/runner.rs` is `arena::runner`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "main") {
        parts.pop();
    }
    parts
}

/// The code before the first `#[cfg(test)]`, comments removed (doc links name rooms too).
fn without_tests_and_comments(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            code.push('\n');
            continue;
        }
        let mut line = match line.find(" // ") {
            Some(at) if !line[..at].contains('"') => line[..at].to_string(),
            _ => line.to_string(),
        };
        // `pub(in crate::a::b)` names a module the item is visible in: no import.
        while let Some(at) = line.find("pub(in ") {
            let end = line[at..].find(')').map_or(line.len(), |e| at + e + 1);
            line.replace_range(at..end, "pub");
        }
        code.push_str(&line);
        code.push('\n');
    }
    code
}

/// The paths a use tree names: `a::{b, c::{d, e as f}}` is `a::b`, `a::c::d`, `a::c::e`.
fn use_tree_paths(tree: &str) -> Vec<Vec<String>> {
    // A `use` at the start of a line inside a string literal is no use tree.
    let valid = tree
        .chars()
        .all(|c| c.is_alphanumeric() || "_:{},* \n\r\t".contains(c));
    if !valid || tree.matches('{').count() != tree.matches('}').count() {
        return Vec::new();
    }
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut paths = Vec::new();
    expand(tree.trim(), &mut Vec::new(), &mut paths);
    paths
}

fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    match tree.find('{') {
        Some(open) => {
            let head = tree[..open].trim_end_matches(':').trim_end_matches(':');
            let depth = prefix.len();
            prefix.extend(
                head.split("::")
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| s.trim().to_string()),
            );
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut level = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => level += 1,
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        expand(&inner[start..i], prefix, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], prefix, out);
            prefix.truncate(depth);
        }
        None => {
            let tree = tree.split(" as ").next().unwrap().trim();
            let mut path = prefix.clone();
            path.extend(
                tree.split("::")
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty() && s != "*" && s != "self"),
            );
            out.push(path);
        }
    }
}

/// Every path a file names, with its line and whether it only hands the name on (a `pub use`,
/// which is no import of the file's own): its `use` trees, and `crate::`, `super::`, `self::`
/// (and, in the command line, `shannon::`) paths written in its code.
fn named_paths(file: &SourceFile) -> Vec<(usize, Vec<String>, bool)> {
    let uses = regex::Regex::new(r"(?m)^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);").unwrap();
    let inline =
        regex::Regex::new(r"\b(?:crate|super|self|shannon)(?:::[A-Za-z_][A-Za-z0-9_]*)+").unwrap();
    let line_of = |at: usize| file.code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut in_uses = Vec::new();
    for m in uses.captures_iter(&file.code) {
        let whole = m.get(2).unwrap();
        in_uses.push(m.get(0).unwrap().range());
        let hands_on = m.get(1).is_some();
        for path in use_tree_paths(whole.as_str()) {
            found.push((line_of(whole.start()), path, hands_on));
        }
    }
    for m in inline.find_iter(&file.code) {
        if in_uses.iter().any(|r| r.contains(&m.start())) {
            continue;
        }
        let path = m.as_str().split("::").map(str::to_string).collect();
        found.push((line_of(m.start()), path, false));
    }
    found
}

/// The names the crate root re-exports, and the room each comes from.
fn root_names() -> std::collections::BTreeMap<String, String> {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let code = without_tests_and_comments(&lib);
    let uses = regex::Regex::new(r"(?m)^\s*pub use\s+([^;]+);").unwrap();
    let mut names = std::collections::BTreeMap::new();
    for m in uses.captures_iter(&code) {
        for path in use_tree_paths(&m[1]) {
            if let (Some(room), Some(name)) = (path.first(), path.last()) {
                names.insert(name.clone(), room.clone());
            }
        }
    }
    names
}

/// The house's files and the names each hands on (`pub use`), for resolving paths.
struct House<'a> {
    files: &'a [SourceFile],
    modules: std::collections::BTreeSet<String>,
    roots: std::collections::BTreeMap<String, String>,
    /// (file, name handed on) -> the path it names, as written in that file.
    handed_on: std::collections::BTreeMap<(String, String), Vec<String>>,
}

impl House<'_> {
    fn of(files: &[SourceFile]) -> House<'_> {
        let mut handed_on = std::collections::BTreeMap::new();
        for file in files {
            for (_, path, hands_on) in named_paths(file) {
                if let (true, Some(name)) = (hands_on, path.last()) {
                    handed_on.insert((file.path.clone(), name.clone()), path.clone());
                }
            }
        }
        House {
            files,
            modules: files.iter().map(|f| f.path.clone()).collect(),
            roots: root_names(),
            handed_on,
        }
    }

    /// What a path written in `file` names: a file of the house (`Some(path)`), or only a room
    /// (a name the crate root re-exports), with the room. A name that a file only hands on is
    /// followed to the file it comes from.
    fn resolve(&self, file: &SourceFile, path: &[String]) -> Option<(String, Option<String>)> {
        self.resolve_from(&file.module, path, 0)
    }

    fn resolve_from(
        &self,
        module: &[String],
        path: &[String],
        depth: usize,
    ) -> Option<(String, Option<String>)> {
        let mut absolute: Vec<String> = match path.first().map(String::as_str) {
            Some("crate") | Some("shannon") => Vec::new(),
            Some("std") | Some("core") | Some("alloc") | None => return None,
            Some(_) => module.to_vec(),
        };
        let mut rest = path;
        if rest
            .first()
            .is_some_and(|s| s == "crate" || s == "shannon" || s == "self")
        {
            rest = &rest[1..];
        }
        while rest.first().is_some_and(|s| s == "super") {
            absolute.pop();
            rest = &rest[1..];
        }
        let relative_child = !matches!(
            path.first().map(String::as_str),
            Some("crate" | "shannon" | "self" | "super")
        );
        absolute.extend(rest.iter().cloned());
        // The longest prefix that is a module file of the house.
        for len in (1..=absolute.len()).rev() {
            let module_path = absolute[..len].join("/");
            for candidate in [format!("{module_path}.rs"), format!("{module_path}/mod.rs")] {
                if !self.modules.contains(&candidate) {
                    continue;
                }
                // A name the file only hands on: where it comes from.
                if let Some(name) = absolute.get(len) {
                    if let Some(source) = self.handed_on.get(&(candidate.clone(), name.clone())) {
                        if depth < 8 {
                            let from = module_of(&candidate);
                            if let Some(found) = self.resolve_from(&from, source, depth + 1) {
                                return Some(found);
                            }
                        }
                    }
                }
                return Some((room_of(&candidate), Some(candidate)));
            }
        }
        if relative_child {
            // An outside crate (`serde::`, `rand::`), or a name in scope.
            return None;
        }
        let first = absolute.first()?;
        self.roots
            .get(first)
            .map(|room| (room_of(&format!("{room}.rs")), None))
    }
}

fn rung_of(room: &str) -> Option<usize> {
    LADDER.iter().position(|rung| rung.contains(&room))
}

/// Each file's imports resolved: (file, line, the path, room, file named, whether the file only
/// hands the name on).
type Imports = Vec<(usize, usize, String, String, Option<String>, bool)>;

fn imports(files: &[SourceFile]) -> Imports {
    let house = House::of(files);
    let mut found = Vec::new();
    for (i, file) in house.files.iter().enumerate() {
        for (line, path, hands_on) in named_paths(file) {
            if let Some((room, target)) = house.resolve(file, &path) {
                if target.as_deref() != Some(file.path.as_str()) {
                    found.push((i, line, path.join("::"), room, target, hands_on));
                }
            }
        }
    }
    found
}

/// Files that import a room on their own rung or above.
fn ladder_breaches(files: &[SourceFile], imports: &Imports) -> Vec<String> {
    let mut breaches = Vec::new();
    for file in files {
        assert!(
            rung_of(&file.room).is_some(),
            "src/{}: room `{}` is on no rung of LADDER (tests/it/layers.rs): say where it stands",
            file.path,
            file.room
        );
    }
    for (i, line, path, room, _, _) in imports {
        let file = &files[*i];
        if *room == file.room {
            continue;
        }
        let (Some(own), Some(theirs)) = (rung_of(&file.room), rung_of(room)) else {
            continue;
        };
        if theirs >= own {
            breaches.push(format!(
                "src/{}:{line}: {path} (room {room}, rung {theirs}; the file's room {}, rung {own})",
                file.path, file.room
            ));
        }
    }
    breaches.sort();
    breaches.dedup();
    breaches
}

/// Sets of files that import each other round (strongly connected, more than one file), each
/// with the names that tie it.
fn circles(files: &[SourceFile], imports: &Imports) -> Vec<Vec<String>> {
    let index: std::collections::BTreeMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let mut edges = vec![std::collections::BTreeSet::new(); files.len()];
    // A name handed on (`pub use`) is no import of the file's own: who uses it imports its
    // source (resolved through the hand-on).
    for (i, _, _, _, target, _) in imports.iter().filter(|import| !import.5) {
        if let Some(&j) = target.as_deref().and_then(|t| index.get(t)) {
            edges[*i].insert(j);
        }
    }
    // Tarjan's strongly connected components.
    struct Tarjan<'a> {
        edges: &'a [std::collections::BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in self.edges[v].clone().iter() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    _ => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut tarjan = Tarjan {
        edges: &edges,
        index: vec![None; files.len()],
        low: vec![0; files.len()],
        on_stack: vec![false; files.len()],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..files.len() {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    let mut found = Vec::new();
    for component in tarjan.components.into_iter().filter(|c| c.len() > 1) {
        let mut names: Vec<String> = component.iter().map(|&i| files[i].path.clone()).collect();
        names.sort();
        if names.iter().all(|n| ALLOWED_CIRCLE.contains(&n.as_str())) {
            continue;
        }
        let members: std::collections::BTreeSet<usize> = component.iter().copied().collect();
        let mut ties: Vec<String> = imports
            .iter()
            .filter(|(i, _, _, _, target, hands_on)| {
                !hands_on
                    && members.contains(i)
                    && target
                        .as_deref()
                        .and_then(|t| index.get(t))
                        .is_some_and(|j| members.contains(j))
            })
            .map(|(i, line, path, _, target, _)| {
                format!(
                    "src/{}:{line} -> src/{}: {path}",
                    files[*i].path,
                    target.clone().unwrap()
                )
            })
            .collect();
        ties.sort();
        ties.dedup();
        found.push(ties);
    }
    found
}

#[test]
fn every_room_imports_only_from_rungs_below_it() {
    let files = source_files();
    assert!(files.len() > 150, "{} files", files.len());
    let imports = imports(&files);
    let breaches = ladder_breaches(&files, &imports);
    assert!(
        breaches.is_empty(),
        "files import a room on their own rung or above (tests/it/layers.rs's LADDER): \
         {breaches:#?}"
    );
}

#[test]
fn no_files_import_each_other_round() {
    let files = source_files();
    let imports = imports(&files);
    let circles = circles(&files, &imports);
    assert!(
        circles.is_empty(),
        "files that import each other round (only the perft instruction tiers may): {circles:#?}"
    );
}

/// The longest a source file may grow: past it, a file holds more than one idea (split it by
/// idea, or move its tests to a `tests.rs` of their own, as `stats/sprt/tests.rs`).
const MAX_LINES: usize = 700;

#[test]
fn no_source_file_is_over_the_house_size() {
    let long: Vec<String> = source_files()
        .iter()
        .filter(|file| file.lines > MAX_LINES)
        .map(|file| format!("src/{}: {} lines", file.path, file.lines))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (tests/it/layers.rs): {long:#?}"
    );
}

#[test]
fn the_checks_see_a_breach_and_a_circle() {
    let file = |path: &str, code: &str| SourceFile {
        path: path.to_string(),
        room: room_of(path),
        module: module_of(path),
        code: without_tests_and_comments(code),
        lines: code.lines().count(),
    };
    let files = vec![
        file(
            "position/mod.rs",
            "//! [`crate::arena`] in a comment is no import.\nuse crate::movegen::generate;\n",
        ),
        file("movegen/mod.rs", "use crate::position::Position;\n"),
        file(
            "arena/a.rs",
            "use super::b::{B, c::{C, D as E}};\n#[cfg(test)]\nmod tests { use crate::cli::x; }\n",
        ),
        file("arena/b.rs", "pub fn f() { super::a::g() }\n"),
    ];
    assert_eq!(
        use_tree_paths("super::b::{B, c::{C, D as E}}"),
        [
            vec!["super", "b", "B"],
            vec!["super", "b", "c", "C"],
            vec!["super", "b", "c", "D"]
        ]
    );
    let imports = imports(&files);
    let breaches = ladder_breaches(&files, &imports);
    assert_eq!(breaches.len(), 1, "{breaches:#?}");
    assert!(breaches[0].starts_with("src/position/mod.rs:2: crate::movegen::generate"));
    let circles = circles(&files, &imports);
    assert_eq!(circles.len(), 2, "{circles:#?}");
}
