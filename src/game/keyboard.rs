//! Every key the game answers to, in one place. The systems that act on keys ask this module
//! whether their key was pressed, and the help texts and toolbar hints name keys through
//! [`Key::label`], so the words never drift from the bindings. On macOS, Cmd works wherever
//! Ctrl does.

use bevy::prelude::*;

/// A key with the modifier it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    /// The key itself.
    pub(crate) code: KeyCode,
    /// Whether Ctrl (Cmd on macOS) must be held.
    pub(crate) command: bool,
    /// Whether Shift must be held.
    pub(crate) shift: bool,
    /// How the key is written for players (without its modifiers).
    name: &'static str,
}

impl Key {
    const fn plain(code: KeyCode, name: &'static str) -> Key {
        Key {
            code,
            command: false,
            shift: false,
            name,
        }
    }

    const fn command(code: KeyCode, name: &'static str) -> Key {
        Key {
            code,
            command: true,
            shift: false,
            name,
        }
    }

    const fn command_shift(code: KeyCode, name: &'static str) -> Key {
        Key {
            code,
            command: true,
            shift: true,
            name,
        }
    }

    /// Whether the key was pressed this frame with exactly its modifiers (Ctrl+Z is not
    /// Ctrl+Shift+Z; T is not Ctrl+T).
    pub(crate) fn just_pressed(&self, keys: &ButtonInput<KeyCode>) -> bool {
        keys.just_pressed(self.code) && command_held(keys) == self.command && {
            // Shift matters only for keys that use a modifier: plain keys ignore it.
            !self.command || shift_held(keys) == self.shift
        }
    }

    /// How the key is written for players: `T`, `F1`, `Ctrl+Z` (`Cmd+Z` on macOS).
    pub(crate) fn label(&self) -> String {
        let mut label = String::new();
        if self.command {
            label.push_str(COMMAND);
            label.push('+');
        }
        if self.shift {
            label.push_str("Shift+");
        }
        label.push_str(self.name);
        label
    }
}

/// The name of the command modifier on this platform.
const COMMAND: &str = if cfg!(target_os = "macos") {
    "Cmd"
} else {
    "Ctrl"
};

/// Takes the last move back.
pub(crate) const UNDO: Key = Key::command(KeyCode::KeyZ, "Z");
/// Plays again a move taken back.
pub(crate) const REDO: Key = Key::command(KeyCode::KeyY, "Y");
/// The other way to play a move again.
pub(crate) const REDO_SHIFT: Key = Key::command_shift(KeyCode::KeyZ, "Z");
/// Turns the threat shading on or off.
pub(crate) const THREATS: Key = Key::plain(KeyCode::KeyT, "T");
/// Replays the moves since the last turn of the person to move.
pub(crate) const REPLAY: Key = Key::plain(KeyCode::KeyR, "R");
/// A hint for the person to move.
pub(crate) const HINT: Key = Key::plain(KeyCode::KeyH, "H");
/// Opens the move box, to type a move.
pub(crate) const MOVE_BOX: Key = Key::plain(KeyCode::Slash, "/");
/// The other key that opens the move box.
pub(crate) const MOVE_BOX_ENTER: Key = Key::plain(KeyCode::Enter, "Enter");
/// Mutes or unmutes the sound.
pub(crate) const MUTE: Key = Key::plain(KeyCode::KeyM, "M");
/// Opens or closes the Rules window.
pub(crate) const RULES: Key = Key::plain(KeyCode::F1, "F1");
/// Switches between a window and the whole screen.
pub(crate) const FULLSCREEN: Key = Key::plain(KeyCode::F11, "F11");
/// Drops the selection, and leaves a review.
pub(crate) const ESCAPE: Key = Key::plain(KeyCode::Escape, "Esc");
/// One move back in the review.
pub(crate) const REVIEW_BACK: Key = Key::plain(KeyCode::ArrowLeft, "←");
/// One move forward in the review.
pub(crate) const REVIEW_FORWARD: Key = Key::plain(KeyCode::ArrowRight, "→");
/// The start of the game in the review.
pub(crate) const REVIEW_FIRST: Key = Key::plain(KeyCode::Home, "Home");
/// Back to the game from the review.
pub(crate) const REVIEW_LIVE: Key = Key::plain(KeyCode::End, "End");
/// The view from above.
pub(crate) const VIEW_TOP: Key = Key::plain(KeyCode::Digit0, "0");
/// The views from behind each kingdom, Qin to Yan.
pub(crate) const VIEWS: [Key; 7] = [
    Key::plain(KeyCode::Digit1, "1"),
    Key::plain(KeyCode::Digit2, "2"),
    Key::plain(KeyCode::Digit3, "3"),
    Key::plain(KeyCode::Digit4, "4"),
    Key::plain(KeyCode::Digit5, "5"),
    Key::plain(KeyCode::Digit6, "6"),
    Key::plain(KeyCode::Digit7, "7"),
];
/// A larger interface.
pub(crate) const ZOOM_IN: Key = Key::command(KeyCode::Equal, "+");
/// A smaller interface.
pub(crate) const ZOOM_OUT: Key = Key::command(KeyCode::Minus, "−");
/// The interface at its usual size.
pub(crate) const ZOOM_RESET: Key = Key::command(KeyCode::Digit0, "0");
/// Shows the board's keyboard cursor, or hides it. While it is shown the arrow keys walk it
/// (not through the game's history), Enter or Space acts on its point as a click, Escape hides
/// it.
pub(crate) const CURSOR: Key = Key::plain(KeyCode::KeyC, "C");
/// Takes the cursor to the next stone of the army under it.
pub(crate) const CURSOR_NEXT: Key = Key::plain(KeyCode::BracketRight, "]");
/// Takes the cursor to the previous stone of the army under it.
pub(crate) const CURSOR_PREVIOUS: Key = Key::plain(KeyCode::BracketLeft, "[");
/// Tells the last round's moves in words (the move box's `last`).
pub(crate) const TELL_LAST: Key = Key::plain(KeyCode::KeyL, "L");
/// Tells the standings (`standings`).
pub(crate) const TELL_STANDINGS: Key = Key::plain(KeyCode::KeyS, "S");
/// Tells whose turn it is (`turn`).
pub(crate) const TELL_TURN: Key = Key::plain(KeyCode::KeyW, "W");
/// Tells what attacks the cursor's point, or (without the cursor) which of my pieces are
/// attacked (`attacks`, `attacked`).
pub(crate) const TELL_ATTACKS: Key = Key::plain(KeyCode::KeyA, "A");
/// Tells what guards the cursor's point (`defends`).
pub(crate) const TELL_DEFENDS: Key = Key::plain(KeyCode::KeyD, "D");
/// Tells where the stone on the cursor's point (or the selected one) can go (`moves`).
pub(crate) const TELL_MOVES: Key = Key::plain(KeyCode::KeyG, "G");
/// Tells where my General stands (`where general`).
pub(crate) const TELL_WHERE: Key = Key::plain(KeyCode::KeyK, "K");
/// Tells the commands and these keys (`help`).
pub(crate) const TELL_HELP: Key = Key::plain(KeyCode::F2, "F2");
/// Asks to concede (`concede`): the game asks first, as the toolbar's button does.
pub(crate) const CONCEDE: Key = Key::command_shift(KeyCode::KeyX, "X");
/// Pastes text into a field (egui's own binding, named for the hints).
pub(crate) const PASTE: Key = Key::command(KeyCode::KeyV, "V");
/// Held over a stone: shows its moves without selecting it (read with [`shift_held`]).
pub(crate) const PREVIEW_MODIFIER: &str = "Shift";

