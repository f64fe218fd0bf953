//! The text of the game's windows as a screen reader would read it, taken from the tree egui
//! builds for AccessKit: each window (rules, settings, the report, a dialog) by its title, with
//! its lines in the order they are drawn — a label's words, a control's label, kind and state.
//! The page writes it into its document beside the canvas (egui has no AccessKit adapter for
//! the web), so that what a window says can be read, not only the widget the keyboard is on.

use std::collections::HashMap;

use bevy_egui::egui::accesskit::{Node, NodeId, Role, Toggled, TreeUpdate};

use crate::game::widgets::{Control, control_words};
use crate::i18n::Tr;

/// One window's text: its title and its lines, in drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WindowText {
    pub(crate) title: String,
    pub(crate) lines: Vec<String>,
}

/// The windows in `update`, in the order egui lists them, but those titled as in `left_out`
/// (windows whose content the page's document tells in its own way).
pub(crate) fn windows_text(update: &TreeUpdate, left_out: &[String], tr: Tr) -> Vec<WindowText> {
    let nodes: HashMap<NodeId, &Node> = update.nodes.iter().map(|(id, n)| (*id, n)).collect();
    let Some(root) = update.tree.as_ref().map(|t| t.root) else {
        return Vec::new();
    };
    let mut windows = Vec::new();
    // Depth first, children in order; a window's own windows are not looked for inside it.
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let Some(node) = nodes.get(&id) else {
            continue;
        };
        if id != root && node.role() == Role::Window {
            let title = node.label().unwrap_or_default().trim().to_owned();
            if !title.is_empty() && !left_out.contains(&title) {
                let mut lines = Vec::new();
                lines_of(&nodes, id, tr, &mut lines);
                // The title bar's own label repeats the title.
                if lines.first() == Some(&title) {
                    lines.remove(0);
                }
                windows.push(WindowText { title, lines });
            }
            continue;
        }
        stack.extend(node.children().iter().rev());
    }
    windows
}

/// The lines under `id`, depth first; the same line twice in a row is written once.
fn lines_of(nodes: &HashMap<NodeId, &Node>, id: NodeId, tr: Tr, lines: &mut Vec<String>) {
    let Some(node) = nodes.get(&id) else {
        return;
    };
    if node.is_hidden() {
        return;
    }
    if let Some(line) = line_of(node, tr)
        && lines.last() != Some(&line)
    {
        lines.push(line);
    }
    for &child in node.children() {
        lines_of(nodes, child, tr, lines);
    }
}

/// The buttons of egui's own title bars (to fold a window, to close it), in egui's English:
/// the window's chrome, not its text (Escape or the window's own buttons close it).
const TITLE_BAR_BUTTONS: [&str; 3] = ["Hide", "Show", "Close window"];

