//! The page's shell (wasm32 in a browser), above the game: it starts the game in the page's
//! canvas, which is the window; the game opens plainly (the welcome card for a first visit,
//! the offer to resume the autosave after) unless the page's address is an invitation, whose
//! game then comes first; in the browser's language. The shell keeps the page in step with the
//! game: its title, its loading notice, the document a screen reader reads ([`reader`]), and
//! what the tests read of it. The browser's services that the game uses (storage, files,
//! notifications, the searches' worker…) are below the game, in `crate::browser`.

pub(crate) mod reader;

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use qiguo_rules::{Game, Rules, Seats};

use crate::browser;
use crate::game::app::launch::Launch;
use crate::game::computer::Thinking;
use crate::game::lessons::LessonRun;
use crate::game::online::invite::Invitation;
use crate::game::state::{Match, SeatAuthority};
use crate::i18n::Tr;
use crate::tr;

/// Runs the game in the page's canvas (`<canvas id="qiguo">`) until the page closes.
pub fn run() {
    now_noted("data-run-ms");
    show_the_memory();
    let seats = Seats::default();
    let invitation = page_invitation();
    let puzzle = browser::page_query("puzzle").and_then(|text| {
        text.parse::<crate::puzzles::Asked>()
            .inspect_err(|e| warn!("the page's address: {e}"))
            .ok()
    });
    let launch = Launch {
        game: Game::start(Rules::default(), seats),
        levels: vec![None; seats.player_count()],
        view: None,
        window: None,
        screenshot: None,
        bench_frames: None,
        no_render: false,
        busy: false,
        again: false,
        report: false,
        practice: false,
        plain: invitation.is_none() && puzzle.is_none(),
        puzzle,
        offscreen: None,
        language: None,
        invitation,
        log: browser::page_query("log"),
    };
    let mut app = crate::game::app::game_app(launch);
    app.add_plugins(plugin);
    crate::game::app::run_main_world_on_one_thread(&mut app);
    app.run();
}

/// The browser's callbacks wake the game as its own threads do.
fn hold_the_waker(waker: Res<crate::game::frames::Waker>) {
    browser::wake_with(waker.as_fn());
}

/// Frames one after another until the board is drawn (the loading screen gives way to it).
fn until_the_board_is_drawn(mut redraw: crate::game::frames::Redraw) {
    redraw.now();
}

/// The page's own systems: the loading notice taken down once the board is drawn, the page's
/// title saying where the game stands (what a background tab shows), the document for a screen
/// reader, and the browser's services' systems.
fn plugin(app: &mut App) {
    // A puzzle's link is this page's address with its name.
    app.insert_resource(crate::game::practice::puzzles::PuzzleLinks {
        page: browser::page_path(),
    });
    app.add_plugins((browser::plugin, reader::plugin))
        .init_resource::<BoardShown>()
        .add_systems(
            PreStartup,
            hold_the_waker.after(crate::game::frames::FindTheEventLoop),
        )
        .add_systems(Startup, wake_when_asked_to_locate)
        .add_systems(
            Last,
            until_the_board_is_drawn
                .run_if(not(resource_equals(BoardShown(true))))
                .in_set(crate::game::frames::AskFrames),
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
                whole_textures_worn,
                // After the frame's last asks.
                note_frames.after(crate::game::frames::AlarmArmed),
                locate_asked_point,
            ),
        );
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
    let ms = searched.as_secs_f64() * 1000.0;
    browser::note_on_body("data-computers-searched-ms", &format!("{ms:.0}"));
}

/// The page's title: the lesson and its step, the mistake asked again, whose move it is
/// (yours, in an online game), or who won.
fn page_title(
    the_match: Res<Match>,
    lessons: Res<LessonRun>,
    practice: Res<crate::game::practice::Practice>,
    authority: Res<SeatAuthority>,
    tr: Res<Tr>,
    mut shown: Local<String>,
) {
    // Worded again only when something it says may have changed, not every frame.
    if !(the_match.is_changed()
        || lessons.is_changed()
        || practice.is_changed()
        || authority.is_changed()
        || tr.is_changed())
    {
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
    } else if let Some((exercise, n, total)) = practice.current() {
        crate::game::practice::heading(exercise, n, total, tr)
    } else if let Some(outcome) = pos.outcome() {
        tr!(tr, "page-title-won", kingdom = tr.kingdom(outcome.winner))
    } else {
        let kingdom = pos.to_move();
        if authority.plays_online(pos, kingdom) {
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

/// A question put to the page (`<body data-locate>`, below) wakes the game: a board at rest
/// draws no frame that would read it.
fn wake_when_asked_to_locate() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    let asked = body.clone();
    // Its answer takes the question away, which is no question.
    let on_change = Closure::<dyn FnMut()>::new(move || {
        if asked.has_attribute("data-locate") {
            browser::wake();
        }
    });
    let Ok(observer) = web_sys::MutationObserver::new(on_change.as_ref().unchecked_ref()) else {
        return;
    };
    let watched = web_sys::MutationObserverInit::new();
    watched.set_attributes(true);
    watched.set_attribute_filter(&js_sys::Array::of1(&"data-locate".into()));
    let _ = observer.observe_with_options(&body, &watched);
    // The observer and its callback live as long as the page.
    on_change.forget();
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

/// The frames the page has drawn, and what asked for them (`<body data-frames="drawn asked-now
/// asked-later redraws moving waiting">`: the counts so far, `redraws` the RequestRedraw
/// messages, egui's among them; `moving` 1 when this frame asked for the next, `waiting` 1 when
/// a frame is due later, else 0): how the browser tests tell that a board at rest draws
/// nothing, and that it has settled (a camera still turning, a stone still gliding, asks for
/// its next frame, however slow the frames are; a notice that goes, a computer's pause, wait).
fn note_frames(
    asked: Res<crate::game::frames::FramesAsked>,
    alarm: Res<crate::game::frames::AlarmPending>,
    redraws: Res<Messages<bevy::window::RequestRedraw>>,
    mut drawn: Local<(u64, u64)>,
) {
    let (frames, redrawn) = &mut *drawn;
    let this_frame = redraws.iter_current_update_messages().count() as u64;
    *frames += 1;
    *redrawn += this_frame;
    let moving = u8::from(this_frame > 0);
    let waiting = u8::from(alarm.pending());
    let noted = format!(
        "{frames} {} {} {redrawn} {moving} {waiting}",
        asked.now, asked.later
    );
    browser::note_on_body("data-frames", &noted);
}

/// When the board's and the stones' whole textures, drawn off the frame, were first all worn,
/// in milliseconds since the page opened (`<body data-textures-whole-ms>`): the browser test
/// waits for it (the page's own tasks drew them and woke the game), and docs/performance.md
/// reads it.
fn whole_textures_worn(textures: crate::game::board::WholeTextures, mut noted: Local<bool>) {
    if *noted || !textures.worn() {
        return;
    }
    *noted = true;
    now_noted("data-textures-whole-ms");
}

/// The game's wasm memory where the page's tools can read its size (`window.qiguoMemory`, a
/// `WebAssembly.Memory`): the memory bench reads how far it has grown.
fn show_the_memory() {
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &"qiguoMemory".into(), &wasm_bindgen::memory());
    }
}

/// Milliseconds since the page opened, noted on the page's body under `attribute` (for the
/// start's measurements in docs/performance.md).
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
    // The rest of the fonts, now that the board does not wait for them.
    browser::font::fetch_later_fonts();
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
    Invitation::parse(&browser::page_path()?).ok()
}
