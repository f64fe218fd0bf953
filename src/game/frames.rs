//! Drawing on demand. A game of seven is mostly waiting, and a frame drawn while nothing moves
//! costs a phone's battery and a laptop's fan for nothing: the window and the page update and
//! draw when something changes, and not otherwise.
//!
//! What asks for a frame:
//! - the player's input and the window's own events (Bevy's reactive update mode wakes for
//!   them), and egui when it animates (bevy_egui asks) or waits on time (a tooltip's delay, a
//!   text field's blinking cursor: a frame when it is due, [`EguiRepaint`]);
//! - whatever moves, each frame while it moves ([`Redraw::now`]: the stones' glides, the
//!   camera's easing, the hand-off banner; the slow glows of an attacked
//!   General and a lesson's rings at [`GLOW_FRAME`]);
//! - whatever waits on time, once when its time comes ([`Redraw::within`]: a computer's pause,
//!   a notice that goes, the replay's next move, the thinking mark's next step, a long press);
//! - whatever finishes off the frame thread, the moment it does ([`Waker::wake`]: a computer's
//!   search, the server's news, a font downloaded, a shader pipeline compiled, a whole texture
//!   drawn).
//!
//! Nothing else draws: a board at rest draws no frame until something asks, however long
//! that is (no net, no clock; a clock shown on the board would ask once a second), in a window
//! or a page ([`AT_REST`]).
//! Headless apps (the tests) have no event loop: they update when the test says, and the
//! wakes are no-ops there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};

/// A slow glow (a General in danger, a lesson's ring) is drawn at this pace: smooth enough
/// for a breath a second, a quarter of a display's frames.
pub(crate) const GLOW_FRAME: Duration = Duration::from_millis(66);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>()
        .init_resource::<Waker>()
        .init_resource::<FrameDue>()
        .init_resource::<FramesAsked>()
        .init_resource::<AlarmPending>()
        .add_systems(PreStartup, find_the_event_loop.in_set(FindTheEventLoop))
        .add_systems(First, forget_the_last_frames_asks)
        .configure_sets(Last, AskFrames.before(arm_the_alarm))
        .add_systems(
            Last,
            (
                one_more_frame_after_a_change.in_set(AskFrames),
                (arm_the_alarm, count_the_frames).chain().in_set(AlarmArmed),
            ),
        );
}

/// After the frame's asks and its alarm ([`Last`]): what reads them all goes after this set.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct AlarmArmed;

/// Where the last asks of a frame are made ([`Last`]), before the alarm is set for them: a
/// system in `Last` that asks for frames goes here, so that what counts a frame's asks after
/// this set (the page's `data-frames`) sees them all.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct AskFrames;

/// One more frame after a frame that changed `R` (added to [`Last`], in [`AskFrames`], by the
/// plugin that owns `R`): what the change set in motion is read there, as for the game's own
/// state in [`one_more_frame_after_a_change`].
pub(crate) fn one_more_frame_when_changed<R: Resource>(
    resource: Option<Res<R>>,
    mut redraw: Redraw,
) {
    if resource.is_some_and(|r| r.is_changed()) {
        redraw.now();
    }
}

/// The longest the game waits without a frame when nothing asks for one: for ever, in a
/// window and in a page (Bevy's loop waits for an event; a wait too long to add to the clock
/// is no timeout). A page kept a net of one frame in ten seconds until its browser test of the
/// screen reader showed that the "Your move" it seemed to wait for was only slow (two
/// software-rendered pages on two busy cores, seconds a frame), not forgotten (2026-11-29).
pub(crate) const AT_REST: Duration = Duration::MAX;

/// One more frame after a frame that wrote an `M` (added to [`Last`], in [`AskFrames`], by the
/// plugin that owns `M`): a message written after its readers ran in that frame is read in the
/// next, which nothing else may ask for (a move typed in a page's field, a request made late).
pub(crate) fn one_more_frame_when_written<M: Message>(
    messages: Option<Res<Messages<M>>>,
    mut redraw: Redraw,
) {
    if messages.is_some_and(|m| m.iter_current_update_messages().next().is_some()) {
        redraw.now();
    }
}