/// A node's words: a label's text; a control's label, kind and state; nothing for containers.
fn line_of(node: &Node, tr: Tr) -> Option<String> {
    let label = node.label().map(str::trim).unwrap_or_default();
    let value = node.value().map(str::trim).unwrap_or_default();
    if node.role() == Role::Button && TITLE_BAR_BUTTONS.contains(&label) {
        return None;
    }
    let kind = match node.role() {
        Role::Label => return (!value.is_empty()).then(|| value.to_owned()),
        Role::Button => "reader-kind-button",
        Role::CheckBox => "reader-kind-checkbox",
        Role::RadioButton => "reader-kind-option",
        Role::TextInput | Role::MultilineTextInput => "reader-kind-field",
        Role::Slider | Role::SpinButton => "reader-kind-slider",
        Role::ComboBox => "reader-kind-list",
        Role::Link => "reader-kind-link",
        _ => return None,
    };
    if label.is_empty() && value.is_empty() {
        return None;
    }
    // A control without a label of its own (a list showing its choice) is named by its value.
    let (name, value) = if label.is_empty() {
        (value, "")
    } else {
        (label, value)
    };
    let checkbox = node.role() == Role::CheckBox;
    let toggled = node.toggled();
    Some(control_words(
        tr,
        name,
        kind,
        Control {
            checked: match toggled {
                Some(Toggled::True) if checkbox => Some(true),
                Some(Toggled::False) if checkbox => Some(false),
                _ => None,
            },
            chosen: !checkbox && toggled == Some(Toggled::True),
            number: node.numeric_value(),
            text: Some(value),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Language;
    use bevy_egui::egui;

    /// A frame with a panel's button, a window of rules-like text and a settings-like window,
    /// AccessKit on; returns its tree.
    fn frame(ctx: &egui::Context) -> TreeUpdate {
        ctx.enable_accesskit();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            let ctx = ui.ctx().clone();
            egui::Area::new(egui::Id::new("toolbar")).show(&ctx, |ui| {
                let _ = ui.button("New game");
            });
            egui::Window::new("The rules").show(&ctx, |ui| {
                ui.heading("The board");
                ui.label("Seven kingdoms on a go board of 19 lines.");
                egui::ScrollArea::vertical()
                    .max_height(40.0)
                    .show(ui, |ui| {
                        for i in 0..30 {
                            ui.label(format!("Rule {i}."));
                        }
                    });
            });
            egui::Window::new("Settings").show(&ctx, |ui| {
                let mut on = true;
                ui.checkbox(&mut on, "High-contrast board");
                egui::ComboBox::from_id_salt("who plays")
                    .selected_text("Person")
                    .show_ui(ui, |_| {});
                let _ = ui.button("Close");
            });
            egui::Window::new("Moves").show(&ctx, |ui| {
                ui.label("1. Qin's archer from d10 to d14");
            });
        });
        output.textures_delta.clear();
        output
            .platform_output
            .accesskit_update
            .expect("AccessKit on")
    }

    /// The tree of the second frame (windows are measured in their first), and English words.
    fn settled_tree() -> (TreeUpdate, Tr) {
        let ctx = egui::Context::default();
        frame(&ctx);
        (frame(&ctx), Tr::new(Language::English))
    }

    #[test]
    fn each_window_is_told_by_its_title_and_lines_in_order() {
        let (tree, tr) = settled_tree();
        let windows = windows_text(&tree, &["Moves".to_owned()], tr);
        let titles: Vec<&str> = windows.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, ["The rules", "Settings"], "{windows:#?}");
        let rules = &windows[0].lines;
        assert_eq!(rules[0], "The board", "{rules:?}");
        assert_eq!(rules[1], "Seven kingdoms on a go board of 19 lines.");
        // The lines scrolled out of sight are there too, in order.
        let scrolled: Vec<&String> = rules.iter().filter(|l| l.starts_with("Rule ")).collect();
        assert_eq!(scrolled.len(), 30, "{rules:?}");
        assert_eq!(scrolled[29], "Rule 29.");
        // Controls by label, kind and state; the panel's button is in no window.
        let settings = &windows[1].lines;
        assert!(
            settings.contains(&"High-contrast board, check box, checked".to_owned()),
            "{settings:?}"
        );
        assert!(
            settings.contains(&"Close, button".to_owned()),
            "{settings:?}"
        );
        assert!(
            settings.contains(&"Person, list".to_owned()),
            "{settings:?}"
        );
        assert!(
            !windows
                .iter()
                .any(|w| w.lines.iter().any(|l| l.contains("New game"))),
            "{windows:#?}"
        );
    }

    #[test]
    fn a_tree_without_its_root_tells_no_window() {
        let (tree, tr) = settled_tree();
        let everything = windows_text(&tree, &[], tr).len();
        assert!(everything >= 3, "{everything}");
        let empty = TreeUpdate {
            nodes: Vec::new(),
            tree: None,
            tree_id: tree.tree_id,
            focus: tree.focus,
        };
        assert!(windows_text(&empty, &[], tr).is_empty());
    }
}
