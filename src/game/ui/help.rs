//! Help inside the game: a card for the hovered stone (its names, kingdom, how it moves under
//! the rules of this game as a small diagram, and how many moves it has now), and the *Rules*
//! window (the rules this game plays, in words, and how the presets differ). The words come
//! from the rules in force, so they never disagree with the game.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_rules::{
    BeatenArmy, Board, CannonScreen, GoalReached, KingdomGoal, KnightMove, Piece, PieceKind, Point,
    Position, Preset, RangedMove, Rules, Seats, Setup, VictorRule,
};

use crate::game::frames::Redraw;
use crate::game::layout::point_position;
use crate::game::selection::{Hover, Marker, Selection};
use crate::game::state::{Match, Review, Turn};
use crate::game::ui::kit::kingdom_style;
use crate::game::ui::kit::{badge, c32};
use crate::i18n::Tr;
use crate::tr;

/// Seconds the pointer rests on a stone before its card shows.
pub(crate) const CARD_DELAY: f32 = 0.6;
/// Points either side of the piece in the card's diagram.
const REACH: i8 = 5;
/// Where the diagram's piece stands on its otherwise empty board: no line, diagonal or knight
/// move from there meets the Emperor (two files east and four ranks north of it).
const DIAGRAM_POINT: (u8, u8) = (7, 5);

/// What the card says about one stone.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PieceCard {
    /// The piece.
    pub(crate) piece: Piece,
    /// Where it stands.
    pub(crate) point: Point,
    /// Its legal moves now, if it were its kingdom's turn.
    pub(crate) moves_now: usize,
    /// Where it could go on an empty board (offsets east and north), under these rules.
    pub(crate) reach: Vec<(i8, i8)>,
    /// The Emperor's offset in the diagram, if inside it.
    pub(crate) emperor: Option<(i8, i8)>,
    /// How it moves, in words, under these rules.
    pub(crate) how: String,
}