/// A frame in which the game moved on (a move, a phase, a reviewed move) is
/// followed by one more: what it set in motion is read there (a phase asked for is entered in
/// the next frame, a message written late in a frame is read early in the next). A frame that
/// changes nothing asks for nothing.
fn one_more_frame_after_a_change(
    the_match: Option<Res<crate::game::state::Match>>,
    phase: Option<Res<State<crate::game::state::TurnPhase>>>,
    next_phase: Option<Res<NextState<crate::game::state::TurnPhase>>>,
    review: Option<Res<crate::game::state::Review>>,
    mut redraw: Redraw,
) {
    let changed = the_match.is_some_and(|m| m.is_changed())
        || phase.is_some_and(|p| p.is_changed())
        || next_phase.is_some_and(|n| !matches!(*n, NextState::Unchanged))
        || review.is_some_and(|r| r.is_changed());
    if changed {
        redraw.now();
    }
}

/// The event loop reads every `RequestRedraw` still kept after a frame, and messages are kept
/// for two frames: an ask would bring two frames, and a frame that asks because of the one
/// before would never end. Each frame's asks are its own.
fn forget_the_last_frames_asks(mut redraws: ResMut<Messages<RequestRedraw>>) {
    redraws.clear();
}

/// Says (at debug level, `RUST_LOG=qiguo=debug`) how many frames each second drew and how
/// many were asked for (at trace level, each ask says where it was made): the way to find what
/// keeps a board from resting.
fn count_the_frames(
    time: Res<Time<Real>>,
    asked: Res<FramesAsked>,
    redraws: Res<Messages<RequestRedraw>>,
    mut tally: Local<(Duration, u64, u64, FramesAsked)>,
) {
    let (since, frames, redrawn, before) = &mut *tally;
    *frames += 1;
    *redrawn += redraws.iter_current_update_messages().count() as u64;
    let now = time.elapsed();
    if now.saturating_sub(*since) >= Duration::from_secs(1) {
        debug!(
            "frames: {frames} in {:.1} s; asked now {}, later {}; redraws written {redrawn}",
            now.saturating_sub(*since).as_secs_f32(),
            asked.now - before.now,
            asked.later - before.later,
        );
        *since = now;
        *frames = 0;
        *redrawn = 0;
        *before = *asked;
    }
}

/// With rendering: a frame follows while shader pipelines are still being compiled (the
/// meshes that need them are drawn once they are ready); egui's input without the modifiers'
/// event of every frame; egui's delayed repaints when they are due.
pub(super) fn view_plugin(app: &mut App) {
    use bevy::render::extract_resource::ExtractResourcePlugin;
    use bevy::render::{Render, RenderApp, RenderSystems};
    use bevy_egui::EguiPostUpdateSet;

    app.add_plugins(ExtractResourcePlugin::<Waker>::default())
        .init_resource::<EguiRepaint>()
        .add_systems(
            PreUpdate,
            quiet_unchanged_modifiers
                .after(bevy_egui::EguiInputSet::WriteEguiEvents)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        )
        .add_systems(
            PostUpdate,
            (
                read_egui_repaint_delay
                    .after(EguiPostUpdateSet::EndPass)
                    .before(EguiPostUpdateSet::ProcessOutput),
                egui_repaint_when_due
                    .after(EguiPostUpdateSet::ProcessOutput)
                    .before(EguiPostUpdateSet::PostProcessOutput),
            ),
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app.add_systems(Render, wake_for_pipelines.in_set(RenderSystems::Cleanup));
    }
}

/// bevy_egui tells egui the keyboard's modifiers every frame as an event, and egui asks for
/// another frame after any event: the board would never rest. The event is kept only when the
/// modifiers changed.
fn quiet_unchanged_modifiers(
    mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>,
    mut held: Local<bevy::platform::collections::HashMap<Entity, bevy_egui::egui::Modifiers>>,
) {
    use bevy_egui::egui::Event;
    for (entity, mut input) in &mut inputs {
        let before = held.get(&entity).copied();
        let mut now = before;
        input.0.events.retain(|event| match event {
            Event::ModifiersChanged(modifiers) => {
                let changed = now != Some(*modifiers);
                now = Some(*modifiers);
                changed
            }
            _ => true,
        });
        if let Some(now) = now {
            held.insert(entity, now);
        }
    }
}

/// egui's delayed repaints (a text field's blinking cursor, a tooltip's delay) as a frame
/// when each is due. bevy_egui asks for the next frame at once whenever egui wants a repaint
/// at all, however far off: a focused text field would draw frame after frame for its cursor.
/// egui's own wait is read before bevy_egui takes its output; where it is not zero, the one
/// ask bevy_egui adds is taken back and a frame asked for when the wait is over.
#[derive(Resource, Default)]
struct EguiRepaint {
    /// egui's wait before its next repaint, this frame (none: it wants none).
    delay: Option<Duration>,
    /// The frame's asks before bevy_egui read its output.
    asks_before: usize,
}

