//! Every piece on small diagrams: ranges, blocking, board edges, captures, the cannon's screen,
//! the knight's leg and diagonal, the go-between's and the Emperor's immunity, and the options
//! that change how pieces move.

mod common;

use common::{dests, names, position};
use qiguo_rules::{Kingdom, KingdomSet, KnightMove, Point, Preset, RangedMove, Rules};

fn classic() -> Rules {
    Rules::preset(Preset::Classic)
}

fn leventhal() -> Rules {
    Rules::preset(Preset::Leventhal)
}

#[test]
fn general_moves_any_distance_in_eight_directions() {
    let pos = position("wQ a1", 'w', classic());
    // Corner: 18 up the file, 18 along the rank, and the diagonal stops at the Emperor (j10).
    assert_eq!(dests(&pos, "a1").len(), 18 + 18 + 8);
    assert!(!dests(&pos, "a1").contains(&"j10".to_string()));
    assert!(dests(&pos, "a1").contains(&"i9".to_string()));
}

#[test]
fn rays_stop_at_friends_capture_foes_and_halt_at_go_betweens() {
    // Chancellor on c3: own swordsman on c5, enemy knight on f3, a foreign go-between on a3,
    // the board edge below.
    let pos = position("wR c3, wS c5, rN f3, rG a3", 'w', classic());
    assert_eq!(dests(&pos, "c3"), names("c4 d3 e3 f3 b3 c2 c1"));
    // Own go-between blocks too.
    let pos = position("wR c3, wG c4", 'w', classic());
    assert!(
        !dests(&pos, "c3")
            .iter()
            .any(|d| d.starts_with('c') && d != "c2" && d != "c1")
    );
}

#[test]
fn diplomat_moves_diagonally_only() {
    let pos = position("wB b2, oS d4", 'w', classic());
    assert_eq!(dests(&pos, "b2"), names("a1 c3 d4 a3 c1"));
}

#[test]
fn the_emperor_blocks_and_cannot_be_captured() {
    let pos = position("wR j5, wB e5", 'w', classic());
    let up_file: Vec<_> = dests(&pos, "j5")
        .into_iter()
        .filter(|d| d.starts_with('j') && d.len() > 2)
        .collect();
    assert!(up_file.is_empty(), "{up_file:?}"); // j10 blocks j10..j19
    assert!(dests(&pos, "j5").contains(&"j9".to_string()));
    assert!(dests(&pos, "e5").contains(&"i9".to_string()));
    assert!(!dests(&pos, "e5").contains(&"j10".to_string()));
    assert!(!dests(&pos, "e5").contains(&"k11".to_string()));
    assert!(pos.moves_from(Point::EMPEROR).is_empty());
    assert_eq!(pos.piece_at(Point::EMPEROR), None);
}

#[test]
fn cannon_moves_onto_empty_points_and_captures_over_one_screen() {
    // Screen: own swordsman e3; beyond it empty points then an enemy on e7.
    let pos = position("wC e1, wS e3, rS e7, rS a1", 'w', classic());
    let d = dests(&pos, "e1");
    assert!(d.contains(&"e2".to_string()));
    assert!(!d.contains(&"e3".to_string()) && !d.contains(&"e4".to_string()));
    assert!(
        d.contains(&"e7".to_string()),
        "captures over the screen, passing e4–e6"
    );
    // Along the rank west: a1 is adjacent with no screen — no capture, quiet moves to d1..b1.
    assert!(d.contains(&"b1".to_string()) && !d.contains(&"a1".to_string()));
}

#[test]
fn cannon_screens_can_be_anything_but_only_one() {
    for screen in ["rS", "wS", "oG", "wG"] {
        let pos = position(&format!("wC a5, {screen} c5, bN g5"), 'w', classic());
        assert!(dests(&pos, "a5").contains(&"g5".to_string()), "{screen}");
    }
    // The Emperor as a screen: cannon on j3, Emperor j10, enemy on j14.
    let pos = position("wC j3, rS j14", 'w', classic());
    assert!(dests(&pos, "j3").contains(&"j14".to_string()));
    // The first piece beyond the screen is the target; nothing further.
    let pos = position("wC a5, rS c5, rS d5, bN g5", 'w', classic());
    assert!(!dests(&pos, "a5").contains(&"g5".to_string()));
    assert!(dests(&pos, "a5").contains(&"d5".to_string()));
}