impl PieceCard {
    /// The card of the stone on `point` in `pos`, in `tr`'s words; `None` for an empty point or
    /// the Emperor.
    pub(crate) fn of(tr: Tr, pos: &Position, point: Point) -> Option<PieceCard> {
        let piece = pos.piece_at(point)?;
        let rules = *pos.rules();
        let (reach, emperor) = reach(piece, rules);
        Some(PieceCard {
            piece,
            point,
            moves_now: pos.moves_from(point).len(),
            reach,
            emperor,
            how: how_it_moves(tr, piece.kind, &rules),
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
pub(crate) fn how_it_moves(tr: Tr, kind: PieceKind, rules: &Rules) -> String {
    let ranged = |n: u32| match rules.ranged {
        RangedMove::UpTo => tr!(tr, "how-ranged-up-to", points = n),
        RangedMove::Exactly => tr!(tr, "how-ranged-exactly", points = n),
    };
    match kind {
        PieceKind::General => tr.text("how-general"),
        PieceKind::Chancellor => tr.text("how-chancellor"),
        PieceKind::Diplomat => tr.text("how-diplomat"),
        PieceKind::Cannon => tr.text(match rules.cannon_screen {
            CannonScreen::Any => "how-cannon",
            CannonScreen::OwnKingdom => "how-cannon-own-screen",
        }),
        PieceKind::GoBetween => tr.text("how-go-between"),
        PieceKind::Archer => ranged(4),
        PieceKind::Crossbowman => ranged(5),
        PieceKind::Dagger => tr.text("how-dagger"),
        PieceKind::Swordsman => tr.text("how-swordsman"),
        PieceKind::Knight => match rules.knight {
            KnightMove::UpToThree => tr.text("how-knight-up-to"),
            KnightMove::ExactlyThree => tr.text("how-knight-exactly"),
        },
    }
}

/// The rules in force, section by section: how kingdoms fall and how to win, in words.
pub(crate) fn rules_sections(tr: Tr, rules: &Rules) -> Vec<(String, Vec<String>)> {
    let beaten = tr.text(match rules.beaten_army {
        BeatenArmy::Removed => "rules-army-removed",
        BeatenArmy::Transferred => "rules-army-transferred",
        BeatenArmy::TransferredAsCaptures => "rules-army-as-captures",
    });
    let victor = tr.text(match rules.victor {
        VictorRule::MostOfItsPieces => "rules-victor-most-pieces",
        VictorRule::MostCapturesOverall => "rules-victor-most-captures",
    });
    let goal = tr.text(match rules.kingdom_goal {
        KingdomGoal::TwoGenerals => "rules-goal-generals",
        KingdomGoal::TwoKingdoms => "rules-goal-kingdoms",
    });
    vec![
        (
            tr.text("rules-this-game"),
            vec![
                tr!(tr, "rules-played", rules = preset_title(tr, rules)),
                tr.text(match rules.cannon_screen {
                    CannonScreen::Any => "rules-turns",
                    CannonScreen::OwnKingdom => "rules-turns-own-screen",
                }),
                tr.text("rules-no-check"),
            ],
        ),
        (
            tr.text("rules-how-kingdoms-fall"),
            vec![
                tr.text("rules-captures"),
                tr!(tr, "rules-beaten-at", losses = rules.beaten_at_losses),
                victor,
                beaten,
                tr.text("rules-pass"),
                tr.text("rules-ally"),
            ],
        ),
        (
            tr.text("rules-how-to-win"),
            vec![
                tr!(tr, "rules-win-goal", goal = goal),
                tr!(tr, "rules-win-captures", goal = capture_goal(tr, rules)),
                tr.text("rules-win-last"),
            ]
            .into_iter()
            .chain(
                (rules.goal_reached == GoalReached::MostCapturesWin)
                    .then(|| tr.text("rules-goal-ends-game")),
            )
            .collect(),
        ),
    ]
}

fn capture_goal(tr: Tr, rules: &Rules) -> String {
    // The goal is stored as the count that wins: 31 reads "more than 30".
    if rules.capture_goal % 10 == 1 {
        tr!(tr, "capture-goal-more-than", count = rules.capture_goal - 1)
    } else {
        tr!(tr, "capture-goal-or-more", count = rules.capture_goal)
    }
}

fn preset_title(tr: Tr, rules: &Rules) -> String {
    match rules.matching_preset() {
        Some(p) => tr!(tr, "rules-preset-named", preset = p.name()),
        None => tr.text("rules-custom"),
    }
}

/// The rows of the preset comparison: an option, then its value under each preset.
pub(crate) fn preset_table(tr: Tr) -> Vec<(String, [String; Preset::ALL.len()])> {
    let of = |f: &dyn Fn(&Rules) -> String| Preset::ALL.map(|p| f(&Rules::preset(p)));
    vec![
        (
            tr.text("table-ranged"),
            of(&|r| match r.ranged {
                RangedMove::UpTo => tr.text("table-ranged-up-to"),
                RangedMove::Exactly => tr.text("table-ranged-exactly"),
            }),
        ),
        (
            tr.text("table-knight"),
            of(&|r| match r.knight {
                KnightMove::UpToThree => tr.text("table-knight-up-to"),
                KnightMove::ExactlyThree => tr.text("table-knight-exactly"),
            }),
        ),
        (
            tr.text("table-beaten-at"),
            of(&|r| r.beaten_at_losses.to_string()),
        ),
        (
            tr.text("table-victor"),
            of(&|r| match r.victor {
                VictorRule::MostOfItsPieces => tr.text("table-victor-most-pieces"),
                VictorRule::MostCapturesOverall => tr.text("table-victor-most-captures"),
            }),
        ),
        (
            tr.text("table-army"),
            of(&|r| {
                tr.text(match r.beaten_army {
                    BeatenArmy::Removed => "table-army-removed",
                    BeatenArmy::Transferred => "table-army-transferred",
                    BeatenArmy::TransferredAsCaptures => "table-army-as-captures",
                })
            }),
        ),
        (
            tr.text("table-kingdom-goal"),
            of(&|r| match r.kingdom_goal {
                KingdomGoal::TwoGenerals => tr.text("table-goal-generals"),
                KingdomGoal::TwoKingdoms => tr.text("table-goal-kingdoms"),
            }),
        ),
        (
            tr.text("table-cannon-screen"),
            of(&|r| match r.cannon_screen {
                CannonScreen::Any => tr.text("table-cannon-any"),
                CannonScreen::OwnKingdom => tr.text("table-cannon-own"),
            }),
        ),
        (tr.text("table-capture-goal"), of(&|r| capture_goal(tr, r))),
        (
            tr.text("table-goal-reached"),
            of(&|r| match r.goal_reached {
                GoalReached::ReacherWins => tr.text("table-reacher-wins"),
                GoalReached::MostCapturesWin => tr.text("table-most-captures-win"),
            }),
        ),
    ]
}

/// What a card was made for: the stone's point, the turn, the position under review and the
/// language.
type CardKey = (Point, Turn, Option<usize>, Tr);

/// Whether the Rules window is open.
#[derive(Resource, Default, Debug)]
pub(crate) struct RulesWindow {
    /// Open or closed.
    pub(crate) open: bool,
}

/// F1 opens or closes the Rules window (as the toolbar's *Rules* does).
pub(super) fn rules_key(keys: Res<ButtonInput<KeyCode>>, mut rules: ResMut<RulesWindow>) {
    if crate::game::keyboard::RULES.just_pressed(&keys) {
        rules.open = !rules.open;
    }
}

/// The card of the stone under the pointer, after it has rested there a moment.
#[allow(clippy::too_many_arguments)]
pub(super) fn piece_card(
    mut contexts: EguiContexts,
    hover: Res<Hover>,
    held: Res<crate::game::input::touch::HeldCard>,
    selection: Res<Selection>,
    markers: Query<&Marker>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    the_match: Res<Match>,
    review: Res<Review>,
    time: Res<Time>,
    mut since: Local<Option<(Point, f32)>>,
    mut cached: Local<Option<(CardKey, Option<PieceCard>)>>,
    tr: Res<Tr>,
    mut redraw: Redraw,
) -> Result {
    let tr = *tr;
    // A finger's long press shows its stone's card at once, where the finger was.
    let held = held.0.filter(|_| hover.point.is_none());
    let Some(point) = hover.point.or(held.map(|(p, _)| p)) else {
        *since = None;
        return Ok(());
    };
    let now = time.elapsed_secs();
    if since.is_none_or(|(p, _)| p != point) {
        *since = Some((point, now));
    }
    if held.is_none()
        && let Some((_, t)) = *since
        && now - t < CARD_DELAY
    {
        // A frame when the card is due, the pointer resting.
        redraw.within(std::time::Duration::from_secs_f32(CARD_DELAY - (now - t)));
        return Ok(());
    }
    // The card is made once per stone and position shown, not every frame (a reviewed
    // position is replayed from the start).
    let key = (point, the_match.turn(), review.ply, tr);
    if cached.as_ref().is_none_or(|(k, _)| *k != key) {
        let card = PieceCard::of(tr, &review.shown_position(&the_match), point);
        *cached = Some((key, card));
    }
    let Some((_, Some(card))) = cached.as_ref() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    // The marks on the board (and the selected stone) where the screen shows them, in points.
    let to_points = windows.single().map_or(1.0, |w| w.scale_factor()) / ctx.pixels_per_point();
    let finger = held.map(|(_, at)| egui::pos2(at.x * to_points, at.y * to_points));
    let Some(pointer) = finger.or(ctx.pointer_latest_pos()) else {
        return Ok(());
    };
    let marks: Vec<egui::Pos2> = camera
        .single()
        .map(|(camera, transform)| {
            markers
                .iter()
                .map(|m| m.point)
                .chain(selection.selected)
                .filter_map(|p| camera.world_to_viewport(transform, point_position(p)).ok())
                .map(|v| egui::pos2(v.x * to_points, v.y * to_points))
                .collect()
        })
        .unwrap_or_default();
    let id = egui::Id::new("piece card");
    // The card's size as last shown (a first guess before that).
    let size = ctx
        .memory(|m| m.area_rect(id))
        .map_or(egui::vec2(316.0, 220.0), |r| r.size());
    let panels: Vec<egui::Rect> = super::PANELS
        .iter()
        .filter_map(|name| crate::game::widgets::panel_rect(ctx, name))
        .collect();
    let place = card_rect(pointer, size, ctx.content_rect(), &marks, &panels);
    egui::Area::new(id)
        .order(egui::Order::Tooltip)
        .fixed_pos(place.min)
        .constrain(true)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(300.0);
                card_contents(ui, tr, card);
            });
        });
    Ok(())
}