/// Whether Ctrl is held, or Cmd on macOS.
pub(crate) fn command_held(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
        || (cfg!(target_os = "macos")
            && keys.any_pressed([KeyCode::SuperLeft, KeyCode::SuperRight]))
}

/// Whether Shift is held.
pub(crate) fn shift_held(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pressed(held: &[KeyCode], key: KeyCode) -> ButtonInput<KeyCode> {
        let mut keys = ButtonInput::default();
        for k in held {
            keys.press(*k);
        }
        keys.press(key);
        keys
    }

    #[test]
    fn a_key_fires_only_with_its_own_modifiers() {
        let ctrl = KeyCode::ControlLeft;
        let shift = KeyCode::ShiftLeft;
        assert!(UNDO.just_pressed(&pressed(&[ctrl], KeyCode::KeyZ)));
        assert!(!UNDO.just_pressed(&pressed(&[ctrl, shift], KeyCode::KeyZ)));
        assert!(REDO_SHIFT.just_pressed(&pressed(&[ctrl, shift], KeyCode::KeyZ)));
        assert!(!UNDO.just_pressed(&pressed(&[], KeyCode::KeyZ)));
        assert!(THREATS.just_pressed(&pressed(&[], KeyCode::KeyT)));
        assert!(THREATS.just_pressed(&pressed(&[shift], KeyCode::KeyT)));
        assert!(!THREATS.just_pressed(&pressed(&[ctrl], KeyCode::KeyT)));
        // Ctrl+0 resets the interface's size; it does not show the view from above.
        assert!(ZOOM_RESET.just_pressed(&pressed(&[ctrl], KeyCode::Digit0)));
        assert!(!VIEW_TOP.just_pressed(&pressed(&[ctrl], KeyCode::Digit0)));
    }

    #[test]
    fn labels_name_the_modifiers() {
        assert_eq!(THREATS.label(), "T");
        assert_eq!(RULES.label(), "F1");
        assert_eq!(UNDO.label(), format!("{COMMAND}+Z"));
        assert_eq!(REDO_SHIFT.label(), format!("{COMMAND}+Shift+Z"));
    }

    #[test]
    fn no_two_bindings_are_the_same_key() {
        let mut all = vec![
            CURSOR,
            CURSOR_NEXT,
            CURSOR_PREVIOUS,
            TELL_LAST,
            TELL_STANDINGS,
            TELL_TURN,
            TELL_ATTACKS,
            TELL_DEFENDS,
            TELL_MOVES,
            UNDO,
            REDO,
            REDO_SHIFT,
            THREATS,
            REPLAY,
            HINT,
            MUTE,
            RULES,
            FULLSCREEN,
            ESCAPE,
            REVIEW_BACK,
            REVIEW_FORWARD,
            REVIEW_FIRST,
            REVIEW_LIVE,
            VIEW_TOP,
            ZOOM_IN,
            ZOOM_OUT,
            ZOOM_RESET,
            PASTE,
        ];
        all.extend(VIEWS);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    (a.code, a.command, a.shift) != (b.code, b.command, b.shift),
                    "{} is bound twice",
                    a.label()
                );
            }
        }
    }
}
