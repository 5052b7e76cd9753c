//! The xboard state machine, driven through `uci::run` as a GUI drives the binary.

use crate::notation::san::parse_san;
use crate::notation::uci::parse_move;
use crate::Position;

fn talk(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    crate::uci::run(std::io::Cursor::new(input.as_bytes().to_vec()), &mut out);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines after the feature negotiation.
fn play(commands: &str) -> Vec<String> {
    let lines = talk(&format!("xboard\nprotover 2\naccepted done\n{commands}"));
    let done = lines.iter().position(|l| l == "feature done=1").unwrap();
    lines[done + 1..].to_vec()
}

fn moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("move ").map(str::to_string))
        .collect()
}

#[test]
fn protover_declares_features_and_ends_with_done() {
    let lines = talk("xboard\nprotover 2\n");
    assert!(lines[0].starts_with("feature ping=1 setboard=1 playother=1 usermove=1 san=0"));
    assert!(lines[0].contains("myname=\"Shannon "), "{}", lines[0]);
    assert!(lines[0].contains("variants=\"normal,fischerandom\""));
    assert!(lines.contains(&"feature option=\"Seed -spin 0 0 2147483647\"".to_string()));
    assert!(
        lines.contains(&"feature option=\"Move Generator -combo *bitboard /// 0x88\"".to_string())
    );
    assert_eq!(lines.last().unwrap(), "feature done=1");
}

#[test]
fn uci_is_still_the_default() {
    let lines = talk("\nuci\n");
    assert!(lines[0].starts_with("id name Shannon "), "{lines:?}");
}

#[test]
fn ping_pong_and_a_reply_to_each_move() {
    let lines = play("new\nping 7\nusermove e2e4\nping 8\n");
    assert_eq!(lines[0], "pong 7");
    assert!(lines[1].starts_with("move "), "{lines:?}");
    assert_eq!(lines[2], "pong 8");
    let mut pos = Position::startpos();
    pos = pos.play(parse_move(&pos, "e2e4").unwrap());
    assert!(parse_move(&pos, &lines[1][5..]).is_ok(), "{lines:?}");
}

#[test]
fn force_mode_plays_nothing_and_go_plays_the_side_to_move() {
    let lines = play("new\nforce\ne2e4\ne7e5\nping 1\ngo\nping 2\n");
    assert_eq!(lines[0], "pong 1");
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        pos = pos.play(parse_move(&pos, m).unwrap());
    }
    assert!(parse_move(&pos, &lines[1][5..]).is_ok(), "{lines:?}");
    assert_eq!(lines[2], "pong 2");
}

#[test]
fn the_seed_replays_the_same_move_as_under_uci() {
    for seed in [1, 7, 123_456] {
        let x = play(&format!(
            "option Seed={seed}\nnew\nforce\ne2e4\nc7c5\ng1f3\ngo\n"
        ));
        let mut out = Vec::new();
        let uci = format!(
            "setoption name Seed value {seed}\nposition startpos moves e2e4 c7c5 g1f3\ngo\n"
        );
        crate::uci::run(std::io::Cursor::new(uci.into_bytes()), &mut out);
        let uci = String::from_utf8(out).unwrap();
        let best = uci
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        assert_eq!(moves(&x), vec![best.to_string()], "seed {seed}");
    }
}

#[test]
fn illegal_moves_and_unknown_commands_change_nothing() {
    let lines = play("new\nforce\nusermove e2e5\nusermove xyzzy\nfrobnicate\ne1g1\nping 3\n");
    assert!(lines[0].starts_with("Illegal move ("), "{lines:?}");
    assert!(lines[0].ends_with("): e2e5"));
    assert!(lines[1].ends_with("): xyzzy"), "{lines:?}");
    assert_eq!(lines[2], "Error (unknown command): frobnicate");
    assert!(lines[3].starts_with("Illegal move") && lines[3].ends_with(": e1g1"));
    assert_eq!(lines[4], "pong 3");
}

#[test]
fn a_bad_setboard_refuses_moves_until_a_good_one() {
    let lines = play("new\nforce\nsetboard 8/8/8 w - - 0 1\ne2e4\ngo\nnew\nforce\ne2e4\nping 4\n");
    assert_eq!(lines[0], "tellusererror Illegal position");
    assert!(
        lines[1].starts_with("Illegal move (no position"),
        "{lines:?}"
    );
    assert!(lines[2].starts_with("Error (command not legal now): go"));
    assert_eq!(lines[3], "pong 4");
}

