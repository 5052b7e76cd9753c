//! The tests of the schedule: who meets whom, with which colours and openings, in which order.

use super::*;

#[test]
fn a_round_robin_meets_every_pair_with_both_colours_and_shared_openings() {
    let schedule = Schedule::new(TournamentKind::RoundRobin, 3, 2, 2).unwrap();
    assert_eq!(schedule.encounters, vec![(0, 1), (0, 2), (1, 2)]);
    assert_eq!(schedule.len(), 12);
    assert_eq!(schedule.openings_needed(), 2);
    let games: Vec<_> = (0..12).map(|i| schedule.game(i)).collect();
    let colours: Vec<(usize, usize)> = games.iter().map(|g| (g.white, g.black)).collect();
    assert_eq!(
        colours[..6],
        [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    );
    // Round 0 uses opening 0 in every encounter, round 1 opening 1.
    assert!(games[..6].iter().all(|g| g.opening == 0 && g.round == 0));
    assert!(games[6..].iter().all(|g| g.opening == 1 && g.round == 1));
    // A pair never straddles two encounters.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].encounter, pair[1].encounter);
    }
}

#[test]
fn a_gauntlet_pits_the_first_engine_against_the_others() {
    let schedule = Schedule::new(TournamentKind::Gauntlet, 4, 1, 3).unwrap();
    assert_eq!(schedule.encounters, vec![(0, 1), (0, 2), (0, 3)]);
    // Three games per encounter become four (two whole pairs).
    assert_eq!(schedule.games_per_encounter, 4);
    assert_eq!(schedule.game(5).opening, 0);
    assert_eq!(schedule.game(6).opening, 1);
    assert_eq!((schedule.game(7).white, schedule.game(7).black), (2, 0));
}

#[test]
fn two_engines_keep_the_old_numbering() {
    // Before tournaments, game i of a 2-engine match used opening i / 2 and gave White to
    // the first engine in even i: a match schedule must not change.
    let schedule = Schedule::new(TournamentKind::RoundRobin, 2, 1, 10).unwrap();
    for i in 0..10 {
        let game = schedule.game(i);
        assert_eq!(game.opening, i as usize / 2);
        assert_eq!(game.white, i as usize % 2);
    }
}

#[test]
fn single_games_take_an_opening_each_and_alternate_colours_by_number() {
    let single = Layout {
        single_games: true,
        ..Layout::default()
    };
    // fastchess's `-games 1 -rounds 5`: five games, not rounded up to pairs.
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 5, 1, single).unwrap();
    assert_eq!((schedule.len(), schedule.openings_needed()), (5, 5));
    let games: Vec<_> = (0..5).map(|i| schedule.game(i)).collect();
    assert_eq!(
        games.iter().map(|g| g.opening).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    // fastchess swaps the colours of its even game ids (from 1): the second engine has
    // White in games 2 and 4.
    assert_eq!(
        games.iter().map(|g| g.white).collect::<Vec<_>>(),
        [0, 1, 0, 1, 0]
    );
    // `-games 1 -rounds 1`: one game.
    let one = Schedule::laid_out(TournamentKind::RoundRobin, 2, 1, 1, single).unwrap();
    assert_eq!((one.len(), one.game(0).white, one.game(0).black), (1, 0, 1));
    // Shards split single games, not pairs.
    let sizes: Vec<usize> = (0..2)
        .map(|index| schedule.games_of(Shard { index, count: 2 }).len())
        .collect();
    assert_eq!(sizes, [2, 3]);
    assert_eq!(one.games_of(Shard::WHOLE), [0]);
    // A tournament's encounters play pairs.
    assert!(Schedule::laid_out(TournamentKind::RoundRobin, 3, 1, 1, single).is_err());
}

