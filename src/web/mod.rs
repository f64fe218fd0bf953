//! The game in a page (wasm32 in a browser): where the page differs from the desktop. The
//! page's canvas is the window; the game opens plainly (the welcome card for a first visit,
//! the offer to resume the autosave after) unless the page's address is an invitation, whose
//! game then comes first; in the browser's language; the computers and hints
//! search in a Web Worker ([`worker`]); the storage is the browser's (`crate::storage`).

pub(crate) mod files;
pub(crate) mod font;
pub(crate) mod notify;
pub(crate) mod reader;
#[cfg(feature = "sound")]
pub(crate) mod sounds;
pub(crate) mod typing;
pub(crate) mod worker;

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use qiguo_rules::{Game, Rules, Seats};

use crate::game::Match;
use crate::game::app::launch::Launch;
use crate::game::computer::Thinking;
use crate::game::lessons::LessonRun;
use crate::game::online::Online;
use crate::game::online::invite::Invitation;
use crate::i18n::Tr;
use crate::tr;

/// Runs the game in the page's canvas (`<canvas id="qiguo">`) until the page closes.
pub fn run() {
    now_noted("data-run-ms");
    let seats = Seats::default();
    let invitation = page_invitation();
    let launch = Launch {
        game: Game::start(Rules::default(), seats),
        levels: vec![None; seats.player_count()],
        view: None,
        window: None,
        screenshot: None,
        bench_frames: None,
        no_render: false,
        offscreen: None,
        language: None,
        plain: invitation.is_none(),
        invitation,
    };
    crate::game::app::game_app(launch).run();
}

thread_local! {
    /// Wakes the game from the browser's callbacks (a key in the document's field, a file read,
    /// a font downloaded): the game draws no frames while nothing happens.
    static WAKER: std::cell::RefCell<Option<crate::game::frames::Waker>> =
        const { std::cell::RefCell::new(None) };
}

/// Asks the game for a frame, from a browser callback that has left something for it.
pub(crate) fn wake() {
    WAKER.with_borrow(|waker| {
        if let Some(waker) = waker {
            waker.wake();
        }
    });
}

fn hold_the_waker(waker: Res<crate::game::frames::Waker>) {
    WAKER.set(Some(waker.clone()));
}

/// Frames one after another until the board is drawn (the loading screen gives way to it).
fn until_the_board_is_drawn(mut redraw: crate::game::frames::Redraw) {
    redraw.now();
}

/// The page's own systems: the loading notice taken down once the board is drawn, the page's
/// title saying where the game stands (what a background tab shows), and the words kept ready
/// for notifications raised between frames.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((typing::plugin, reader::plugin))
        .init_resource::<BoardShown>()
        .add_systems(
            PreStartup,
            hold_the_waker.after(crate::game::frames::FindTheEventLoop),
        )
        .add_systems(
            Last,
            until_the_board_is_drawn.run_if(not(resource_equals(BoardShown(true)))),
        )
        .add_systems(
            First,
            (
                first_frames.run_if(not(resource_equals(BoardShown(true)))),
                board_drawn.run_if(not(resource_equals(BoardShown(true)))),
            )
                .chain(),
        )
        .add_systems(
            Last,
            (
                page_title,
                note_search_time,
                note_frames,
                notify::keep_words,
                locate_asked_point,
                notify::keep_subscribed,
                font::fetch_later_fonts,
            ),
        )
        .add_systems(
            PreUpdate,
            font::install_first_fonts
                .after(bevy_egui::EguiPreUpdateSet::InitContexts)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        )
        .add_systems(bevy_egui::EguiPrimaryContextPass, font::add_later_fonts);
}

/// The time the computers' searches took in all, on the page (`<body
/// data-computers-searched-ms>`), for the measurements in docs/performance.md: in a page the
/// search runs in a worker, and only the page sees its answers arrive.
fn note_search_time(thinking: Res<Thinking>, mut noted: Local<Duration>) {
    let searched = thinking.searched();
    if searched == *noted {
        return;
    }
    *noted = searched;
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let ms = searched.as_secs_f64() * 1000.0;
        let _ = body.set_attribute("data-computers-searched-ms", &format!("{ms:.0}"));
    }
}

