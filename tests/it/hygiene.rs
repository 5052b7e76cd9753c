//! The tests themselves: they leave nothing behind in the system's temporary folder (issue 20: a
//! run used to leave 43 folders, about 15 MB, there).

use crate::common::Scratch;
use std::path::{Path, PathBuf};

#[test]
fn a_scratch_directory_is_removed_when_its_test_ends_and_kept_when_it_fails() {
    let scratch = Scratch::new("hygiene-pass");
    std::fs::write(scratch.join("file"), "x").unwrap();
    let path = scratch.to_path_buf();
    drop(scratch);
    assert!(!path.exists(), "{} was left behind", path.display());

    let kept = std::thread::spawn(|| {
        let scratch = Scratch::new("hygiene-fail");
        let path = scratch.to_path_buf();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _moved = scratch;
            panic!("a failing test");
        }));
        path
    })
    .join()
    .unwrap();
    assert!(kept.exists(), "a failed test's folder must be kept");
    std::fs::remove_dir_all(&kept).unwrap();
}

/// Every test takes its folder from [`Scratch`]: a folder made by hand under `temp_dir()` is
/// not removed when the test ends.
#[test]
fn no_test_makes_a_folder_of_its_own_in_the_temporary_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut offenders = Vec::new();
    let mut stack: Vec<PathBuf> = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("it/hygiene.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    if line.contains("temp_dir()") {
                        offenders.push(format!("{}:{}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "use common::Scratch instead of temp_dir(): {offenders:?}"
    );
}
