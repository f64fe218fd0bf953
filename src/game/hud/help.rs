//! Help inside the game: a card for the hovered stone (its names, kingdom, how it moves under
//! the rules of this game as a small diagram, and how many moves it has now), and the *Rules*
//! window (the rules this game plays, in words, and how the presets differ). The words come
//! from the rules in force, so they never disagree with the game.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_rules::{
    BeatenArmy, Board, KingdomGoal, KnightMove, Piece, PieceKind, Point, Position, Preset,
    RangedMove, Rules, Seats, Setup, VictorRule,
};

use super::kingdom_style;
use super::status::capitalise;
use super::{badge, c32};
use crate::game::selection::Hover;
use crate::game::state::{Match, Review, Turn};

/// Seconds the pointer rests on a stone before its card shows.
pub const CARD_DELAY: f32 = 0.6;
/// Points either side of the piece in the card's diagram.
const REACH: i8 = 5;
/// Where the diagram's piece stands on its otherwise empty board: no line, diagonal or knight
/// move from there meets the Emperor (two files east and four ranks north of it).
const DIAGRAM_POINT: (u8, u8) = (7, 5);

/// What the card says about one stone.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceCard {
    /// The piece.
    pub piece: Piece,
    /// Where it stands.
    pub point: Point,
    /// Its legal moves now, if it were its kingdom's turn.
    pub moves_now: usize,
    /// Where it could go on an empty board (offsets east and north), under these rules.
    pub reach: Vec<(i8, i8)>,
    /// The Emperor's offset in the diagram, if inside it.
    pub emperor: Option<(i8, i8)>,
    /// How it moves, in words, under these rules.
    pub how: String,
}

impl PieceCard {
    /// The card of the stone on `point` in `pos`; `None` for an empty point or the Emperor.
    pub fn of(pos: &Position, point: Point) -> Option<PieceCard> {
        let piece = pos.piece_at(point)?;
        let rules = *pos.rules();
        let (reach, emperor) = reach(piece, rules);
        Some(PieceCard {
            piece,
            point,
            moves_now: pos.moves_from(point).len(),
            reach,
            emperor,
            how: how_it_moves(piece.kind, &rules),
        })
    }
}

/// The offsets a piece reaches from [`DIAGRAM_POINT`] on an empty board, and the Emperor's.
fn reach(piece: Piece, rules: Rules) -> (Vec<(i8, i8)>, Option<(i8, i8)>) {
    let centre = Point::new(DIAGRAM_POINT.0, DIAGRAM_POINT.1).expect("on the board");
    let mut board = Board::empty();
    board.set(centre, Some(piece));
    let setup = Setup {
        board,
        to_move: piece.kingdom,
    };
    let offset = |p: Point| {
        (
            p.file() as i8 - centre.file() as i8,
            p.rank() as i8 - centre.rank() as i8,
        )
    };
    let Ok(alone) = Position::new(&setup, rules, Seats::seven()) else {
        return (Vec::new(), None);
    };
    let reach = alone
        .moves_from(centre)
        .into_iter()
        .filter_map(|m| m.to())
        .map(offset)
        .filter(|(x, y)| x.abs() <= REACH && y.abs() <= REACH)
        .collect();
    let emperor =
        Some(offset(Point::EMPEROR)).filter(|(x, y)| x.abs() <= REACH && y.abs() <= REACH);
    (reach, emperor)
}