/// Where a card of `size` goes for a pointer at `pointer`: beside it (below it in the upper
/// half of `screen`, above it in the lower half, right of it before left) — the first such place,
/// kept on the screen, that covers none of `marks` (the selected stone and the destinations
/// shown, with a stone's margin). Where each of those covers some, the card moves to the left
/// or right edge of the screen, at the height that covers fewest marks and then least of the
/// `panels`.
pub(crate) fn card_rect(
    pointer: egui::Pos2,
    size: egui::Vec2,
    screen: egui::Rect,
    marks: &[egui::Pos2],
    panels: &[egui::Rect],
) -> egui::Rect {
    const GAP: f32 = 18.0;
    const MARGIN: f32 = 16.0;
    const STEP: f32 = 20.0;
    let (below, above) = (pointer.y + GAP, pointer.y - GAP - size.y);
    let (right, left) = (pointer.x + GAP, pointer.x - GAP - size.x);
    let rows = if pointer.y > screen.center().y {
        [above, below]
    } else {
        [below, above]
    };
    let on_screen = |min: egui::Pos2| {
        let r = egui::Rect::from_min_size(min, size);
        let dx = (screen.min.x - r.min.x).max(0.0) + (screen.max.x - r.max.x).min(0.0);
        let dy = (screen.min.y - r.min.y).max(0.0) + (screen.max.y - r.max.y).min(0.0);
        r.translate(egui::vec2(dx, dy))
    };
    let covered = |r: &egui::Rect| {
        marks
            .iter()
            .filter(|m| r.expand(MARGIN).contains(**m))
            .count()
    };
    let beside: Vec<egui::Rect> = rows
        .into_iter()
        .flat_map(|y| [right, left].map(|x| on_screen(egui::pos2(x, y))))
        .collect();
    if let Some(free) = beside.iter().find(|r| covered(r) == 0) {
        return *free;
    }
    let overlap = |r: &egui::Rect| -> u32 {
        panels
            .iter()
            .map(|p| p.intersect(*r))
            .filter(|i| i.is_positive())
            .map(|i| i.area() as u32)
            .sum()
    };
    let heights = (0..)
        .map(|i| screen.min.y + STEP * i as f32)
        .take_while(|y| y + size.y <= screen.max.y);
    let edges = heights
        .flat_map(|y| [screen.min.x, screen.max.x - size.x].map(|x| on_screen(egui::pos2(x, y))));
    beside
        .into_iter()
        .chain(edges)
        .min_by_key(|r| (covered(r), overlap(r)))
        .expect("places to choose from")
}

