//! What the game window starts with: the first game, its players, the view, and the
//! benchmark and screenshot switches. The command line builds a [`Launch`]; the game runs it.

use std::path::PathBuf;

use qiguo_rules::{Game, Level};

pub use crate::game::camera::{ParseViewError, View};

/// The game window's size in logical pixels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WindowSize {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl WindowSize {
    /// The smallest window the interface is laid out for.
    pub const MIN: WindowSize = WindowSize {
        width: 640,
        height: 480,
    };
    /// The largest window asked for on the command line (an 8K screen).
    pub const MAX: WindowSize = WindowSize {
        width: 7680,
        height: 4320,
    };
}

impl Default for WindowSize {
    fn default() -> WindowSize {
        WindowSize {
            width: 1280,
            height: 720,
        }
    }
}

/// A window size that is not `WIDTHxHEIGHT` within bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a window size: expected WIDTHxHEIGHT from 640x480 to 7680x4320, such as 1024x768"
)]
pub struct ParseWindowSizeError(String);

impl std::str::FromStr for WindowSize {
    type Err = ParseWindowSizeError;

    fn from_str(s: &str) -> Result<WindowSize, ParseWindowSizeError> {
        let bad = || ParseWindowSizeError(s.to_owned());
        let (w, h) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let width: u32 = w.trim().parse().map_err(|_| bad())?;
        let height: u32 = h.trim().parse().map_err(|_| bad())?;
        let (lo, hi) = (WindowSize::MIN, WindowSize::MAX);
        if !(lo.width..=hi.width).contains(&width) || !(lo.height..=hi.height).contains(&height) {
            return Err(bad());
        }
        Ok(WindowSize { width, height })
    }
}

/// A screen drawn into an image (`--offscreen WxH[@R]`): its pixels and how many of them make
/// one point of the interface.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Screen {
    /// The screen's pixels.
    pub pixels: WindowSize,
    /// Its pixels to a point (a phone's device pixel ratio; 1 for a desktop's window).
    pub ratio: f32,
}

impl Screen {
    /// The most pixels to a point the game draws: the page's cap (`web/index.html`), a phone's
    /// screen of three drawn at two.
    pub const MOST_RATIO: f32 = 2.0;

    /// The ratio drawn at: the screen's, capped as the page caps it.
    pub fn drawn_ratio(self) -> f32 {
        self.ratio.min(Screen::MOST_RATIO)
    }

    /// The image drawn: as many points as the screen has, at the ratio drawn.
    pub fn drawn(self) -> WindowSize {
        let scale =
            |pixels: u32| ((pixels as f32 / self.ratio * self.drawn_ratio()).round() as u32).max(1);
        WindowSize {
            width: scale(self.pixels.width),
            height: scale(self.pixels.height),
        }
    }
}

impl std::fmt::Display for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.pixels.width, self.pixels.height)?;
        if self.ratio != 1.0 {
            write!(f, "@{}", self.ratio)?;
        }
        Ok(())
    }
}

/// A screen that is not `WIDTHxHEIGHT[@RATIO]` within bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a screen: expected WIDTHxHEIGHT from 640x480 to 7680x4320, and after an @ its pixels to a point from 1 to 4, such as 1280x720 or 1170x2532@3"
)]
pub struct ParseScreenError(String);

impl std::str::FromStr for Screen {
    type Err = ParseScreenError;

    fn from_str(s: &str) -> Result<Screen, ParseScreenError> {
        let bad = || ParseScreenError(s.to_owned());
        let (size, ratio) = match s.trim().split_once('@') {
            Some((size, ratio)) => (size, ratio.trim().parse::<f32>().map_err(|_| bad())?),
            None => (s, 1.0),
        };
        if !(1.0..=4.0).contains(&ratio) {
            return Err(bad());
        }
        let pixels: WindowSize = size.parse().map_err(|_| bad())?;
        Ok(Screen { pixels, ratio })
    }
}

/// Everything the game window needs to start, checked.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The first game: its start position (rules inside) and any moves already played.
    pub game: Game,
    /// Who plays each player's seat, by player number: a computer level, or `None` for a
    /// person. The players are named in the interface's language when the window opens.
    pub levels: Vec<Option<Level>>,
    /// The view to start with; by default, from behind the kingdom to move.
    pub view: Option<View>,
    /// The window's size asked for on the command line; otherwise the remembered one.
    pub window: Option<WindowSize>,
    /// Where to save a screenshot before exiting.
    pub screenshot: Option<PathBuf>,
    /// How many frames to run for frame-time statistics.
    pub bench_frames: Option<u32>,
    /// Whether to run without a graphics device (benchmarks only).
    pub no_render: bool,
    /// With `bench_frames`: the busy middle game's marks shown (`--busy`).
    pub busy: bool,
    /// A game of computers only begins again whenever it ends (`--again`).
    pub again: bool,
    /// The Game report open at once (`--report`).
    pub report: bool,
    /// Learn from your mistakes at once, once the game is reviewed (`--practice`).
    pub practice: bool,
    /// A puzzle at once (`--puzzle`; in a page, its address's `?puzzle=`).
    pub puzzle: Option<crate::puzzles::Asked>,
    /// Draw into an image of this size instead of a window (benchmarks and screenshots only;
    /// no window and no display needed).
    pub offscreen: Option<Screen>,
    /// The interface's language asked for on the command line (`--lang`).
    pub language: Option<crate::i18n::Language>,
    /// An invitation to follow once the window is open (`--join URL`; in a page, its own
    /// address when it is a `/join/CODE` or `/watch/CODE` link).
    pub invitation: Option<crate::game::online::invite::Invitation>,
    /// Whether the game was opened plainly (no position, rules, seating or invitation asked
    /// for), so that it may show the welcome card or offer to resume the last unfinished game;
    /// an invitation's game is what was asked for, and nothing stands in front of it.
    pub plain: bool,
    /// More of the log than its default, in `RUST_LOG`'s words (`qiguo=debug`, `qiguo=trace`):
    /// in a page, its address's `?log=` (a page has no environment); on the desktop Bevy reads
    /// `RUST_LOG` itself, and this stays `None`.
    pub log: Option<String>,
}