/// How a kind of piece moves under `rules`, in a sentence.
pub fn how_it_moves(kind: PieceKind, rules: &Rules) -> String {
    let ranged = |n: u32| match rules.ranged {
        RangedMove::UpTo => format!("1 to {n} points along a line or a diagonal"),
        RangedMove::Exactly => {
            format!("exactly {n} points along a line or a diagonal, over empty points")
        }
    };
    match kind {
        PieceKind::General => "Any distance along a line or a diagonal. Losing it loses the kingdom.".into(),
        PieceKind::Chancellor => "Any distance along a line.".into(),
        PieceKind::Diplomat => "Any distance along a diagonal.".into(),
        PieceKind::Cannon => "Any distance along a line onto empty points; captures only by jumping exactly one piece (any piece, the Emperor too) onto the first piece behind it.".into(),
        PieceKind::GoBetween => "Any distance along a line or a diagonal onto empty points; never captures and is never captured.".into(),
        PieceKind::Archer => format!("{}.", capitalise(&ranged(4))),
        PieceKind::Crossbowman => format!("{}.", capitalise(&ranged(5))),
        PieceKind::Dagger => "One point diagonally.".into(),
        PieceKind::Swordsman => "One point along a line.".into(),
        PieceKind::Knight => match rules.knight {
            KnightMove::UpToThree => "One point along a line (which must be empty), then 1 to 3 points diagonally outward, stopping at the first piece.".into(),
            KnightMove::ExactlyThree => "One point along a line (which must be empty), then exactly 3 points diagonally outward over empty points.".into(),
        },
    }
}

/// The rules in force, section by section: how kingdoms fall and how to win, in words.
pub fn rules_sections(rules: &Rules) -> Vec<(&'static str, Vec<String>)> {
    let beaten = match rules.beaten_army {
        BeatenArmy::Removed => "Its remaining army leaves the board.".to_string(),
        BeatenArmy::Transferred => {
            "Its remaining army goes to the victor and takes the victor's colour.".to_string()
        }
        BeatenArmy::TransferredAsCaptures => "Its remaining army goes to the victor, takes the victor's colour and counts as the victor's captures.".to_string(),
    };
    let victor = match rules.victor {
        VictorRule::MostOfItsPieces => {
            "The victor is the kingdom that took its General; otherwise the kingdom still in the game that captured most of its pieces."
        }
        VictorRule::MostCapturesOverall => {
            "The victor is the kingdom that took its General; otherwise the kingdom still in the game with the most captures of all."
        }
    };
    let goal = match rules.kingdom_goal {
        KingdomGoal::TwoGenerals => "capture two Generals",
        KingdomGoal::TwoKingdoms => "beat two kingdoms (be the victor of two)",
    };
    vec![
        (
            "This game",
            vec![
                format!("Rules: {}.", preset_title(rules)),
                "Seven kingdoms move in turn, counter-clockwise from Qin in the west. The Emperor (周) in the centre never moves and is never captured; he blocks lines and knights, and a cannon may jump him.".into(),
                "There is no check: nothing forces you to protect an attacked General.".into(),
            ],
        ),
        (
            "How kingdoms fall",
            vec![
                "Every piece taken is a capture for the taker and a loss for its owner.".into(),
                format!(
                    "A kingdom is beaten when its General is captured, or when its losses reach {}.",
                    rules.beaten_at_losses
                ),
                victor.into(),
                beaten,
                "A kingdom with no legal move passes.".into(),
                "Taking a piece of an ally (a kingdom of the same player) makes the ally forfeit: all its pieces leave the board. The game asks first.".into(),
            ],
        ),
        (
            "How to win",
            vec![
                format!("First, {goal}."),
                format!(
                    "Or capture {} pieces (a player's kingdoms count together).",
                    capture_goal(rules)
                ),
                "Or be the last player left in the game.".into(),
            ],
        ),
    ]
}

fn capture_goal(rules: &Rules) -> String {
    // The goal is stored as the count that wins: 31 reads "more than 30".
    if rules.capture_goal % 10 == 1 {
        format!("more than {}", rules.capture_goal - 1)
    } else {
        format!("{} or more", rules.capture_goal)
    }
}

fn preset_title(rules: &Rules) -> String {
    match rules.matching_preset() {
        Some(p) => format!("the `{}` preset", p.name()),
        None => "custom options".into(),
    }
}

