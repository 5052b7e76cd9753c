//! The knockout driver's rules, replay and bracket.

use super::*;

fn rules(players: usize, games: u32) -> KnockoutRules {
    KnockoutRules {
        players,
        seeds: 0,
        games,
        games_per_opening: 1,
        noswap: false,
        reverse: false,
        seed: 7,
    }
}

#[test]
fn ranks_go_where_cutechess_puts_them() {
    let places: Vec<usize> = (1..=8).map(|rank| player_seed(rank, 8)).collect();
    assert_eq!(places, [0, 4, 2, 6, 1, 5, 3, 7]);
}

#[test]
fn byes_go_to_the_top_seeds() {
    let knockout = Knockout::new(KnockoutRules {
        seeds: 5,
        ..rules(5, 1)
    })
    .unwrap();
    let first: Vec<[Option<usize>; 2]> = knockout.rounds[0].iter().map(|e| e.players).collect();
    assert_eq!(
        first,
        [
            [Some(0), None],
            [Some(2), None],
            [Some(1), None],
            [Some(3), Some(4)]
        ]
    );
}

#[test]
fn an_encounter_goes_on_while_undecided() {
    // One game: a draw needs another.
    assert!(Encounter::needs_more(1, 1, 1, 1));
    assert!(!Encounter::needs_more(2, 0, 1, 1));
    // Two games: 1.5-0.5 decides; 1-1 does not; after a third game, a fourth.
    assert!(!Encounter::needs_more(3, 1, 2, 2));
    assert!(Encounter::needs_more(2, 2, 2, 2));
    assert!(Encounter::needs_more(4, 2, 3, 2));
    assert!(!Encounter::needs_more(5, 3, 4, 2));
    // Three games: 2-1 decides.
    assert!(!Encounter::needs_more(4, 2, 3, 3));
    assert!(Encounter::needs_more(3, 3, 3, 3));
}

#[test]
fn games_are_handed_out_only_once_certain() {
    let mut knockout = Knockout::new(KnockoutRules {
        seeds: 2,
        ..rules(2, 2)
    })
    .unwrap();
    let Next::Play(first) = knockout.next_game() else {
        panic!("a first game")
    };
    // The second game is needed whatever the first gives.
    let Next::Play(second) = knockout.next_game() else {
        panic!("a second game")
    };
    assert_eq!(
        (first.white, second.white, first.opening, second.opening),
        (0, 1, 0, 1)
    );
    assert_eq!(knockout.next_game(), Next::Wait);
    knockout.finish(1, KnockoutResult::WhiteWins).unwrap();
    knockout.finish(2, KnockoutResult::WhiteWins).unwrap();
    // 1-1: two more.
    let Next::Play(third) = knockout.next_game() else {
        panic!("a third game")
    };
    assert_eq!(third.number, 3);
    let Next::Play(_) = knockout.next_game() else {
        panic!("a fourth game")
    };
    knockout.finish(3, KnockoutResult::Draw).unwrap();
    knockout.finish(4, KnockoutResult::WhiteWins).unwrap();
    assert_eq!(knockout.next_game(), Next::Done);
    assert_eq!(knockout.winner(), Some(1));
    assert!(knockout.finish(4, KnockoutResult::Draw).is_err());
}

/// A result for each game, as seeded players give one (some of each kind).
fn result_of(number: u32) -> KnockoutResult {
    match number % 5 {
        0 | 1 => KnockoutResult::WhiteWins,
        2 => KnockoutResult::Draw,
        3 => KnockoutResult::BlackWins,
        _ => KnockoutResult::Draw,
    }
}

/// Play what the driver hands out, one at a time.
fn played(knockout: &mut Knockout) -> Vec<KnockoutGame> {
    let mut games = Vec::new();
    while let Next::Play(game) = knockout.next_game() {
        knockout
            .finish(game.number, result_of(game.number))
            .unwrap();
        games.push(game);
    }
    games
}