fn card_contents(ui: &mut egui::Ui, tr: Tr, card: &PieceCard) {
    let kind = card.piece.kind;
    ui.horizontal(|ui| {
        badge(ui, card.piece.kingdom, 22.0, false);
        ui.label(RichText::new(kind.characters()).size(24.0));
        ui.vertical(|ui| {
            ui.label(RichText::new(format!("{} · {}", tr.piece(kind), kind.pinyin())).strong());
            ui.label(
                RichText::new(tr!(
                    tr,
                    "card-where",
                    kingdom = tr.kingdom_titled(card.piece.kingdom),
                    point = card.point.to_string()
                ))
                .small(),
            );
        });
    });
    ui.label(&card.how);
    ui.horizontal(|ui| {
        diagram(ui, card);
        ui.vertical(|ui| {
            let moves = tr!(tr, "card-moves-now", count = card.moves_now);
            ui.label(RichText::new(moves).strong());
            ui.label(
                RichText::new(tr.text("card-diagram"))
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
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let rules = *the_match.position().rules();
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let mut open = window.open;
    // Opaque: text to read, not a panel over the board.
    let frame = egui::Frame::window(&ctx.global_style()).fill(Color32::from_rgb(28, 24, 20));
    egui::Window::new(tr.text("rules-title"))
        .id(egui::Id::new("Rules"))
        .open(&mut open)
        .frame(frame)
        .default_width(560.0)
        .max_width(640.0)
        .max_height((screen.height() - 160.0).max(200.0))
        .default_pos(screen.center() - egui::vec2(280.0, screen.height() / 2.0 - 80.0))
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (title, lines) in rules_sections(tr, &rules) {
                    ui.heading(title);
                    for line in lines {
                        ui.label(line);
                    }
                    ui.add_space(6.0);
                }
                ui.heading(tr.text("rules-pieces"));
                for kind in PieceKind::ALL {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new(kind.characters()).size(18.0));
                        ui.label(
                            RichText::new(format!("{} ({})", tr.piece(kind), kind.pinyin()))
                                .strong(),
                        );
                        ui.label(how_it_moves(tr, kind, &rules));
                    });
                }
                ui.add_space(6.0);
                ui.heading(tr.text("rules-presets"));
                ui.label(tr.text("rules-presets-intro"));
                egui::Grid::new("rules presets")
                    .striped(true)
                    .show(ui, |ui| {
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
                        for (option, values) in preset_table(tr) {
                            ui.label(option);
                            for v in values {
                                ui.label(v);
                            }
                            ui.end_row();
                        }
                    });
                ui.label(
                    RichText::new(tr.text("rules-whole"))
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
            how: how_it_moves(Tr::default(), kind, &Rules::preset(preset)),
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
            let card = PieceCard::of(Tr::default(), &pos, point).unwrap();
            assert_eq!(card.piece, piece);
            assert_eq!(card.moves_now, pos.moves_from(point).len());
        }
        assert!(PieceCard::of(Tr::default(), &pos, Point::EMPEROR).is_none());
    }

    #[test]
    fn a_card_never_covers_the_marks_when_some_place_does_not() {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0));
        let size = egui::vec2(300.0, 200.0);
        let pointer = egui::pos2(500.0, 200.0);
        let covers =
            |r: egui::Rect, marks: &[egui::Pos2]| marks.iter().any(|m| r.expand(16.0).contains(*m));
        // Nothing marked: below and right of the pointer in the upper half, as always.
        let free = card_rect(pointer, size, screen, &[], &[]);
        assert_eq!(free.min, pointer + egui::vec2(18.0, 18.0));
        // Destinations below and right of it (a stone's moves down a file and along a rank):
        // the card goes where none is.
        let marks: Vec<egui::Pos2> = (1..8)
            .map(|i| egui::pos2(500.0, 200.0 + 30.0 * i as f32))
            .chain((1..8).map(|i| egui::pos2(500.0 + 30.0 * i as f32, 200.0)))
            .collect();
        let placed = card_rect(pointer, size, screen, &marks, &[]);
        assert!(!covers(placed, &marks), "{placed:?}");
        assert!(screen.contains_rect(placed));
        // Marks on every side of the pointer (a General in the open): a corner that covers
        // none of them.
        let around: Vec<egui::Pos2> = (0..16)
            .flat_map(|i| {
                let t = i as f32 / 16.0 * std::f32::consts::TAU;
                (1..10).map(move |r| pointer + egui::vec2(t.cos(), t.sin()) * 40.0 * r as f32)
            })
            .filter(|m| screen.contains(*m))
            .collect();
        // A panel along the top is avoided as well, where a place covers no mark without it.
        let strip = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1280.0, 70.0));
        let placed = card_rect(pointer, size, screen, &around, &[strip]);
        assert!(!covers(placed, &around), "{placed:?}");
        assert!(!placed.intersects(strip), "{placed:?}");
        // Near the right edge the card stays on the screen.
        let edge = card_rect(egui::pos2(1270.0, 100.0), size, screen, &[], &[]);
        assert!(screen.contains_rect(edge));
    }

    #[test]
    fn the_rules_in_words_follow_the_options() {
        let words = |p: Preset| {
            rules_sections(Tr::default(), &Rules::preset(p))
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
        let table = preset_table(Tr::default());
        let losses = table.iter().find(|(o, _)| o == "beaten at losses").unwrap();
        assert_eq!(losses.1, ["11", "11", "10", "10", "10"].map(String::from));
        let screen = table
            .iter()
            .find(|(o, _)| o == "cannon captures over")
            .unwrap();
        assert_eq!(screen.1[3], "any piece");
        assert_eq!(screen.1[4], "its own pieces");
        let ludii = words(Preset::Ludii);
        assert!(ludii.contains("reaching a goal ends the game"));
        assert!(
            ludii.contains("no cannon may jump him") && classic.contains("a cannon may jump him")
        );
        assert!(!classic.contains("reaching a goal ends the game"));
        assert!(
            how_it_moves(
                Tr::default(),
                PieceKind::Cannon,
                &Rules::preset(Preset::Ludii)
            )
            .contains("its own kingdom")
        );
    }
}
