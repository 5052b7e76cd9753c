//! The time controls' notation, clocks and `go` lines.

use super::*;

#[test]
fn the_notation_reads_back_to_the_same_time_control() {
    for text in [
        "40/60+0.6",
        "10+0.1",
        "2:30+1",
        "40/1:00+0.5",
        "inf",
        "movetime=250",
        "nodes=1",
        "depth=7",
        "5",
    ] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(tc.notation().parse::<TimeControl>().unwrap(), tc, "{text}");
    }
    assert_eq!(
        "10+0.1".parse::<TimeControl>().unwrap().notation(),
        "10+0.1"
    );
    assert_eq!(
        "40/1:00+0.5".parse::<TimeControl>().unwrap().notation(),
        "40/60+0.5"
    );
    assert_eq!("infinite".parse::<TimeControl>().unwrap().notation(), "inf");
}

#[test]
fn cute_chess_forms() {
    assert_eq!(
        "40/60+0.6".parse::<TimeControl>().unwrap(),
        TimeControl::clock(40, Duration::from_secs(60), Duration::from_millis(600))
    );
    assert_eq!(
        "10+0.1".parse::<TimeControl>().unwrap().to_string(),
        "10+0.1"
    );
    assert_eq!("inf".parse::<TimeControl>().unwrap(), TimeControl::INFINITE);
    assert_eq!(
        "nodes=1".parse::<TimeControl>().unwrap(),
        TimeControl::nodes(1)
    );
    assert_eq!(
        "depth=3".parse::<TimeControl>().unwrap(),
        TimeControl::depth(3)
    );
    assert_eq!(
        "movetime=50".parse::<TimeControl>().unwrap(),
        TimeControl::move_time(Duration::from_millis(50))
    );
    for bad in [
        "",
        "x",
        "40/",
        "+1",
        "10+",
        "-5",
        "0",
        "nodes=",
        "movetime=-1",
        "1e99",
    ] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
}

/// Issue 9: Cute Chess's minutes:seconds form was refused.
#[test]
fn minutes_and_seconds() {
    assert_eq!(
        "1:00+1".parse::<TimeControl>().unwrap(),
        TimeControl::clock(0, Duration::from_secs(60), Duration::from_secs(1))
    );
    assert_eq!(
        "40/1:00+0.5".parse::<TimeControl>().unwrap(),
        TimeControl::clock(40, Duration::from_secs(60), Duration::from_millis(500))
    );
    assert_eq!(
        "2:30.5".parse::<TimeControl>().unwrap(),
        TimeControl::clock(0, Duration::from_millis(150_500), Duration::ZERO)
    );
    assert_eq!(
        "0:05+0.1".parse::<TimeControl>().unwrap().to_string(),
        "5+0.1"
    );
    for bad in [
        "1:75",
        ":30",
        "1:",
        "1:2:3",
        "-1:00",
        "0:00",
        "1:00+1:00",
        "x:10",
    ] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
}

#[test]
fn clocks_gain_increments_and_periods() {
    let tc: TimeControl = "2/10+1".parse().unwrap();
    let margin = Duration::from_millis(100);
    let mut clock = tc.new_clock();
    assert_eq!(
        clock.remaining,
        Duration::from_secs(11),
        "10 and the first increment"
    );
    assert_eq!(tc.moves_to_go(&clock), Some(2));
    assert!(tc.charge(&mut clock, Duration::from_secs(4), margin));
    assert_eq!(clock.remaining, Duration::from_secs(8));
    assert!(tc.charge(&mut clock, Duration::from_secs(4), margin));
    assert_eq!(
        clock.remaining,
        Duration::from_secs(15),
        "5 + 10 for the next period"
    );
    assert!(
        !tc.charge(&mut clock, Duration::from_secs(16), margin),
        "over the clock"
    );
    let mut clock = tc.new_clock();
    assert!(
        tc.charge(&mut clock, Duration::from_millis(11_050), margin),
        "within the margin"
    );
}

/// What cutechess-cli 1.5.1 and fastchess 1.8.2 sent, logged from the engine's input, for
/// `-engine ... tc=10+0.1 -engine ... tc=40/5+0.05`: each side's own time and increment,
/// and `movestogo` of the mover's own period only.
#[test]
fn each_side_has_its_own_clock_in_go() {
    let white: TimeControl = "10+0.1".parse().unwrap();
    let black: TimeControl = "40/5+0.05".parse().unwrap();
    let clocks = [white.new_clock(), black.new_clock()];
    assert_eq!(
        white.uci_go(&black, &clocks, Color::White, GoOrder::CapsLast),
        "go wtime 10100 btime 5050 winc 100 binc 50"
    );
    assert_eq!(
        black.uci_go(&white, &clocks, Color::Black, GoOrder::CapsLast),
        "go wtime 10100 btime 5050 winc 100 binc 50 movestogo 40"
    );
    // fastchess leaves out the time of an opponent without a clock.
    let depth: TimeControl = "depth=8".parse().unwrap();
    let clocks = [white.new_clock(), depth.new_clock()];
    assert_eq!(
        white.uci_go(&depth, &clocks, Color::White, GoOrder::CapsLast),
        "go wtime 10100 winc 100"
    );
    assert_eq!(
        depth.uci_go(&white, &clocks, Color::Black, GoOrder::CapsLast),
        "go depth 8"
    );
    let same = [white.new_clock(), white.new_clock()];
    assert_eq!(
        white.uci_go(&white, &same, Color::Black, GoOrder::CapsLast),
        "go wtime 10100 btime 10100 winc 100 binc 100"
    );
}