/// Whether game `k` is handed out while game `k - 1` runs (the others finished).
fn hands_out_beside(rules: KnockoutRules, k: u32) -> bool {
    let mut knockout = Knockout::new(rules).unwrap();
    while let Next::Play(game) = knockout.next_game() {
        if game.number == k {
            return true;
        }
        if game.number + 1 != k {
            knockout
                .finish(game.number, result_of(game.number))
                .unwrap();
        }
    }
    false
}

/// A knockout replayed from the results of the games done when it stopped (every first
/// `k` games, or those less one still running, as at a kill with two games at once) and
/// then played on, plays the games and reaches the bracket of the knockout never stopped.
#[test]
fn a_replayed_knockout_goes_on_as_if_never_stopped() {
    let rules = KnockoutRules {
        games_per_opening: 2,
        ..rules(8, 2)
    };
    let names: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
    let mut whole = Knockout::new(rules).unwrap();
    let all = played(&mut whole);
    assert!(all.len() > 14 && whole.is_over(), "{}", all.len());
    let mut replays_beside = 0;
    for k in 0..=all.len() as u32 {
        for running in [None, Some(k.saturating_sub(2) + 1)] {
            let results: BTreeMap<u32, KnockoutResult> = (1..=k)
                .filter(|&n| Some(n) != running)
                .map(|n| (n, result_of(n)))
                .collect();
            let mut replayed = Knockout::new(rules).unwrap();
            let again = match replayed.replay(&results) {
                Ok(again) => again,
                // Game k is handed out only once game k-1's result is known: no run can
                // have finished game k with game k-1 still running.
                Err(_) => {
                    assert!(!hands_out_beside(rules, k), "k {k}");
                    continue;
                }
            };
            let mut games: Vec<KnockoutGame> = all
                .iter()
                .filter(|g| results.contains_key(&g.number))
                .copied()
                .collect();
            let rest = played(&mut replayed);
            if let Some(n) = running.filter(|&n| n <= k) {
                // The game that was running is played first.
                assert!(again > 0 && rest[0].number == n, "k {k}");
                replays_beside += 1;
            }
            games.extend(rest);
            games.sort_by_key(|g| g.number);
            assert_eq!(games, all, "k {k}, running {running:?}");
            assert_eq!(replayed.bracket(&names), whole.bracket(&names));
        }
    }
    assert!(replays_beside > 5, "{replays_beside}");
    // Results of games it never plays: another knockout's.
    let mut other = Knockout::new(rules).unwrap();
    let too_many = (1..=all.len() as u32 + 1)
        .map(|n| (n, result_of(n)))
        .collect();
    assert_eq!(
        other.replay(&too_many).unwrap_err(),
        KnockoutError::NotItsResults(all.len() as u32 + 1)
    );
}

#[test]
fn the_bracket_prints_as_cutechess_prints_it() {
    let mut knockout = Knockout::new(KnockoutRules {
        seeds: 3,
        ..rules(3, 1)
    })
    .unwrap();
    let names: Vec<String> = ["alpha", "beta", "gamma"].map(String::from).to_vec();
    let Next::Play(game) = knockout.next_game() else {
        panic!("the semi-final")
    };
    assert_eq!((game.white, game.black, game.round), (1, 2, 1));
    knockout.finish(1, KnockoutResult::BlackWins).unwrap();
    let Next::Play(game) = knockout.next_game() else {
        panic!("the final")
    };
    assert_eq!((game.white, game.black, game.round), (0, 2, 2));
    knockout.finish(2, KnockoutResult::WhiteWins).unwrap();
    assert_eq!(knockout.next_game(), Next::Done);
    assert_eq!(
        knockout.bracket(&names),
        "alpha\n\t\talpha\nbye\n\t\t\t\talpha (1-0)\nbeta\n\t\tgamma (0-1)\ngamma"
    );
    assert!(Knockout::new(rules(1, 1)).is_err());
    assert!(Knockout::new(rules(3, 0)).is_err());
}