/// The rows of the preset comparison: an option, then its value under each preset.
pub fn preset_table() -> Vec<(&'static str, [String; 4])> {
    let of = |f: &dyn Fn(&Rules) -> String| Preset::ALL.map(|p| f(&Rules::preset(p)));
    vec![
        (
            "archer, crossbowman",
            of(&|r| match r.ranged {
                RangedMove::UpTo => "up to 4, 5".into(),
                RangedMove::Exactly => "exactly 4, 5".into(),
            }),
        ),
        (
            "knight's diagonal",
            of(&|r| match r.knight {
                KnightMove::UpToThree => "1 to 3".into(),
                KnightMove::ExactlyThree => "exactly 3".into(),
            }),
        ),
        ("beaten at losses", of(&|r| r.beaten_at_losses.to_string())),
        (
            "victor without the General",
            of(&|r| match r.victor {
                VictorRule::MostOfItsPieces => "most of its pieces".into(),
                VictorRule::MostCapturesOverall => "most captures".into(),
            }),
        ),
        (
            "beaten army",
            of(&|r| match r.beaten_army {
                BeatenArmy::Removed => "removed".into(),
                BeatenArmy::Transferred => "transferred".into(),
                BeatenArmy::TransferredAsCaptures => "transferred, as captures".into(),
            }),
        ),
        (
            "kingdom goal",
            of(&|r| match r.kingdom_goal {
                KingdomGoal::TwoGenerals => "2 Generals".into(),
                KingdomGoal::TwoKingdoms => "2 kingdoms".into(),
            }),
        ),
        ("capture goal", of(&capture_goal)),
    ]
}

/// What a card was made for: the stone's point, the turn and the position under review.
type CardKey = (Point, Turn, Option<usize>);

/// Whether the Rules window is open.
#[derive(Resource, Default, Debug)]
pub struct RulesWindow {
    /// Open or closed.
    pub open: bool,
}

/// F1 opens or closes the Rules window (as the toolbar's *Rules* does).
pub(super) fn rules_key(keys: Res<ButtonInput<KeyCode>>, mut rules: ResMut<RulesWindow>) {
    if keys.just_pressed(KeyCode::F1) {
        rules.open = !rules.open;
    }
}

/// The card of the stone under the pointer, after it has rested there a moment.
pub(super) fn piece_card(
    mut contexts: EguiContexts,
    hover: Res<Hover>,
    the_match: Res<Match>,
    review: Res<Review>,
    time: Res<Time>,
    mut since: Local<Option<(Point, f32)>>,
    mut cached: Local<Option<(CardKey, Option<PieceCard>)>>,
) -> Result {
    let Some(point) = hover.point else {
        *since = None;
        return Ok(());
    };
    let now = time.elapsed_secs();
    if since.is_none_or(|(p, _)| p != point) {
        *since = Some((point, now));
    }
    if since.is_some_and(|(_, t)| now - t < CARD_DELAY) {
        return Ok(());
    }
    // The card is made once per stone and position shown, not every frame (a reviewed
    // position is replayed from the start).
    let key = (point, the_match.turn(), review.ply);
    if cached.as_ref().is_none_or(|(k, _)| *k != key) {
        let card = PieceCard::of(&review.shown_position(&the_match), point);
        *cached = Some((key, card));
    }
    let Some((_, Some(card))) = cached.as_ref() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let Some(pointer) = ctx.pointer_latest_pos() else {
        return Ok(());
    };
    // Below the pointer in the upper half of the window, above it in the lower half.
    let lower = pointer.y > ctx.content_rect().center().y;
    let (pivot, offset) = if lower {
        (egui::Align2::LEFT_BOTTOM, egui::vec2(18.0, -18.0))
    } else {
        (egui::Align2::LEFT_TOP, egui::vec2(18.0, 18.0))
    };
    egui::Area::new(egui::Id::new("piece card"))
        .order(egui::Order::Tooltip)
        .pivot(pivot)
        .fixed_pos(pointer + offset)
        .constrain(true)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(300.0);
                card_contents(ui, card);
            });
        });
    Ok(())
}