/// The page's title: the lesson and its step, whose move it is (yours, in an online game), or
/// who won.
fn page_title(
    the_match: Res<Match>,
    lessons: Res<LessonRun>,
    online: Res<Online>,
    tr: Res<Tr>,
    mut shown: Local<String>,
) {
    // Worded again only when something it says may have changed, not every frame.
    if !(the_match.is_changed() || lessons.is_changed() || online.is_changed() || tr.is_changed()) {
        return;
    }
    let tr = *tr;
    let pos = the_match.position();
    let words = if let Some((_, lesson, step)) = lessons.current() {
        tr!(
            tr,
            "page-title-lesson",
            lesson = tr.text(&lesson.title),
            step = (step + 1).to_string(),
            steps = lesson.steps.len().to_string()
        )
    } else if let Some(outcome) = pos.outcome() {
        tr!(tr, "page-title-won", kingdom = tr.kingdom(outcome.winner))
    } else {
        let kingdom = pos.to_move();
        if online.plays(pos, kingdom) {
            tr!(tr, "page-title-your-move", kingdom = tr.kingdom(kingdom))
        } else {
            tr!(
                tr,
                "page-title-turn",
                kingdom = tr.kingdom(kingdom),
                number = (the_match.game().len() + 1).to_string()
            )
        }
    };
    let title = format!("{words} — Qiguo");
    if *shown == title {
        return;
    }
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(&title);
    }
    *shown = title;
}

/// Where a point of the board is drawn, when the page asks: `<body data-locate="e1">` is
/// answered in `<body data-located="e1 X Y">` with the CSS pixels of the point's centre on the
/// screen as the camera shows it now (`e1 -` where it is out of the picture). The tests touch
/// the board through it, as a player's eye finds a point; it is asked again after the view
/// changes by setting `data-locate` anew. `data-locate="focus"` asks for the field being typed
/// in: the centre of what is seen of it (`focus -` where none has the focus or it is scrolled
/// or drawn out of sight), as a player looks for what they type.
fn locate_asked_point(
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut contexts: EguiContexts,
    windows: Query<&Window>,
) {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    let Some(asked) = body.get_attribute("data-locate") else {
        return;
    };
    let _ = body.remove_attribute("data-locate");
    if asked == "focus" {
        let seen = contexts.ctx_mut().ok().and_then(|ctx| {
            let field = ctx.memory(|memory| memory.focused())?;
            // What of the field its window's clipping leaves in sight.
            let seen = ctx.read_response(field)?.interact_rect;
            let screen = ctx.content_rect();
            let seen = seen.intersect(screen);
            let to_css =
                ctx.pixels_per_point() / windows.single().map_or(1.0, Window::scale_factor);
            (seen.is_positive()).then(|| seen.center() * to_css)
        });
        let answer = match seen {
            Some(at) => format!("focus {:.1} {:.1}", at.x, at.y),
            None => "focus -".to_owned(),
        };
        let _ = body.set_attribute("data-located", &answer);
        return;
    }
    let Ok(point) = asked.parse::<qiguo_rules::Point>() else {
        let _ = body.set_attribute("data-located", &format!("{asked} not-a-point"));
        return;
    };
    let at = cameras.single().ok().and_then(|(camera, transform)| {
        camera
            .world_to_viewport(transform, crate::game::layout::point_position(point))
            .ok()
    });
    let answer = match at {
        Some(v) => format!("{point} {:.1} {:.1}", v.x, v.y),
        None => format!("{point} -"),
    };
    let _ = body.set_attribute("data-located", &answer);
}

/// Milliseconds since the page opened, noted on the page's body under `attribute` (for the
/// start's measurements in docs/performance.md).
/// The frames the page has drawn, and what asked for them (`<body data-frames="drawn asked-now
/// asked-later redraws">`, the last the RequestRedraw messages of the frame, egui's among them):
/// how the browser test tells that a board at rest draws nothing.
fn note_frames(
    asked: Res<crate::game::frames::FramesAsked>,
    redraws: Res<Messages<bevy::window::RequestRedraw>>,
    mut drawn: Local<(u64, u64)>,
) {
    let (frames, redrawn) = &mut *drawn;
    *frames += 1;
    *redrawn += redraws.iter_current_update_messages().count() as u64;
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let noted = format!("{frames} {} {} {redrawn}", asked.now, asked.later);
        let _ = body.set_attribute("data-frames", &noted);
    }
}