#[test]
fn an_opening_serves_games_per_opening_consecutive_single_games() {
    // cutechess-cli's `-games 7 -repeat 3` between two engines: openings 0, 0, 0, 1, 1, 1,
    // 2, colours alternating game by game.
    let repeat = Layout {
        single_games: true,
        games_per_opening: 3,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 7, 1, repeat).unwrap();
    assert_eq!((schedule.len(), schedule.openings_needed()), (7, 3));
    let games: Vec<_> = (0..7).map(|i| schedule.game(i)).collect();
    assert_eq!(
        games.iter().map(|g| g.opening).collect::<Vec<_>>(),
        [0, 0, 0, 1, 1, 1, 2]
    );
    assert_eq!(
        games.iter().map(|g| g.white).collect::<Vec<_>>(),
        [0, 1, 0, 1, 0, 1, 0]
    );
    // Ignored for pairs, which share an opening two by two.
    let pairs = Layout {
        games_per_opening: 3,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 3, 2, pairs).unwrap();
    assert_eq!(schedule.openings_needed(), 3);
    assert_eq!(schedule.game(5).opening, 2);
}

#[test]
fn cutechess_tournaments_pair_turn_by_turn_and_give_each_encounter_its_openings() {
    // cutechess-cli 1.5.1's round robin of four: (0,3) (1,2), (0,2) (3,1), (0,1) (2,3); of
    // three (a padding player, skipped): (1,2), (0,2), (0,1).
    assert_eq!(
        cutechess_round_robin(4),
        [(0, 3), (1, 2), (0, 2), (3, 1), (0, 1), (2, 3)]
    );
    assert_eq!(cutechess_round_robin(3), [(1, 2), (0, 2), (0, 1)]);
    let layout = Layout {
        cutechess_tournament: true,
        reverse: true,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 4, 2, 2, layout).unwrap();
    assert_eq!((schedule.len(), schedule.openings_needed()), (24, 12));
    let game = |i| {
        let g = schedule.game(i);
        (g.white, g.black, g.opening)
    };
    // Each encounter its own opening; -reverse swaps a pair at each meeting.
    assert_eq!(
        [game(0), game(1), game(2)],
        [(3, 0, 0), (0, 3, 0), (2, 1, 1)]
    );
    assert_eq!([game(12), game(13)], [(0, 3, 6), (3, 0, 6)]);
    // Single games: colours over all the pair's games, openings every N within an encounter.
    let single = Layout {
        cutechess_tournament: true,
        single_games: true,
        games_per_opening: 2,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 3, 2, 3, single).unwrap();
    assert_eq!((schedule.len(), schedule.openings_needed()), (18, 12));
    let first: Vec<_> = (0..6).map(|i| schedule.game(i)).collect();
    assert_eq!(
        first
            .iter()
            .map(|g| (g.white, g.opening))
            .collect::<Vec<_>>(),
        [(1, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 3)]
    );
    // The pair's fourth game (round 1) has the other colours than its first.
    assert_eq!((schedule.game(9).white, schedule.game(9).opening), (2, 6));
}

#[test]
fn fastchess_tournaments_give_each_encounter_the_next_of_rounds_openings() {
    let layout = Layout {
        fastchess_tournament: true,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 4, 2, 2, layout).unwrap();
    assert_eq!(
        (schedule.openings_needed(), schedule.openings_kept()),
        (2, Some(2))
    );
    // Encounter blocks 0, 1, ..., 11: openings 0, 1, 2, ... (wrapped at the 2 kept).
    let openings: Vec<_> = (0..24)
        .step_by(2)
        .map(|i| schedule.game(i).opening)
        .collect();
    assert_eq!(openings, (0..12).collect::<Vec<_>>());
    assert_eq!(schedule.game(1).opening, 0);
    // A match keeps them all.
    let two = Schedule::laid_out(TournamentKind::RoundRobin, 2, 3, 2, layout).unwrap();
    assert_eq!((two.openings_kept(), two.game(4).opening), (None, 2));
}