fn card_contents(ui: &mut egui::Ui, card: &PieceCard) {
    let kind = card.piece.kind;
    ui.horizontal(|ui| {
        badge(ui, card.piece.kingdom, 22.0, false);
        ui.label(RichText::new(kind.characters()).size(24.0));
        ui.vertical(|ui| {
            ui.label(RichText::new(format!("{} · {}", kind.name(), kind.pinyin())).strong());
            ui.label(
                RichText::new(format!(
                    "{} {} · on {}",
                    card.piece.kingdom.character(),
                    card.piece.kingdom,
                    card.point
                ))
                .small(),
            );
        });
    });
    ui.label(&card.how);
    ui.horizontal(|ui| {
        diagram(ui, card);
        ui.vertical(|ui| {
            let moves = match card.moves_now {
                0 => "No move now".to_string(),
                1 => "1 move now".to_string(),
                n => format!("{n} moves now"),
            };
            ui.label(RichText::new(moves).strong());
            ui.label(
                RichText::new("On an empty board, as these rules play it. 周: the Emperor.")
                    .small()
                    .color(Color32::from_gray(160)),
            );
        });
    });
}

/// The piece in the middle of a small empty board, its reach marked.
fn diagram(ui: &mut egui::Ui, card: &PieceCard) {
    let cell = 10.0;
    let n = (2 * REACH + 1) as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(n * cell, n * cell), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, Color32::from_rgb(222, 190, 140));
    let at = |(x, y): (i8, i8)| rect.center() + egui::vec2(x as f32 * cell, -(y as f32) * cell);
    let line = egui::Stroke::new(0.6, Color32::from_rgb(120, 90, 60));
    for i in -REACH..=REACH {
        painter.line_segment([at((i, -REACH)), at((i, REACH))], line);
        painter.line_segment([at((-REACH, i)), at((REACH, i))], line);
    }
    let colour = c32(kingdom_style(painter.ctx(), card.piece.kingdom).stone);
    for &offset in &card.reach {
        painter.circle_filled(at(offset), 2.6, Color32::from_rgb(30, 150, 100));
    }
    if let Some(emperor) = card.emperor {
        painter.circle_filled(at(emperor), 4.0, Color32::from_rgb(230, 190, 40));
    }
    painter.circle_filled(at((0, 0)), 4.5, colour);
    painter.circle_stroke(
        at((0, 0)),
        4.5,
        egui::Stroke::new(1.0, Color32::from_gray(40)),
    );
}

