//! Beaten kingdoms, victors, armies removed or transferred, alliances, passes and victory,
//! played out on small diagram positions under each option.

mod common;

use common::{play, position, setup};
use qiguo_rules::{
    BeatenArmy, IllegalMove, Kingdom, KingdomGoal, Move, Piece, PieceKind, Position, Preset, Rules,
    Seats, Standing, VictorRule, Victory, notation,
};

use Kingdom::*;

fn rules(beaten_at: u8, victor: VictorRule, army: BeatenArmy) -> Rules {
    Rules {
        beaten_at_losses: beaten_at,
        victor,
        beaten_army: army,
        ..Rules::preset(Preset::Classic)
    }
}

/// Qin and Han both capture Chu's pieces; Qin makes the third, deciding capture. Qin has taken
/// more of Chu's pieces (2 to 1) but Han more pieces overall (3 to 2).
const VICTOR_DIAGRAM: &str = "wR a5, wQ a19, wB k12, \
    rS c5, rS e5, rS g5, rS p5, rG k1, rQ r19, \
    oS p6, oR a15, oQ m19, \
    bS c15, bS e15, bG s1, bQ s10";
const VICTOR_MOVES: &str =
    "a5c5 k1k2 p6p5 s1s2 a19a18 k2k1 a15c15 s2s1 a18a17 k1k2 c15e15 s1s2 c5e5";

#[test]
fn victor_is_who_took_most_of_its_pieces() {
    let mut pos = position(
        VICTOR_DIAGRAM,
        'w',
        rules(3, VictorRule::MostOfItsPieces, BeatenArmy::Removed),
    );
    let reports = play(&mut pos, VICTOR_MOVES);
    assert_eq!(pos.captured_from(Qin, Chu), 2);
    assert_eq!(pos.captured_from(Han, Chu), 1);
    assert_eq!(
        pos.standing(Chu),
        Standing::Beaten {
            victor: Qin,
            general_captured: false
        }
    );
    assert_eq!(pos.kingdoms_taken(Qin), 1);
    let fallen = reports.last().unwrap().fallen.clone().unwrap();
    assert_eq!(fallen.kingdom, Chu);
    assert_eq!(fallen.army.len(), 3);
    assert_eq!(fallen.transferred_to, None);
    // Removed: Chu's remaining swordsman, go-between and General are gone.
    for p in ["g5", "k2", "r19"] {
        assert_eq!(pos.piece_at(p.parse().unwrap()), None, "{p}");
    }
    // Chu drops out of the turn order: Han moves next.
    assert_eq!(pos.to_move(), Han);
    assert!(!pos.alive().contains(Chu));
    assert_eq!(pos.outcome(), None);
}

#[test]
fn victor_is_who_captured_most_overall_under_elephantchess_rule() {
    let mut pos = position(
        VICTOR_DIAGRAM,
        'w',
        rules(3, VictorRule::MostCapturesOverall, BeatenArmy::Transferred),
    );
    let reports = play(&mut pos, VICTOR_MOVES);
    assert_eq!(
        pos.standing(Chu),
        Standing::Beaten {
            victor: Han,
            general_captured: false
        }
    );
    assert_eq!(
        reports
            .last()
            .unwrap()
            .fallen
            .as_ref()
            .unwrap()
            .transferred_to,
        Some(Han)
    );
    // Transferred: the pieces take Han's colour, in place.
    for (p, kind) in [
        ("g5", PieceKind::Swordsman),
        ("k2", PieceKind::GoBetween),
        ("r19", PieceKind::General),
    ] {
        assert_eq!(
            pos.piece_at(p.parse().unwrap()),
            Some(Piece::new(Han, kind)),
            "{p}"
        );
    }
    assert_eq!(pos.army_size(Han), 3 + 3);
    // Plain transfer does not count the pieces as captures.
    assert_eq!(pos.captures(Han), 3);
}

#[test]
fn transferred_pieces_count_as_captures_under_elephantchess() {
    let mut pos = position(
        VICTOR_DIAGRAM,
        'w',
        rules(
            3,
            VictorRule::MostCapturesOverall,
            BeatenArmy::TransferredAsCaptures,
        ),
    );
    play(&mut pos, VICTOR_MOVES);
    assert_eq!(pos.captures(Han), 3 + 3);
}