fn read_egui_repaint_delay(
    outputs: Query<&bevy_egui::EguiFullOutput>,
    redraws: Res<Messages<RequestRedraw>>,
    mut repaint: ResMut<EguiRepaint>,
) {
    use bevy_egui::egui::ViewportId;
    repaint.delay = outputs
        .iter()
        .filter_map(|output| output.0.as_ref())
        .filter_map(|full| full.viewport_output.get(&ViewportId::ROOT))
        .map(|viewport| viewport.repaint_delay)
        .filter(|delay| *delay < Duration::MAX)
        .min();
    repaint.asks_before = redraws.iter_current_update_messages().count();
}

fn egui_repaint_when_due(
    mut redraws: ResMut<Messages<RequestRedraw>>,
    repaint: Res<EguiRepaint>,
    mut due: ResMut<FrameDue>,
    mut asked: ResMut<FramesAsked>,
) {
    let Some(delay) = repaint.delay.filter(|d| !d.is_zero()) else {
        return;
    };
    let asks = redraws.iter_current_update_messages().count();
    if asks > repaint.asks_before {
        // bevy_egui's ask, one among the frame's (each the same message): the others stay.
        redraws.clear();
        for _ in 1..asks {
            redraws.write(RequestRedraw);
        }
    }
    due.ask_within(delay);
    asked.later += 1;
}

fn wake_for_pipelines(
    cache: Option<Res<bevy::render::render_resource::PipelineCache>>,
    waker: Option<Res<Waker>>,
) {
    use bevy::render::render_resource::CachedPipelineState;
    let (Some(cache), Some(waker)) = (cache, waker) else {
        return;
    };
    // Only those being compiled off the frame thread: one whose shader is missing waits for
    // it (a pipeline of a feature the device lacks may wait for ever), and a page compiles
    // each at once.
    let compiling = cache
        .pipelines()
        .any(|pipeline| matches!(pipeline.state, CachedPipelineState::Creating(_)));
    if compiling {
        waker.wake();
    }
}

/// Sets the window's update mode to drawing on demand; the benchmark and the screenshot keep
/// drawing every frame (they time frames, or wait for them).
pub(crate) fn draw_on_demand(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive(AT_REST),
        unfocused_mode: UpdateMode::reactive_low_power(AT_REST),
    });
    // The game's time keeps up with the clock's across a rest, however long (Bevy's default
    // lets it fall behind after a quarter of a second, which suits games that draw every
    // frame): a pause, a notice's seconds and a clock count the time that passed. What moves
    // steps from the frame it starts in (the glides).
    if let Some(mut time) = app.world_mut().get_resource_mut::<Time<Virtual>>() {
        time.set_max_delta(Duration::MAX);
    }
}

/// Wakes the game's event loop from anywhere (another thread, a browser callback): a frame
/// follows at once. Cloned into whatever finishes off the frame thread.
#[derive(Resource, Clone, Default, bevy::render::extract_resource::ExtractResource)]
pub struct Waker(Option<Arc<Mutex<bevy::winit::EventLoopProxy<WinitUserEvent>>>>);

impl Waker {
    /// Asks for a frame now. Without an event loop (headless), nothing.
    pub fn wake(&self) {
        if let Some(proxy) = &self.0 {
            let proxy = proxy.lock().unwrap_or_else(|e| e.into_inner());
            // The loop is gone only when the game is closing.
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        }
    }

    /// The wake as a function, for code that knows nothing of the game.
    pub fn as_fn(&self) -> qiguo_client::Wake {
        let waker = self.clone();
        Arc::new(move || waker.wake())
    }
}

/// Where the [`Waker`] is made, before anything takes a copy of it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FindTheEventLoop;

fn find_the_event_loop(proxy: Option<Res<EventLoopProxyWrapper>>, mut waker: ResMut<Waker>) {
    if let Some(proxy) = proxy {
        *waker = Waker(Some(Arc::new(Mutex::new((**proxy).clone()))));
    }
}

/// When the next frame is due at the latest, for what waits on time; gathered over a frame,
/// then an alarm is set for the earliest.
#[derive(Resource, Default, Debug)]
pub(crate) struct FrameDue {
    within: Option<Duration>,
}