/// The Rules window.
pub(super) fn rules_window(
    mut contexts: EguiContexts,
    mut window: ResMut<RulesWindow>,
    the_match: Res<Match>,
) -> Result {
    if !window.open {
        return Ok(());
    }
    let rules = *the_match.position().rules();
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let mut open = window.open;
    // Opaque: text to read, not a panel over the board.
    let frame = egui::Frame::window(&ctx.global_style()).fill(Color32::from_rgb(28, 24, 20));
    egui::Window::new("Rules")
        .open(&mut open)
        .frame(frame)
        .default_width(560.0)
        .max_width(640.0)
        .max_height((screen.height() - 160.0).max(200.0))
        .default_pos(screen.center() - egui::vec2(280.0, screen.height() / 2.0 - 80.0))
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (title, lines) in rules_sections(&rules) {
                    ui.heading(title);
                    for line in lines {
                        ui.label(line);
                    }
                    ui.add_space(6.0);
                }
                ui.heading("The pieces");
                for kind in PieceKind::ALL {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new(kind.characters()).size(18.0));
                        ui.label(
                            RichText::new(format!("{} ({})", kind.name(), kind.pinyin())).strong(),
                        );
                        ui.label(how_it_moves(kind, &rules));
                    });
                }
                ui.add_space(6.0);
                ui.heading("The presets");
                ui.label("The sources read the 1206 text differently; each preset is one reading.");
                egui::Grid::new("rules presets").striped(true).show(ui, |ui| {
                    ui.label("");
                    for p in Preset::ALL {
                        let name = RichText::new(p.name()).strong();
                        ui.label(if rules.matching_preset() == Some(p) {
                            name.color(Color32::from_rgb(255, 200, 90))
                        } else {
                            name
                        });
                    }
                    ui.end_row();
                    for (option, values) in preset_table() {
                        ui.label(option);
                        for v in values {
                            ui.label(v);
                        }
                        ui.end_row();
                    }
                });
                ui.label(
                    RichText::new("The whole rules, with the choices made where the sources are silent: docs/rules.md.")
                        .small()
                        .color(Color32::from_gray(160)),
                );
            });
        });
    window.open = open;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::Kingdom;

    fn card(kind: PieceKind, preset: Preset) -> PieceCard {
        let piece = Piece {
            kingdom: Kingdom::Han,
            kind,
        };
        let (reach, emperor) = reach(piece, Rules::preset(preset));
        PieceCard {
            piece,
            point: Point::EMPEROR,
            moves_now: 0,
            reach,
            emperor,
            how: how_it_moves(kind, &Rules::preset(preset)),
        }
    }

    #[test]
    fn diagrams_follow_the_rules_in_force() {
        // A knight: up to three points outward (24 points) or exactly three (8).
        assert_eq!(card(PieceKind::Knight, Preset::Classic).reach.len(), 24);
        assert_eq!(card(PieceKind::Knight, Preset::Leventhal).reach.len(), 8);
        // An archer reaches 1-4 points in eight directions, or exactly 4.
        assert_eq!(card(PieceKind::Archer, Preset::Classic).reach.len(), 32);
        assert_eq!(card(PieceKind::Archer, Preset::Leventhal).reach.len(), 8);
        // A crossbowman's 5 points fit the diagram.
        assert_eq!(
            card(PieceKind::Crossbowman, Preset::Wikipedia).reach.len(),
            40
        );
        let mut swordsman = card(PieceKind::Swordsman, Preset::Classic).reach;
        swordsman.sort();
        assert_eq!(swordsman, vec![(-1, 0), (0, -1), (0, 1), (1, 0)]);
        // The Emperor is shown where he stands, and blocks none of these moves.
        assert_eq!(
            card(PieceKind::General, Preset::Classic).emperor,
            Some((2, 4))
        );
        assert!(
            card(PieceKind::Knight, Preset::Classic)
                .how
                .contains("1 to 3")
        );
        assert!(
            card(PieceKind::Knight, Preset::Leventhal)
                .how
                .contains("exactly 3")
        );
    }

    #[test]
    fn a_card_counts_the_moves_of_the_stone_now() {
        let pos = Position::start(Rules::default());
        for (point, piece) in pos.pieces().take(30) {
            let card = PieceCard::of(&pos, point).unwrap();
            assert_eq!(card.piece, piece);
            assert_eq!(card.moves_now, pos.moves_from(point).len());
        }
        assert!(PieceCard::of(&pos, Point::EMPEROR).is_none());
    }

    #[test]
    fn the_rules_in_words_follow_the_options() {
        let words = |p: Preset| {
            rules_sections(&Rules::preset(p))
                .into_iter()
                .flat_map(|(_, lines)| lines)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let classic = words(Preset::Classic);
        assert!(classic.contains("losses reach 11"));
        assert!(classic.contains("leaves the board"));
        assert!(classic.contains("capture two Generals"));
        assert!(classic.contains("30 or more"));
        let wikipedia = words(Preset::Wikipedia);
        assert!(wikipedia.contains("more than 30"));
        assert!(wikipedia.contains("beat two kingdoms"));
        assert!(wikipedia.contains("goes to the victor"));
        assert!(words(Preset::Elephantchess).contains("counts as the victor's captures"));
        // The table has one column per preset, from the presets themselves.
        let table = preset_table();
        let losses = table
            .iter()
            .find(|(o, _)| *o == "beaten at losses")
            .unwrap();
        assert_eq!(losses.1, ["11", "11", "10", "10"].map(String::from));
    }
}