#[test]
fn capturing_a_transferred_general_beats_its_new_owner() {
    let mut pos = position(
        VICTOR_DIAGRAM,
        'w',
        rules(3, VictorRule::MostCapturesOverall, BeatenArmy::Transferred),
    );
    play(&mut pos, VICTOR_MOVES);
    // Han now owns two Generals: m19 and Chu's old one on r19. Qin's Diplomat takes r19.
    let reports = play(&mut pos, "m19m18 s2s1 k12r19");
    assert_eq!(
        pos.standing(Han),
        Standing::Beaten {
            victor: Qin,
            general_captured: true
        }
    );
    assert_eq!(
        reports[2].captured,
        Some(Piece::new(Han, PieceKind::General))
    );
    // Han's whole army, Chu's former pieces included, goes to Qin.
    assert_eq!(
        pos.piece_at("m18".parse().unwrap()),
        Some(Piece::new(Qin, PieceKind::General))
    );
    assert_eq!(
        pos.piece_at("g5".parse().unwrap()),
        Some(Piece::new(Qin, PieceKind::Swordsman))
    );
    assert_eq!(pos.alive().iter().collect::<Vec<_>>(), vec![Qin, Qi]);
    assert_eq!(pos.to_move(), Qi);
}

#[test]
fn ties_go_to_the_kingdom_that_moved_most_recently() {
    // Qin and Han each take two of Chu's pieces; Qi makes the fifth, deciding capture.
    let diagram = "wR a5, rS c5, rS e5, rS c15, rS e15, rS p5, rG k1, oR a15, bS p6, bG s1";
    for victor_rule in [VictorRule::MostOfItsPieces, VictorRule::MostCapturesOverall] {
        let mut pos = position(diagram, 'w', rules(5, victor_rule, BeatenArmy::Removed));
        play(&mut pos, "a5c5 k1k2 a15c15 s1s2 c5e5 k2k1 c15e15 p6p5");
        assert_eq!(
            pos.standing(Chu),
            Standing::Beaten {
                victor: Han,
                general_captured: false
            },
            "{victor_rule:?}: Qin and Han tie; Han moved after Qin"
        );
    }
    // When the deciding captor is among the tied, it wins the tie.
    let diagram = "wR a5, rS c5, rS e5, rS p5, rS p7, rG k1, oS p6, oS p8";
    let mut pos = position(
        diagram,
        'w',
        rules(4, VictorRule::MostOfItsPieces, BeatenArmy::Removed),
    );
    play(&mut pos, "a5c5 k1k2 p6p5 c5e5 k2k1 p8p7");
    assert_eq!(
        pos.standing(Chu),
        Standing::Beaten {
            victor: Han,
            general_captured: false
        }
    );
}

#[test]
fn a_kingdom_is_beaten_at_ten_or_eleven_losses_by_preset() {
    // Qin's Chancellor eats eleven Chu swordsmen along rank 1; Chu and Han shuffle go-betweens.
    let diagram = "wR a1, rS b1, rS c1, rS d1, rS e1, rS f1, rS g1, rS h1, rS i1, rS j1, rS k1, rS l1, \
                   rG e8, oG s19";
    let captures: Vec<String> = (0..11)
        .map(|i| format!("{}1{}1", (b'a' + i) as char, (b'b' + i) as char))
        .collect();
    for (preset, beaten_after) in [
        (Preset::Leventhal, 10),
        (Preset::Elephantchess, 10),
        (Preset::Classic, 11),
        (Preset::Wikipedia, 11),
    ] {
        let mut pos = position(diagram, 'w', Rules::preset(preset));
        for (i, mv) in captures.iter().enumerate() {
            play(&mut pos, mv);
            if pos.standing(Chu) != Standing::InGame {
                assert_eq!(i + 1, beaten_after, "{preset}");
                break;
            }
            assert!(
                i + 1 < beaten_after,
                "{preset}: still in after {} losses",
                i + 1
            );
            let shuffle = if i % 2 == 0 {
                "e8e9 s19s18"
            } else {
                "e9e8 s18s19"
            };
            play(&mut pos, shuffle);
        }
        assert_eq!(pos.losses(Chu), beaten_after as u32);
        assert!(!pos.alive().contains(Chu), "{preset}");
        assert_eq!(pos.to_move(), Han);
    }
}