/// Caps after a pace, each part after a comma, read back from the notation.
#[test]
fn caps_beside_a_pace_read_back() {
    for text in [
        "10+0.1,nodes=5000",
        "40/20+0.2,nodes=3000,depth=9",
        "movetime=100,depth=8",
        "nodes=5000,depth=8",
    ] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(tc.notation(), text);
        assert_eq!(tc.notation().parse::<TimeControl>().unwrap(), tc, "{text}");
    }
    let tc: TimeControl = "depth=8, nodes=5000 ,10+0.1".parse().unwrap();
    assert_eq!(tc.notation(), "10+0.1,nodes=5000,depth=8");
    assert_eq!(tc.to_string(), "10+0.1", "the PGN tag shows the pace");
    assert_eq!(
        "inf,nodes=5".parse::<TimeControl>().unwrap(),
        TimeControl::nodes(5)
    );
    for bad in [
        "10+0.1,",
        "10+0.1,5+0.1",
        "nodes=1,nodes=2",
        "depth=1,depth=2",
        "10+0.1,movetime=5",
        "10+0.1,nodes=x",
        ",",
    ] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
}

/// What cutechess-cli 1.5.1 and fastchess 1.8.2-alpha sent (tests/data/peers/caps/):
/// cutechess-cli's caps after the time, `depth` then `nodes`; fastchess's before it,
/// `nodes` then `depth`.
#[test]
fn each_tool_puts_the_caps_in_its_place() {
    let white: TimeControl = "40/20+0.2,nodes=3000,depth=9".parse().unwrap();
    let black: TimeControl = "20+0.2,depth=6".parse().unwrap();
    let clocks = [white.new_clock(), black.new_clock()];
    let go = |tc: &TimeControl, other, side, order| tc.uci_go(other, &clocks, side, order);
    assert_eq!(
        go(&white, &black, Color::White, GoOrder::CapsLast),
        "go wtime 20200 btime 20200 winc 200 binc 200 movestogo 40 depth 9 nodes 3000"
    );
    assert_eq!(
        go(&white, &black, Color::White, GoOrder::CapsFirst),
        "go nodes 3000 depth 9 wtime 20200 btime 20200 winc 200 binc 200 movestogo 40"
    );
    assert_eq!(
        go(&black, &white, Color::Black, GoOrder::CapsLast),
        "go wtime 20200 btime 20200 winc 200 binc 200 depth 6"
    );
    assert_eq!(
        go(&black, &white, Color::Black, GoOrder::CapsFirst),
        "go depth 6 wtime 20200 btime 20200 winc 200 binc 200"
    );
    let st: TimeControl = "movetime=1000,nodes=4000".parse().unwrap();
    assert_eq!(
        go(&st, &st, Color::White, GoOrder::CapsLast),
        "go movetime 1000 nodes 4000"
    );
    assert_eq!(
        go(&st, &st, Color::White, GoOrder::CapsFirst),
        "go nodes 4000 movetime 1000"
    );
    assert_eq!(
        go(&white, &black, Color::White, GoOrder::CapsLastInfinite),
        go(&white, &black, Color::White, GoOrder::CapsLast)
    );
    let nodes = TimeControl::nodes(1000);
    let orders = [
        GoOrder::CapsLast,
        GoOrder::CapsLastInfinite,
        GoOrder::CapsFirst,
    ];
    for order in orders {
        assert_eq!(go(&nodes, &nodes, Color::White, order), "go nodes 1000");
    }
    // A move without any limit: cutechess-cli's `go infinite` (tests/data/peers/caps/
    // infinite.cutechess-cli-1.5.1.go.txt); a bare `go` in Shannon's own form.
    let infinite = |order| go(&TimeControl::INFINITE, &nodes, Color::White, order);
    assert_eq!(infinite(GoOrder::CapsLastInfinite), "go infinite");
    assert_eq!(infinite(GoOrder::CapsLast), "go");
    assert_eq!(infinite(GoOrder::CapsFirst), "go");
}