#[test]
fn mate_and_stalemate_are_claimed_after_either_side_moves() {
    // White to move mates with Qg7 (or others); the engine is mated by the opponent's move.
    let lines = play(
        "new\nforce\nsetboard 6k1/8/6K1/8/8/8/8/Q7 w - - 0 1\nplayother\nusermove a1a8\nping 5\n",
    );
    assert_eq!(lines, vec!["1-0 {White mates}", "pong 5"]);
    // The engine to move is stalemated.
    let lines = play("new\nforce\nsetboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo\n");
    assert_eq!(lines, vec!["1/2-1/2 {Stalemate}"]);
    // In force mode nothing is claimed.
    let lines = play("new\nforce\nsetboard 6k1/8/6K1/8/8/8/8/Q7 w - - 0 1\na1a8\nping 6\n");
    assert_eq!(lines, vec!["pong 6"]);
}

#[test]
fn the_engine_claims_the_end_its_own_move_brings() {
    // After Kf2 Black's only move takes the rook: king against king.
    let lines =
        play("new\nforce\nsetboard 8/8/8/8/8/8/1R6/k3K3 w - - 0 1\nplayother\nusermove e1f2\n");
    assert_eq!(lines, vec!["move a1b2", "1/2-1/2 {Insufficient material}"]);
}

#[test]
fn threefold_repetition_is_claimed_on_the_engines_turn() {
    let lines = play("new\nforce\ng1f3\ng8f6\nf3g1\nf6g8\ng1f3\ng8f6\nf3g1\nf6g8\ngo\n");
    assert_eq!(lines, vec!["1/2-1/2 {Draw by repetition}"]);
    // The 50-move rule.
    let lines = play("new\nforce\nsetboard 4k3/8/8/8/8/8/8/R3K3 w - - 100 80\ngo\n");
    assert_eq!(lines, vec!["1/2-1/2 {Draw by 50-move rule}"]);
}

#[test]
fn fischer_random_castling_is_written_o_o() {
    // King b1 with rooks on a1 and h1 may castle both ways; over many seeds castling is chosen,
    // and never written king-takes-rook or as a king move.
    let fen = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..60 {
        let lines = play(&format!(
            "option Seed={seed}\nnew\nvariant fischerandom\nforce\nsetboard {fen}\ngo\n"
        ));
        let mv = moves(&lines);
        assert_eq!(mv.len(), 1, "{lines:?}");
        let pos = Position::from_fen(fen).unwrap();
        assert!(parse_san(&pos, &mv[0]).is_ok() || parse_move(&pos, &mv[0]).is_ok());
        seen.insert(mv[0].clone());
    }
    assert!(seen.contains("O-O") || seen.contains("O-O-O"), "{seen:?}");
    assert!(!seen
        .iter()
        .any(|m| m == "b1h1" || m == "b1a1" || m == "b1g1"));
    // The GUI's O-O is read back.
    let lines = play(&format!(
        "new\nvariant fischerandom\nforce\nsetboard {fen}\nusermove O-O\nping 9\n"
    ));
    assert_eq!(lines, vec!["pong 9"]);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let lines =
        play("new\nforce\ne2e4\ne7e5\nremove\nundo\nundo\ne2e4\nsetboard 8/8/8/8/8/8/8/k1K5 w - - 0 1\nping 1\n");
    let undo = "Error (command not legal now): undo";
    assert_eq!(lines, vec![undo, undo, "pong 1"]);
}

#[test]
fn random_lines_never_bring_it_down() {
    use rand::{Rng, SeedableRng};
    let words = [
        "new",
        "force",
        "go",
        "usermove",
        "e2e4",
        "e7e5",
        "O-O",
        "setboard",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "0",
        "1",
        "ping",
        "undo",
        "remove",
        "variant",
        "fischerandom",
        "option",
        "Seed=3",
        "Seed=-1",
        "level",
        "st",
        "sd",
        "time",
        "otim",
        "result",
        "1-0",
        "?",
        "post",
        "playother",
        "\u{fffd}",
        "",
        "Nf3",
        "draw",
        "protover",
        "2",
    ];
    let mut rng = rand::rngs::SmallRng::seed_from_u64(32);
    let mut input = String::from("xboard\n");
    for _ in 0..3000 {
        let n = rng.random_range(0..6);
        let line: Vec<&str> = (0..n)
            .map(|_| words[rng.random_range(0..words.len())])
            .collect();
        input.push_str(&line.join(" "));
        input.push('\n');
    }
    input.push_str("ping 99\n");
    let lines = talk(&input);
    assert_eq!(lines.last().unwrap(), "pong 99");
}