#[test]
fn cannon_cannot_capture_friends_go_betweens_or_the_emperor() {
    let pos = position("wC a5, rS c5, wN g5", 'w', classic());
    assert!(!dests(&pos, "a5").contains(&"g5".to_string()));
    let pos = position("wC a5, rS c5, bG g5", 'w', classic());
    assert!(!dests(&pos, "a5").contains(&"g5".to_string()));
    // The Emperor right after a screen is not a target, and nothing beyond it either.
    let pos = position("wC a10, rS e10, oS m10", 'w', classic());
    assert!(
        !dests(&pos, "a10")
            .iter()
            .any(|d| d.ends_with("10") && d != "b10" && d != "c10" && d != "d10")
    );
}

#[test]
fn under_ludii_a_cannon_captures_over_its_own_kingdoms_pieces_only() {
    let ludii = Rules::preset(Preset::Ludii);
    let target: Point = "g5".parse().unwrap();
    // Own swordsman, General and go-between screen; another kingdom's pieces do not.
    for (screen, captures) in [
        ("wS", true),
        ("wQ", true),
        ("wG", true),
        ("rS", false),
        ("oG", false),
    ] {
        let pos = position(&format!("wC a5, {screen} c5, bN g5"), 'w', ludii);
        let d = dests(&pos, "a5");
        assert_eq!(d.contains(&"g5".to_string()), captures, "{screen}");
        assert_eq!(
            pos.is_attacked(target, KingdomSet::ALL),
            captures,
            "{screen}"
        );
        // Its quiet moves are those of any other preset.
        let lev = position(&format!("wC a5, {screen} c5, bN g5"), 'w', leventhal());
        let quiet = |d: &[String]| d.iter().filter(|p| *p != "g5").cloned().collect::<Vec<_>>();
        assert_eq!(quiet(&d), quiet(&dests(&lev, "a5")), "{screen}");
    }
    // The Emperor is no screen for a capture.
    let pos = position("wC j3, rS j14", 'w', ludii);
    assert!(!dests(&pos, "j3").contains(&"j14".to_string()));
}

#[test]
fn go_between_moves_freely_never_captures_and_is_never_captured() {
    let pos = position("wG c3, rS c5, rQ e5", 'w', classic());
    let d = dests(&pos, "c3");
    assert!(d.contains(&"c4".to_string()) && !d.contains(&"c5".to_string()));
    assert!(d.contains(&"d4".to_string()) && !d.contains(&"e5".to_string()));
    // No piece of any kind captures a go-between.
    let attackers = "rQ c10, rR c1, rB a5, rC c18, rH g7, rW h3, rA d4, rS c6, rN e4";
    let pos = position(&format!("wG c5, wS c17, {attackers}"), 'r', classic());
    for mv in pos.legal_moves() {
        assert_ne!(mv.to().unwrap().to_string(), "c5", "{mv}");
    }
}

