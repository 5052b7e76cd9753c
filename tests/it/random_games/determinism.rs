//! Threads and shards do not change the result.

use super::*;

#[test]
fn threads_and_shards_do_not_change_the_result() {
    let dir = scratch("split");
    let standard = same_whatever_the_split(
        &dir,
        "standard",
        &["random-games", "--games", "6000", "--seed", "11"],
    );
    assert_eq!(standard["games"], 6000);
    assert_eq!(
        standard["command"],
        "shannon random-games --games 6000 --seed 11 --rules claims"
    );
    let chess960 = same_whatever_the_split(
        &dir,
        "chess960",
        &[
            "random-games",
            "--games",
            "3000",
            "--seed",
            "12",
            "--chess960",
        ],
    );
    assert!(chess960["command"]
        .as_str()
        .unwrap()
        .contains(" --chess960"));
    // The 960 starts are not the standard one: the tallies differ.
    assert_ne!(chess960["histogram"], standard["histogram"]);
    let automatic = same_whatever_the_split(
        &dir,
        "automatic",
        &[
            "random-games",
            "--games",
            "3000",
            "--seed",
            "13",
            "--rules",
            "automatic",
            "--max-plies",
            "300",
        ],
    );
    assert!(automatic["command"]
        .as_str()
        .unwrap()
        .ends_with("--rules automatic --max-plies 300"));
    // The ply limit ends many games, and no claim ends any.
    assert!(ending_count(&automatic, "ply-limit") > 100);
    assert_eq!(ending_count(&automatic, "threefold"), 0);
    assert_eq!(ending_count(&automatic, "fifty-move"), 0);
}