#[test]
fn capturing_a_general_beats_its_kingdom_and_credits_the_captor() {
    let mut pos = position(
        "wR a5, rQ c5, rS f1, oQ e5, oS s19, bG s1, bQ s10",
        'w',
        Rules::default(),
    );
    let r = play(&mut pos, "a5c5");
    assert_eq!(
        pos.standing(Chu),
        Standing::Beaten {
            victor: Qin,
            general_captured: true
        }
    );
    assert_eq!(pos.generals_taken(Qin), 1);
    assert_eq!(
        r[0].fallen.as_ref().unwrap().army,
        vec![("f1".parse().unwrap(), Piece::new(Chu, PieceKind::Swordsman))]
    );
    assert_eq!(pos.piece_at("f1".parse().unwrap()), None);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn kingdom_goal_two_generals_or_two_kingdoms() {
    let diagram = "wR a5, rQ c5, rG k1, oQ e5, oG m1, bQ s19, bG s1";
    for (preset, victory) in [
        (Preset::Classic, Victory::Generals),
        (Preset::Leventhal, Victory::Generals),
        (Preset::Wikipedia, Victory::Kingdoms),
        (Preset::Elephantchess, Victory::Kingdoms),
    ] {
        let mut pos = position(diagram, 'w', Rules::preset(preset));
        play(&mut pos, "a5c5");
        assert_eq!(pos.outcome(), None, "{preset}: one is not enough");
        let r = play(&mut pos, "m1m2 s1s2 c5e5");
        let outcome = pos.outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.victory),
            (Qin, victory),
            "{preset}"
        );
        assert_eq!(r[2].outcome, Some(outcome));
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.play(Move::PASS), Err(IllegalMove::GameOver));
    }
    // Beating two kingdoms without their Generals does not meet the classic goal.
    let mut r = Rules::preset(Preset::Classic);
    r.kingdom_goal = KingdomGoal::TwoKingdoms;
    assert_eq!(r.matching_preset(), None);
}

/// Under `ludii` a goal reached ends the game, and the most captures win it: Qin takes its
/// second General with two captures while Qi has taken three of Han's swordsmen.
#[test]
fn under_ludii_a_goal_ends_the_game_and_the_most_captures_win() {
    let diagram = "wR a5, wS a19, rQ c5, rG k1, oQ e5, oG m1, oS s3, oS s5, oS s7, bQ s19, bR s1";
    let moves = "a5c5 m1m2 s1s3 a19a18 m2m1 s3s5 a18a17 m1m2 s5s7 c5e5";
    for (preset, winner, victory) in [
        (Preset::Leventhal, Qin, Victory::Generals),
        (Preset::Ludii, Qi, Victory::MostCaptures),
    ] {
        let mut pos = position(diagram, 'w', Rules::preset(preset));
        play(&mut pos, moves);
        assert_eq!((pos.captures(Qin), pos.captures(Qi)), (2, 3), "{preset}");
        let outcome = pos.outcome().expect("two Generals taken");
        assert_eq!(
            (outcome.winner, outcome.victory),
            (winner, victory),
            "{preset}"
        );
        assert!(pos.legal_moves().is_empty());
    }
}