#[test]
fn archer_and_crossbowman_up_to_and_exactly() {
    let pos = position("wH e5, wW k15", 'w', classic());
    assert_eq!(dests(&pos, "e5").len(), 8 * 4);
    // Crossbowman on k15: south ray ends at k11, above the Emperor.
    // N 4 (edge), S 5 (k10 is not the Emperor's point), E 5, W 5, NE 4, NW 4, SE 5, SW 5.
    assert_eq!(dests(&pos, "k15").len(), 4 + 5 + 5 + 5 + 4 + 4 + 5 + 5);
    let pos = position("wH e5, wW k15", 'w', leventhal());
    assert_eq!(dests(&pos, "e5"), names("e9 e1 a5 i5 a1 a9 i1 i9"));
    assert_eq!(dests(&pos, "k15"), names("k10 f15 p15 f10 p10"));
    // Up to: stops at a blocker; exactly: the path must be clear.
    let pos = position("wH e5, rS e7, wS i5", 'w', classic());
    assert!(dests(&pos, "e5").contains(&"e7".to_string()));
    assert!(!dests(&pos, "e5").contains(&"e8".to_string()));
    let lev = position("wH e5, rS e7, rS e9, rS a5", 'w', leventhal());
    assert!(
        !dests(&lev, "e5").contains(&"e9".to_string()),
        "path blocked"
    );
    assert!(
        dests(&lev, "e5").contains(&"a5".to_string()),
        "captures at exactly 4"
    );
    // At the edge: a point 4 away that is off the board is not a move.
    let lev = position("wH b2", 'w', leventhal());
    assert_eq!(dests(&lev, "b2"), names("b6 f2 f6"));
}

#[test]
fn dagger_and_swordsman_step_once() {
    let pos = position("wA e5, wS k5, rS f6, wS d4", 'w', classic());
    assert_eq!(dests(&pos, "e5"), names("f6 d6 f4"));
    assert_eq!(dests(&pos, "k5"), names("k6 k4 j5 l5"));
    let corner = position("wS a1, wA s19", 'w', classic());
    assert_eq!(dests(&corner, "a1"), names("a2 b1"));
    assert_eq!(dests(&corner, "s19"), names("r18"));
}

#[test]
fn knight_steps_then_runs_diagonally_outward() {
    let pos = position("wN e5", 'w', classic());
    // Leg north to e6, then north-west d7 c8 b9 and north-east f7 g8 h9; leg east to f5,
    // then g6 h7 i8 and g4 h3 i2; and so on.
    assert_eq!(
        dests(&pos, "e5"),
        names("d7 c8 b9 f7 g8 h9  g6 h7 i8 g4 h3 i2  f3 g2 h1 d3 c2 b1  c4 b3 a2 c6 b7 a8")
    );
    // Exactly three under leventhal.
    let lev = position("wN e5", 'w', leventhal());
    assert_eq!(dests(&lev, "e5"), names("b9 h9 i8 i2 h1 b1 a2 a8"));
}

#[test]
fn knight_leg_is_blocked_by_any_piece_or_the_emperor() {
    let pos = position("wN e5, rS e6", 'w', classic());
    assert!(
        !dests(&pos, "e5")
            .iter()
            .any(|d| ["d7", "f7", "c8", "g8"].contains(&d.as_str()))
    );
    let pos = position("wN e5, wG e6", 'w', classic());
    assert!(!dests(&pos, "e5").contains(&"d7".to_string()));
    // Knight on j9: its north leg is the Emperor.
    let pos = position("wN j9", 'w', classic());
    assert!(!dests(&pos, "j9").contains(&"i11".to_string()));
    assert!(dests(&pos, "j9").contains(&"l10".to_string()));
}

#[test]
fn knight_diagonal_stops_at_the_first_piece() {
    let pos = position("wN e5, rS f7, wS d7", 'w', classic());
    let d = dests(&pos, "e5");
    assert!(d.contains(&"f7".to_string()), "captures the first piece");
    assert!(!d.contains(&"g8".to_string()) && !d.contains(&"h9".to_string()));
    assert!(!d.contains(&"d7".to_string()) && !d.contains(&"c8".to_string()));
    // Exactly three: both points in between must be empty; the third may be captured.
    let lev = position("wN e5, rS h9, rS h3", 'w', leventhal());
    let d = dests(&lev, "e5");
    assert!(d.contains(&"h9".to_string()));
    assert!(!d.contains(&"i2".to_string()), "h3 is in the way");
}

#[test]
fn knight_at_the_edge() {
    let pos = position("wN a1", 'w', classic());
    // Leg north to a2 (only north-east is on the board), leg east to b1 (only north-east).
    assert_eq!(dests(&pos, "a1"), names("b3 c4 d5 c2 d3 e4"));
}

