//! `shannon match --report FILE.html`: a self-contained page (no script, nothing fetched), with the
//! crosstable, the Elo error bar, the SPRT's LLR curve and the terminations, and headless Chromium
//! renders it.

use super::scratch;
use crate::common::MatchLine;
use crate::common::{peer_missing, peers_required};
use std::process::Command;

#[test]
fn the_match_report_is_one_self_contained_page_that_chromium_renders() {
    let dir = scratch("report");
    let report = dir.join("report.html");
    let (ok, out, err) = MatchLine::new()
        .games(40)
        .tc("nodes=1")
        .pgn("-")
        .quiet()
        .seed(3)
        .sprt("-5,5,0.05,0.05")
        .arg("--report", &report)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    assert!(out.contains("Report: "), "{out}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    for part in [
        "Crosstable",
        "Elo difference",
        "SPRT",
        "Terminations",
        "shannon-a",
        "log-likelihood ratio",
        // Issue 45, item 11: the settings, and the SPRT's bounds said for what they are.
        "<dt>time control</dt><dd>nodes=1</dd>",
        "<dt>seed</dt><dd>3</dd>",
        "<dt>openings</dt><dd>startpos</dd>",
        "<dt>schedule</dt><dd>40 games</dd>",
        "<dt>written</dt><dd>20",
        "H0 is accepted at an LLR of -2.944 or below",
        "H1 accepted: LLR 2.94",
        "H0 accepted: LLR -2.94",
    ] {
        assert!(html.contains(part), "no {part}:\n{html}");
    }
    // Two inline pictures (the error bar and the LLR curve), and nothing to fetch or run.
    assert_eq!(html.matches("<svg").count(), 2, "{html}");
    // (The SVG's xmlns names a namespace; nothing is fetched from it.)
    for outside in [
        "<script", "src=", "href=", "url(", "<link", "<img", "@import",
    ] {
        assert!(!html.contains(outside), "the page refers to {outside}");
    }

    let Some(png) = screenshot(&dir, &report) else {
        return;
    };
    // A blank page compresses to a few kilobytes; the tables and pictures do not.
    assert!(
        png.len() > 20_000,
        "the screenshot is nearly empty ({} bytes)",
        png.len()
    );
}

#[test]
fn a_tournament_report_ranks_the_engines_in_a_full_crosstable() {
    let dir = scratch("report-tournament");
    let config = dir.join("engines.toml");
    let engines: String = ["north", "east", "south"]
        .iter()
        .map(|n| format!("[[engine]]\nname = \"{n}\"\ncommand = \"self\"\n\n"))
        .collect();
    std::fs::write(&config, engines).unwrap();
    let report = dir.join("report.html");
    let (ok, out, err) = MatchLine::new()
        .config(&config)
        .engines("north,east,south")
        .rounds(5)
        .tc("nodes=1")
        .arg("--max-plies", "300")
        .pgn("-")
        .quiet()
        .seed(4)
        .arg("--report", &report)
        .run_in(&dir);
    assert!(ok, "{out}{err}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("<title>Tournament of north, east, south</title>"),
        "{html}"
    );
    // Three rows of the crosstable, each with its diagonal '-' and 20 games.
    assert_eq!(html.matches("<td>-</td>").count(), 3, "{html}");
    assert_eq!(html.matches("<td>20</td>").count(), 3, "{html}");
    for encounter in ["north vs east", "north vs south", "east vs south"] {
        assert!(html.contains(encounter), "no {encounter}: {html}");
    }
    // One picture: the three engines' Elo bars (no SPRT in a tournament).
    assert_eq!(html.matches("<svg").count(), 1, "{html}");
    if let Some(png) = screenshot(&dir, &report) {
        assert!(png.len() > 20_000, "nearly empty ({} bytes)", png.len());
    }
}

/// Headless Chromium's screenshot of the page (`None`, after saying why, when Chromium is
/// missing).
fn screenshot(dir: &std::path::Path, report: &std::path::Path) -> Option<Vec<u8>> {
    let Some(chromium) = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file())
    else {
        peer_missing(
            "chromium is not installed (apt-get install chromium)",
            peers_required(),
        );
        return None;
    };
    let shot = dir.join("report.png");
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", dir.join("profile").display()),
            "--window-size=900,1400",
            &format!("--screenshot={}", shot.display()),
            &format!("file://{}", report.display()),
        ])
        .output()
        .expect("chromium starts");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    Some(png)
}