#[test]
fn capture_goal_thirty_or_more_than_thirty() {
    // Qin's Chancellor runs along rank 1 and up file s through 36 pieces of four kingdoms,
    // nine each, so nobody is beaten; the others shuffle go-betweens in the middle.
    let owners = ['r', 'o', 'b', 'g'];
    let mut targets = Vec::new();
    for f in 1..19u8 {
        targets.push(format!("{}1", (b'a' + f) as char));
    }
    for r in 2..=19 {
        targets.push(format!("s{r}"));
    }
    let mut diagram = String::from("wR a1, rG e5, oG g5, bG i5, gG l5");
    for (i, t) in targets.iter().enumerate() {
        diagram.push_str(&format!(", {}S {t}", owners[i % 4]));
    }
    for (preset, goal) in [
        (Preset::Classic, 30),
        (Preset::Wikipedia, 31),
        (Preset::Elephantchess, 30),
    ] {
        let mut pos = position(&diagram, 'w', Rules::preset(preset));
        let mut at = "a1".to_string();
        for (i, t) in targets.iter().enumerate() {
            play(&mut pos, &format!("{at}{t}"));
            at = t.clone();
            if let Some(o) = pos.outcome() {
                assert_eq!((o.winner, o.victory), (Qin, Victory::Captures), "{preset}");
                assert_eq!(i + 1, goal, "{preset}");
                break;
            }
            let shuffle = if i % 2 == 0 {
                "e5e6 g5g6 i5i6 l5l6"
            } else {
                "e6e5 g6g5 i6i5 l6l5"
            };
            play(&mut pos, shuffle);
        }
        assert_eq!(pos.captures(Qin), goal as u32, "{preset}");
    }
}

#[test]
fn the_last_kingdom_left_wins() {
    let mut pos = position("wR a5, rQ c5, rG k1", 'w', Rules::default());
    play(&mut pos, "a5c5");
    let o = pos.outcome().unwrap();
    assert_eq!(
        (o.winner, o.victory, o.player),
        (Qin, Victory::LastKingdom, 0)
    );
    // A position with one kingdom is already over.
    let pos = position("wR a5", 'w', Rules::default());
    assert_eq!(pos.outcome().unwrap().victory, Victory::LastKingdom);
}

fn allied(pieces: &str, seats: [Option<u8>; 7]) -> Position {
    Position::new(
        &setup(pieces, 'w'),
        Rules::default(),
        Seats::new(seats).unwrap(),
    )
    .unwrap()
}

#[test]
fn attacking_an_ally_forfeits_it_to_nobody() {
    // Qin and Chu are held by player 0; Han by 1, Qi by 2.
    let mut pos = allied(
        "wR a5, rS c5, rQ f1, rG k1, oQ n1, bQ s6",
        [Some(0), Some(0), Some(1), Some(2), None, None, None],
    );
    let mv = notation::parse_move("a5c5").unwrap();
    assert_eq!(pos.forfeits_ally(mv), Some(Chu));
    assert_eq!(
        pos.forfeits_ally(notation::parse_move("a5a6").unwrap()),
        None
    );
    let report = pos.play(mv).unwrap();
    assert_eq!(pos.standing(Chu), Standing::Forfeited { by: Qin });
    assert_eq!(report.fallen.as_ref().unwrap().army.len(), 2);
    assert_eq!(pos.army_size(Chu), 0);
    assert_eq!(pos.captures(Qin), 0, "credited to nobody");
    assert_eq!(pos.losses(Chu), 0);
    assert_eq!(pos.kingdoms_taken(Qin), 0);
    assert_eq!(pos.to_move(), Han);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn the_last_player_left_wins_even_with_several_kingdoms() {
    let mut pos = allied(
        "wR a5, oQ c5, oG k1, rQ f1",
        [Some(0), Some(0), Some(1), None, None, None, None],
    );
    play(&mut pos, "a5c5");
    let o = pos.outcome().unwrap();
    assert_eq!(
        (o.winner, o.player, o.victory),
        (Qin, 0, Victory::LastKingdom)
    );
}

#[test]
fn goals_add_up_over_a_players_kingdoms() {
    // Qin and Chu (player 0) each take one General; Wei stays in, so it is the kingdom goal.
    let mut pos = allied(
        "wR a5, oQ c5, oG k1, rR a15, bQ c15, bG s1, gQ s19, gG q10",
        [Some(0), Some(0), Some(1), Some(2), Some(3), None, None],
    );
    play(&mut pos, "a5c5");
    assert_eq!(pos.kingdom_goal_progress(Chu), 1);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a15c15");
    let o = pos.outcome().unwrap();
    assert_eq!((o.winner, o.player, o.victory), (Chu, 0, Victory::Generals));
}

#[test]
fn a_kingdom_without_moves_passes() {
    // Chu's General is boxed in by go-betweens, which it cannot capture.
    let mut pos = position("wS s10, wG a2, wG b1, wG b2, rQ a1", 'w', Rules::default());
    assert_eq!(pos.play(Move::PASS), Err(IllegalMove::PassNotAllowed));
    play(&mut pos, "s10s11");
    assert_eq!(pos.legal_moves(), vec![Move::PASS]);
    assert_eq!(
        pos.play(notation::parse_move("a1a2").unwrap()),
        Err(IllegalMove::Unreachable {
            piece: Piece::new(Chu, PieceKind::General),
            mv: notation::parse_move("a1a2").unwrap()
        })
    );
    let r = pos.play(Move::PASS).unwrap();
    assert_eq!(r.piece, None);
    assert_eq!(pos.to_move(), Qin);
    let mut blocked = position("wS s10, wG a2, wG b1, wG b2, rQ a1", 'r', Rules::default());
    assert_eq!(
        blocked.perft(1),
        1,
        "the pass counts as the blocked kingdom's one move"
    );
}

#[test]
fn ending_early_gives_the_game_to_the_most_captures() {
    let mut pos = position(
        "wR a5, rS c5, rQ r1, oR a15, bS c15, bS e15, bQ s1",
        'w',
        Rules::default(),
    );
    play(&mut pos, "a5c5 r1r2 a15c15 s1s2 c5c6 r2r1 c15e15 s2s1");
    assert_eq!((pos.captures(Qin), pos.captures(Han)), (1, 2));
    let o = pos.end_by_agreement();
    assert_eq!((o.winner, o.victory), (Han, Victory::EarlyEnd));
    assert_eq!(pos.outcome(), Some(o));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.end_by_agreement(), o, "ending twice changes nothing");
}