impl FrameDue {
    fn ask_within(&mut self, wait: Duration) {
        self.within = Some(self.within.map_or(wait, |d| d.min(wait)));
    }
}

/// How many times the game's systems have asked for frames, at once and for later: a game at
/// rest asks for none (the tests count them).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FramesAsked {
    /// Asked for the next frame (something moves).
    pub now: u64,
    /// Asked for a frame after a while (something waits on time).
    pub later: u64,
}

/// What a system uses to ask for frames.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Redraw<'w> {
    writer: MessageWriter<'w, RequestRedraw>,
    due: ResMut<'w, FrameDue>,
    asked: ResMut<'w, FramesAsked>,
}

impl Redraw<'_> {
    /// Another frame after this one (something moves).
    #[track_caller]
    pub(crate) fn now(&mut self) {
        trace!("a frame asked for by {}", std::panic::Location::caller());
        self.asked.now += 1;
        self.writer.write(RequestRedraw);
    }

    /// A frame within `wait` (something waits on time).
    #[track_caller]
    pub(crate) fn within(&mut self, wait: Duration) {
        trace!(
            "a frame within {wait:?} asked for by {}",
            std::panic::Location::caller()
        );
        if wait.is_zero() {
            self.now();
            return;
        }
        self.asked.later += 1;
        self.due.ask_within(wait);
    }
}

/// The last alarm set for a frame: when it rings (by the frame's clock), and whether it has
/// rung. While it has not, a frame is due later (something waits on time: a computer's pause,
/// a notice that goes): a board is settled only when nothing moves and nothing waits.
#[derive(Resource, Default, Debug)]
pub struct AlarmPending(Option<(Duration, Arc<AtomicBool>)>);

impl AlarmPending {
    /// When the alarm that has not rung yet rings, if one is set.
    fn rings_at(&self) -> Option<Duration> {
        self.0
            .as_ref()
            .filter(|(_, rung)| !rung.load(Ordering::Acquire))
            .map(|(at, _)| *at)
    }

    /// Whether a frame is due later.
    pub fn pending(&self) -> bool {
        self.rings_at().is_some()
    }
}

/// Sets an alarm for the earliest frame asked for this frame, unless one that has not rung yet
/// rings sooner. Whether an alarm has rung is its own word, not the clock's: a browser's timer
/// may ring a little before the frame's clock says it is due, and the frame it brings may ask
/// for the rest of the wait.
fn arm_the_alarm(
    mut due: ResMut<FrameDue>,
    time: Res<Time<Real>>,
    waker: Res<Waker>,
    mut last: ResMut<AlarmPending>,
) {
    let Some(wait) = due.within.take() else {
        return;
    };
    let at = time.elapsed() + wait;
    if last.rings_at().is_some_and(|sooner| sooner <= at) {
        return;
    }
    let rung = Arc::new(AtomicBool::new(false));
    last.0 = Some((at, rung.clone()));
    alarm::after(wait, waker.clone(), rung);
}

/// An alarm that wakes the game after a while: a sleeping thread on the desktop, the browser's
/// timer in a page. It says it has rung before it wakes the game.
mod alarm {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use super::Waker;

    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn after(wait: Duration, waker: Waker, rung: Arc<AtomicBool>) {
        if waker.0.is_none() {
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("frame alarm".into())
            .spawn(move || {
                std::thread::sleep(wait);
                rung.store(true, Ordering::Release);
                waker.wake();
            });
        if let Err(e) = spawned {
            bevy::log::warn!("no alarm for the next frame ({e}): it comes within a few seconds");
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub(super) fn after(wait: Duration, waker: Waker, rung: Arc<AtomicBool>) {
        use wasm_bindgen::JsCast;
        use wasm_bindgen::closure::Closure;

        if waker.0.is_none() {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let ring = Closure::once_into_js(move || {
            rung.store(true, Ordering::Release);
            waker.wake();
        });
        // Whole milliseconds, rounded up: never before the wait is over.
        let ms = i32::try_from(wait.as_micros().div_ceil(1000)).unwrap_or(i32::MAX);
        if let Err(e) =
            window.set_timeout_with_callback_and_timeout_and_arguments_0(ring.unchecked_ref(), ms)
        {
            bevy::log::warn!("no alarm for the next frame ({e:?}): it comes within a few seconds");
        }
    }
}