#[test]
fn options_change_only_their_pieces() {
    let mut rules = classic();
    rules.knight = KnightMove::ExactlyThree;
    let pos = position("wN e5, wH k5", 'w', rules);
    assert_eq!(dests(&pos, "e5").len(), 8);
    assert_eq!(
        dests(&pos, "k5").len(),
        8 * 4,
        "the archer still moves up to 4"
    );
    let mut rules = classic();
    rules.ranged = RangedMove::Exactly;
    let pos = position("wN e5, wH k5", 'w', rules);
    assert_eq!(dests(&pos, "e5").len(), 24);
    assert_eq!(dests(&pos, "k5").len(), 8);
}

#[test]
fn threatened_points_follow_captures_not_moves() {
    // Qin's cannon on a1 behind a screen on a3 threatens the first stone beyond it (a4, or a5
    // with a4 empty, ...), not a2 where it merely moves; Chu's swordsman on k5 is attacked by
    // Qin's swordsman on k4.
    let pos = position("wC a1, rS a3, wS k4, rS k5, rQ s19", 'r', classic());
    let threatened = pos.threatened_points(Kingdom::Chu, KingdomSet::ALL);
    let has = |p: &str| threatened.contains(&p.parse().unwrap());
    assert!(has("a4") && has("a5") && has("a19"));
    assert!(!has("a2"), "a cannon moves there but cannot capture there");
    assert!(has("k5"), "Chu's swordsman can be taken");
    assert!(
        has("l4") && has("j4") && has("k3"),
        "around Qin's swordsman"
    );
    assert!(!has("b1"), "no screen on the first rank");
    assert!(!has("s19"), "nothing reaches Chu's General");
    assert!(
        !has("a3"),
        "the screen is Chu's own stone, and no Qin piece takes it"
    );
    // Attackers of Chu's swordsman: Qin's swordsman alone.
    assert_eq!(
        pos.attackers_of("k5".parse().unwrap(), KingdomSet::ALL),
        vec!["k4".parse::<Point>().unwrap()]
    );
    // Qin is Chu's only enemy in the game (the other kingdoms have no pieces).
    assert_eq!(
        pos.enemies(Kingdom::Chu),
        [Kingdom::Qin].into_iter().collect::<KingdomSet>()
    );
    // A kingdom never threatens itself, nor do its allies.
    let chu_only: KingdomSet = [Kingdom::Chu].into_iter().collect();
    assert!(pos.threatened_points(Kingdom::Chu, chu_only).is_empty());
}

#[test]
fn defenders_are_the_pieces_that_would_take_back() {
    // Qin's swordsman on k4 is guarded by Qin's swordsman on k3 (one point orthogonally); not
    // by the chancellor on k1 (k3 stands between), not by the swordsman on j3 (diagonal), not by
    // the general on a1; Chu's chancellor on a4 attacks it along the rank.
    let pos = position(
        "wS k4, wR k1, wS j3, wS k3, rR a4, rQ s19, wQ a1",
        'w',
        classic(),
    );
    let point = |p: &str| p.parse::<Point>().unwrap();
    let sorted = |mut v: Vec<Point>| {
        v.sort_by_key(|p| p.to_string());
        v
    };
    assert_eq!(
        pos.defenders_of(point("k4"), Kingdom::Qin),
        vec![point("k3")]
    );
    assert_eq!(
        pos.attackers_of(point("k4"), KingdomSet::ALL),
        vec![point("a4")]
    );
    // An empty point is guarded by what could take there: j3 from below, k4 from the side.
    assert_eq!(
        sorted(pos.defenders_of(point("j4"), Kingdom::Qin)),
        vec![point("j3"), point("k4")]
    );
    // For Chu the same point is covered by its chancellor; the Emperor's point by nobody.
    assert_eq!(
        pos.defenders_of(point("k4"), Kingdom::Chu),
        vec![point("a4")]
    );
    assert!(pos.defenders_of(point("j10"), Kingdom::Qin).is_empty());
}