#[test]
fn wrong_turn_and_empty_points_are_refused() {
    let mut pos = Position::start(Rules::default());
    let before = pos.clone();
    let cases = [
        ("f1f2", "belongs to Chu, but Qin is to move"),
        ("j9j8", "no piece on j9"),
        ("a10a12", "cannot move a10a12"),
    ];
    for (text, msg) in cases {
        let e = pos.play(notation::parse_move(text).unwrap()).unwrap_err();
        assert!(e.to_string().contains(msg), "{text}: {e}");
    }
    assert_eq!(pos, before);
}

/// Chu concedes after the first moves of the victor diagram (Qin took one of its pieces, Han
/// none yet): under `MostOfItsPieces` Qin is credited; the army goes by the preset's rule.
fn concede_after(moves: &str, rules: Rules) -> (Position, qiguo_rules::MoveReport) {
    let mut pos = position(VICTOR_DIAGRAM, 'w', rules);
    play(&mut pos, moves);
    assert_eq!(pos.to_move(), Chu);
    let report = pos.play(Move::CONCEDE).unwrap();
    (pos, report)
}

#[test]
fn a_conceded_kingdom_falls_to_who_took_most_of_its_pieces() {
    let army = |pos: &Position, k| pos.army(k).count();
    // Removed (classic): Qin took a piece of Chu's, so Qin is credited; the army leaves.
    let (pos, report) = concede_after(
        "a5c5",
        rules(11, VictorRule::MostOfItsPieces, BeatenArmy::Removed),
    );
    assert_eq!(pos.standing(Chu), Standing::Conceded { victor: Some(Qin) });
    assert_eq!(pos.kingdoms_taken(Qin), 1);
    assert_eq!(army(&pos, Chu), 0);
    let fallen = report.fallen.unwrap();
    assert_eq!(
        (fallen.kingdom, fallen.army.len(), fallen.transferred_to),
        (Chu, 5, None)
    );
    assert_eq!(report.mover, Chu);
    assert_eq!((report.piece, report.captured), (None, None));
    // The turn passes on; Chu is out of the turn order.
    assert_eq!(pos.to_move(), Han);
    assert!(!pos.alive().contains(Chu));

    // Transferred (wikipedia): Qin receives Chu's five remaining pieces.
    let (pos, report) = concede_after(
        "a5c5",
        rules(11, VictorRule::MostOfItsPieces, BeatenArmy::Transferred),
    );
    assert_eq!(report.fallen.unwrap().transferred_to, Some(Qin));
    assert_eq!(army(&pos, Qin), 3 + 5);
    assert_eq!(
        pos.piece_at("r19".parse().unwrap()),
        Some(Piece::new(Qin, PieceKind::General))
    );
}

