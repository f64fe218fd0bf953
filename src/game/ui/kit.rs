//! What the interface's windows draw with: a kingdom's badge and colours in the palette in
//! force, the choice of a person or a computer, the panels' ids and the board's free area.

use bevy_egui::egui::{self, Color32, Pos2, Stroke};
use qiguo_rules::Kingdom;

use crate::game::art::palette::{EmblemShape, KingdomStyle, Palette};
use crate::game::art::textures::Rgba;
use crate::game::camera::framing::FreeArea;
use crate::game::widgets::SHEET_BAR;
use crate::i18n::Tr;

/// The lasting panels, by their ids: the turn strip, the toolbar, the Kingdoms and Moves
/// windows, the status line, a lesson's card and the practice's. The board is framed in the space they leave.
pub(crate) const PANELS: [&str; 8] = [
    "turn strip",
    "toolbar",
    "Kingdoms",
    "Moves",
    "status",
    "lesson card",
    crate::game::practice::ui::CARD,
    SHEET_BAR,
];

/// Where the interface finds the palette in egui's memory: [`share_palette`] puts it there
/// each frame, so every painter of a kingdom's colour uses the one in force.
pub(super) fn palette_id() -> egui::Id {
    egui::Id::new("qiguo-palette")
}

/// The free area (where the board is framed) in points: banners and the turn strip centre on it.
pub(crate) fn board_area(ctx: &egui::Context, free: &FreeArea) -> egui::Rect {
    let scale = ctx.pixels_per_point();
    egui::Rect::from_min_max(
        egui::pos2(free.rect.min.x / scale, free.rect.min.y / scale),
        egui::pos2(free.rect.max.x / scale, free.rect.max.y / scale),
    )
}

/// How `kingdom` looks in the palette in force.
pub(crate) fn kingdom_style(ctx: &egui::Context, kingdom: Kingdom) -> KingdomStyle {
    ctx.data(|d| d.get_temp::<Palette>(palette_id()))
        .unwrap_or_default()
        .style(kingdom)
}

/// egui's colour for an sRGB byte colour.
pub(crate) fn c32(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// Paints a kingdom's badge: a stone of its colour with its rim emblem and its character.
fn paint_badge(painter: &egui::Painter, centre: Pos2, radius: f32, kingdom: Kingdom, dim: bool) {
    let s = kingdom_style(painter.ctx(), kingdom);
    let (stone, ink) = if dim {
        (
            c32(s.stone).gamma_multiply(0.45),
            c32(s.ink).gamma_multiply(0.45),
        )
    } else {
        (c32(s.stone), c32(s.ink))
    };
    painter.circle_filled(centre, radius, stone);
    painter.circle_stroke(
        centre,
        radius,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
    );
    let at = |p: [f32; 2]| centre + egui::vec2(p[0], p[1]) * radius;
    for shape in s.emblem.shapes() {
        match shape {
            EmblemShape::Disc { at: p, r } => {
                painter.circle_filled(at(p), r * radius, ink);
            }
            EmblemShape::Ring { r, width } => {
                painter.circle_stroke(centre, r * radius, Stroke::new(width * radius, ink));
            }
            EmblemShape::Segment { a, b, width } => {
                painter.line_segment([at(a), at(b)], Stroke::new(width * radius, ink));
            }
            EmblemShape::Diamond { at: p, size } => {
                let c = at(p);
                let d = size * radius;
                painter.add(egui::Shape::convex_polygon(
                    vec![
                        c + egui::vec2(0.0, -d),
                        c + egui::vec2(d, 0.0),
                        c + egui::vec2(0.0, d),
                        c + egui::vec2(-d, 0.0),
                    ],
                    ink,
                    Stroke::NONE,
                ));
            }
        }
    }
    painter.text(
        centre,
        egui::Align2::CENTER_CENTER,
        kingdom.character(),
        egui::FontId::proportional(radius * 1.05),
        ink,
    );
}

/// A choice between a person and the computer levels; returns the new choice if changed.
pub(crate) fn controller_choice(
    ui: &mut egui::Ui,
    tr: Tr,
    id: impl std::hash::Hash + std::fmt::Debug,
    current: Option<qiguo_ai::Level>,
) -> Option<Option<qiguo_ai::Level>> {
    use qiguo_ai::Level;
    let label = |c: Option<Level>| c.map_or_else(|| tr.text("player-person"), |l| tr.level(l));
    let mut choice = current;
    egui::ComboBox::from_id_salt(id)
        .selected_text(label(current))
        .width(78.0)
        .show_ui(ui, |ui| {
            for option in [
                None,
                Some(Level::Easy),
                Some(Level::Medium),
                Some(Level::Hard),
            ] {
                ui.selectable_value(&mut choice, option, label(option));
            }
        });
    (choice != current).then_some(choice)
}

/// A badge as a widget of the given diameter.
pub(crate) fn badge(
    ui: &mut egui::Ui,
    kingdom: Kingdom,
    diameter: f32,
    dim: bool,
) -> egui::Response {
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(diameter, diameter), egui::Sense::hover());
    paint_badge(ui.painter(), rect.center(), diameter / 2.0, kingdom, dim);
    response
}

/// A kingdom's colour for text on the dark panels: its stone colour brightened, with a little
/// white; Yan's black becomes grey.
pub(crate) fn text_colour(ctx: &egui::Context, kingdom: Kingdom) -> Color32 {
    let [r, g, b, _] = kingdom_style(ctx, kingdom).stone;
    let max = r.max(g).max(b) as f32;
    if max < 70.0 {
        return Color32::from_gray(165);
    }
    let lift = |c: u8| (c as f32 * 235.0 / max * 0.8 + 255.0 * 0.2).min(255.0) as u8;
    c32([lift(r), lift(g), lift(b), 255])
}