#[test]
fn noswap_gives_the_first_engine_white_in_every_game() {
    let noswap = Layout {
        noswap: true,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 3, 2, 2, noswap).unwrap();
    for i in 0..schedule.len() {
        let game = schedule.game(i);
        assert_eq!(
            (game.white, game.black),
            schedule.encounters[game.encounter]
        );
    }
    // Pairs still share their opening.
    assert_eq!(schedule.game(0).opening, schedule.game(1).opening);
    assert_eq!(schedule.game(6).opening, 1);
    let both = Layout {
        single_games: true,
        noswap: true,
        ..Layout::default()
    };
    let single = Schedule::laid_out(TournamentKind::RoundRobin, 2, 3, 1, both).unwrap();
    assert!((0..3).all(|i| single.game(i).white == 0));
    assert_eq!(single.game(2).opening, 2);
}

#[test]
fn seeds_play_the_others_as_each_tool_pairs_them() {
    let cutechess = Layout {
        seeds: Some(Seeds {
            count: 2,
            meet_each_other: false,
        }),
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::Gauntlet, 4, 1, 2, cutechess).unwrap();
    assert_eq!(schedule.encounters, [(0, 2), (0, 3), (1, 2), (1, 3)]);
    let fastchess = Layout {
        seeds: Some(Seeds {
            count: 2,
            meet_each_other: true,
        }),
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::Gauntlet, 4, 1, 2, fastchess).unwrap();
    assert_eq!(
        schedule.encounters,
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)]
    );
    // More seeds than engines but one: every engine but the last (both tools bound them).
    let many = Layout {
        seeds: Some(Seeds {
            count: 9,
            meet_each_other: false,
        }),
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::Gauntlet, 3, 1, 2, many).unwrap();
    assert_eq!(schedule.encounters, [(0, 2), (1, 2)]);
    assert!(Seeds::is_seed(many.seeds, 1, 3) && !Seeds::is_seed(many.seeds, 2, 3));
    // A round robin has no seeds.
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 3, 1, 2, many).unwrap();
    assert_eq!(schedule.encounters, [(0, 1), (0, 2), (1, 2)]);
}

#[test]
fn reverse_gives_the_second_engine_white_where_the_first_had_it() {
    let reverse = Layout {
        reverse: true,
        ..Layout::default()
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 2, 2, reverse).unwrap();
    let whites: Vec<usize> = (0..4).map(|i| schedule.game(i).white).collect();
    assert_eq!(whites, [1, 0, 1, 0]);
    assert_eq!(schedule.game(0).opening, schedule.game(1).opening);
    // With -noswap, the second engine White in every game (both tools).
    let both = Layout {
        noswap: true,
        ..reverse
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 2, 2, both).unwrap();
    assert!((0..4).all(|i| schedule.game(i).white == 1));
    // Single games: the second engine White in the odd-numbered games (from 1).
    let single = Layout {
        single_games: true,
        ..reverse
    };
    let schedule = Schedule::laid_out(TournamentKind::RoundRobin, 2, 3, 1, single).unwrap();
    let whites: Vec<usize> = (0..3).map(|i| schedule.game(i).white).collect();
    assert_eq!(whites, [1, 0, 1]);
}

#[test]
fn shards_split_whole_pairs_and_cover_the_schedule_once() {
    let schedule = Schedule::new(TournamentKind::RoundRobin, 3, 3, 2).unwrap();
    let mut all: Vec<u32> = (0..3)
        .flat_map(|index| schedule.games_of(Shard { index, count: 3 }))
        .collect();
    // 18 games, 9 pairs: three pairs (six games) each, every encounter of a round.
    assert_eq!(
        schedule.games_of(Shard { index: 1, count: 3 }),
        (6..12).collect::<Vec<_>>()
    );
    let uneven = Schedule::new(TournamentKind::RoundRobin, 2, 1, 10).unwrap();
    let sizes: Vec<usize> = (0..3)
        .map(|index| uneven.games_of(Shard { index, count: 3 }).len())
        .collect();
    assert_eq!(sizes, [2, 4, 4]);
    all.sort_unstable();
    assert_eq!(all, (0..schedule.len()).collect::<Vec<_>>());
    assert!(Schedule::new(TournamentKind::Gauntlet, 1, 1, 2).is_err());
}