#[test]
fn a_kingdom_conceded_before_anyone_took_a_piece_leaves_with_no_victor() {
    for army_rule in [BeatenArmy::Removed, BeatenArmy::Transferred] {
        let mut pos = position(
            VICTOR_DIAGRAM,
            'r',
            rules(11, VictorRule::MostOfItsPieces, army_rule),
        );
        let report = pos.play(Move::CONCEDE).unwrap();
        assert_eq!(pos.standing(Chu), Standing::Conceded { victor: None });
        assert_eq!(pos.army(Chu).count(), 0, "{army_rule:?}: the army leaves");
        assert_eq!(report.fallen.unwrap().transferred_to, None);
        assert_eq!(
            pos.army(Qin).count(),
            3,
            "{army_rule:?}: nobody receives it"
        );
        assert!((0..7).all(|k| pos.kingdoms_taken(Kingdom::ALL[k]) == 0));
    }
}

#[test]
fn under_elephantchess_the_most_captures_overall_gets_a_conceded_army_as_captures() {
    // Han has taken a Qi piece, Qin none: Han is credited with Chu, whose 6 pieces count as
    // Han's captures.
    let mut pos = position(VICTOR_DIAGRAM, 'w', Rules::preset(Preset::Elephantchess));
    play(&mut pos, "a19a18 k1k2 a15c15 s1s2 a18a17");
    assert_eq!(pos.to_move(), Chu);
    pos.play(Move::CONCEDE).unwrap();
    assert_eq!(pos.standing(Chu), Standing::Conceded { victor: Some(Han) });
    assert_eq!(pos.captures(Han), 1 + 6);
    assert_eq!(pos.army(Han).count(), 3 + 6);
}

#[test]
fn conceding_the_last_rival_gives_the_game_to_the_other_player() {
    let mut pos = position(
        "wQ a1, wR a5, rQ s19, rR s15",
        'r',
        Rules::preset(Preset::Classic),
    );
    let report = pos.play(Move::CONCEDE).unwrap();
    let outcome = report.outcome.unwrap();
    assert_eq!(
        (outcome.winner, outcome.victory),
        (Qin, Victory::LastKingdom)
    );
    assert!(pos.is_over());
    assert_eq!(pos.play(Move::CONCEDE), Err(IllegalMove::GameOver));
}

#[test]
fn a_concession_is_written_read_undone_and_replayed_like_a_move() {
    let mut game = qiguo_rules::Game::new(position(
        VICTOR_DIAGRAM,
        'w',
        rules(11, VictorRule::MostOfItsPieces, BeatenArmy::Transferred),
    ));
    let before = {
        game.play(notation::parse_move("a5c5").unwrap()).unwrap();
        game.position().clone()
    };
    game.play(notation::parse_move("concede").unwrap()).unwrap();
    assert_eq!(game.last_report().unwrap().mv, Move::CONCEDE);
    assert!(!game.position().alive().contains(Chu));
    assert_eq!(Move::from_bits(Move::CONCEDE.bits()), Some(Move::CONCEDE));
    assert_ne!(Move::CONCEDE.bits(), Move::PASS.bits());
    assert!(!Move::CONCEDE.is_pass() && Move::CONCEDE.moves_no_piece());
    // Never offered to the search.
    assert!(!before.legal_moves().contains(&Move::CONCEDE));
    // Undo gives everything back, hash included; redo plays it again.
    assert!(game.undo());
    assert_eq!(game.position(), &before);
    assert_eq!(game.position().hash(), before.hash());
    assert!(game.redo().is_some());
    // The record writes it as `concede` and replays it.
    let record = qiguo_rules::Record::from_game(&game, qiguo_rules::PlayerInfo::defaults(7));
    assert_eq!(record.moves.last().map(String::as_str), Some("concede"));
    let replayed = qiguo_rules::Record::from_json(&record.to_json())
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed.position(), game.position());
}