fn now_noted(attribute: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = window.performance().map_or(0.0, |p| p.now());
    if let Some(body) = window.document().and_then(|d| d.body()) {
        let _ = body.set_attribute(attribute, &format!("{now:.0}"));
    }
}

/// When each frame before the board was drawn began, in milliseconds since the page opened
/// (`<body data-frames-ms>`; each after the one before was drawn): where a phone's start goes,
/// for docs/performance.md.
fn first_frames(mut ends: Local<Vec<String>>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = window.performance().map_or(0.0, |p| p.now());
    ends.push(format!("{now:.0}"));
    if let Some(body) = window.document().and_then(|d| d.body()) {
        let _ = body.set_attribute("data-frames-ms", &ends.join(","));
    }
}

/// Whether the board has been drawn (the loading notice is down).
#[derive(Resource, Default, PartialEq)]
pub(crate) struct BoardShown(pub(crate) bool);

/// Once the board is on the screen: the page's loading notice goes, and the time since the
/// page opened is noted on the page (`<body data-board-drawn-ms>`) for the tests and the
/// measurements in docs/performance.md. That is at the start of the third frame with the
/// board: the page's first frame shows nothing (the canvas read back after it is blank; after
/// the second it has the board — measured in Chromium, 2026-11-28), so the mark waits until the
/// second has been drawn.
fn board_drawn(
    board: Query<(), With<crate::game::board::BoardSurface>>,
    mut frames_with_board: Local<u32>,
    mut shown: ResMut<BoardShown>,
) {
    if board.is_empty() {
        return;
    }
    *frames_with_board += 1;
    if *frames_with_board < 3 {
        return;
    }
    shown.0 = true;
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = window.performance().map_or(0.0, |p| p.now());
    info!(
        "the board was drawn {:.1} s after the page opened",
        now / 1000.0
    );
    let Some(document) = window.document() else {
        return;
    };
    if let Some(notice) = document.get_element_by_id("loading") {
        notice.remove();
    }
    if let Some(body) = document.body() {
        let _ = body.set_attribute("data-board-drawn-ms", &format!("{now:.0}"));
    }
}

/// The invitation in the page's own address, when it was opened from one
/// (`/join/CODE`, `/watch/CODE`).
fn page_invitation() -> Option<Invitation> {
    let href = web_sys::window()?.location().href().ok()?;
    let path = href.split(['?', '#']).next()?;
    Invitation::parse(path).ok()
}

/// The one-time token of a sign-in link the page was opened from (`…#signin=TOKEN`, as the
/// server's e-mails write it), taken once: the address bar loses it at once, so that it is
/// neither kept in the history nor shared with the address.
pub(crate) fn signin_token() -> Option<String> {
    let window = web_sys::window()?;
    let location = window.location();
    let hash = location.hash().ok()?;
    let token = hash.strip_prefix("#signin=")?;
    if token.is_empty() || token.len() > 128 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let token = token.to_owned();
    let path = location.pathname().ok()?;
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
    Some(token)
}

/// Reloads the page to take up its server's newer version (`server`), once per version: a
/// page that comes back no newer is not reloaded again. It reloads at the game it showed
/// (`code`, watched or played: `/join/CODE` opens a game one plays in as one's own), else where
/// it was; the key ring stays in the browser's storage. Whether it reloads (not where the
/// session's storage, which remembers the try, cannot be written).
pub(crate) fn reload_for_update(server: u32, shown: Option<(&str, bool)>) -> bool {
    const TRIED: &str = "qiguo-reloaded-for-protocol";
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Some(storage) = window.session_storage().ok().flatten() else {
        return false;
    };
    let version = server.to_string();
    if storage.get_item(TRIED).ok().flatten().as_deref() == Some(version.as_str()) {
        return false;
    }
    if storage.set_item(TRIED, &version).is_err() {
        return false;
    }
    let location = window.location();
    match shown {
        Some((code, watching)) => {
            let path = if watching { "watch" } else { "join" };
            location.replace(&format!("/{path}/{code}")).is_ok()
        }
        None => location.reload().is_ok(),
    }
}

/// Whether the page's address carries a sign-in link's token still (it is taken when the page
/// connects to its server).
pub(crate) fn signin_token_waiting() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|hash| hash.len() > "#signin=".len() && hash.starts_with("#signin="))
}
