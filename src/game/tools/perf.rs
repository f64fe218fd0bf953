//! `--bench-frames N`: runs N frames, then prints how long start-up took, how long the main
//! world's schedule (every game and engine system; no GPU work) took per frame, and the frame
//! time.
//!
//! The main world runs on one thread (see `run_main_world_on_one_thread`), so its schedule's
//! duration is its CPU time as long as nothing else needs the cores. A software renderer does:
//! `--no-render` runs every system without a graphics device, for the game's CPU work alone.
//!
//! Where the graphics device has timestamp queries, the GPU's own time per frame is printed
//! too: Bevy's render diagnostics time each render pass on the GPU, and a frame's GPU time is
//! the sum of its outermost passes.
//!
//! With `--screenshot` as well, the picture is taken after the last timed frame.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bevy::platform::time::Instant;

use bevy::diagnostic::DiagnosticsStore;
use bevy::prelude::*;
use bevy::render::diagnostic::RenderDiagnosticsPlugin;
use bevy::render::{Render, RenderApp, RenderSystems};

use crate::game::awareness::ToggleThreats;
use crate::game::hint::HintRequested;
use crate::game::recap::Recap;
use crate::game::selection::Selection;
use crate::game::state::Match;
use crate::game::tools::counts::{self, GpuCounts};
use crate::game::tools::screenshot::ScreenshotRequest;

/// When the process started, for the start-up figure.
pub(crate) static PROCESS_START: OnceLock<Instant> = OnceLock::new();

pub(crate) fn plugin(app: &mut App) {
    let Some(frames) = app.world().get_resource::<BenchFrames>().map(|b| b.frames) else {
        return;
    };
    let first_frame = FirstFrame::default();
    let counts = GpuCounts::default();
    counts::plugin(app, counts.clone());
    app.insert_resource(counts)
        .insert_resource(first_frame.clone())
        .insert_resource(FrameTimes {
            samples: Vec::with_capacity(frames as usize),
            ..default()
        })
        .add_systems(First, start_frame)
        .add_systems(Last, (note_gpu_time, end_frame).chain());
    if app.world().contains_resource::<BusyScene>() {
        app.add_systems(Update, show_the_busy_marks);
    }
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(first_frame)
            .add_systems(Render, note_first_frame.after(RenderSystems::Render));
        app.add_plugins(RenderDiagnosticsPlugin);
    }
}

/// The busy middle game of `--busy`: 84 moves of a game between Easy players (seeded, 30 ms a
/// move), all seven kingdoms in play, before the round that leads to Qin's turn. (Read by the
/// command line, which a page has not.)
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const BUSY_FEN: &str = "3dSdBdQdRdS2pNpSpBpQpRpSpN2/3dNdSdCdSdN3pNpS1pSpCgN2/\
    3dNwN7pA1pAgQ3/17gSgS/5dGdAdW3gG4gA1gB/16gWgC1/wN4dN7pW3gSgR/wSwA13gA1gN1/wRwS16gS/\
    wQwC1wH9bN5/wB1wA10bW4bN/wSwS8pG6bNbS/7oH6bG1bAbSbR/1wN3rG4wG4bH1bCbQ/\
    1rN2rH2rW5oG1bNbAbSbR/18oN/4wN1rA3oA2oWoA4/3rNrS1rS5oSoCoSoN3/2rS1rRrQrBrSoNoR2oQ1oBoS3 r";
/// The round played from [`BUSY_FEN`] up to Qin's turn: the six moves Qin's recap shows.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const BUSY_MOVES: [&str; 6] = ["h5k5", "m1l1", "o7l7", "l15n17", "l18j15", "f13h12"];
/// Who plays in the busy middle game: Qin a person, the six others computers.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const BUSY_LEVELS: &str = "person,easy,easy,easy,easy,easy,easy";

/// The busy middle game's marks are to be shown (`--busy`).
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct BusyScene;

/// Once Qin's turn has begun (its recap of the round noted), shows the rest of what a turn can
/// show: the threats, the moves of the Qin stone with the most, and a hint's arrow.
fn show_the_busy_marks(
    the_match: Res<Match>,
    recap: Res<Recap>,
    mut selection: ResMut<Selection>,
    mut threats: MessageWriter<ToggleThreats>,
    mut hints: MessageWriter<HintRequested>,
    mut shown: Local<bool>,
) {
    if *shown || recap.current(&the_match).is_none() {
        return;
    }
    *shown = true;
    let moves = the_match.position().legal_moves();
    let busiest = moves
        .iter()
        .filter_map(|mv| mv.from())
        .max_by_key(|from| moves.iter().filter(|mv| mv.from() == Some(*from)).count());
    selection.selected = busiest;
    threats.write(ToggleThreats);
    hints.write(HintRequested);
}

/// Set when every frame asked for has been timed (and a screenshot, if asked for, may be
/// taken).
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct FramesTimed;

/// How many frames to time.
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct BenchFrames {
    /// Frames to run after start-up.
    pub(crate) frames: u32,
}

/// When the renderer first finished a frame (shared with the render world).
#[derive(Resource, Clone, Default)]
struct FirstFrame(Arc<Mutex<Option<Instant>>>);

#[derive(Resource, Default)]
struct FrameTimes {
    frame_start: Option<Instant>,
    last_start: Option<Instant>,
    /// (main schedule time, wall time since the previous frame started)
    samples: Vec<(Duration, Duration)>,
    skipped: u32,
    /// The GPU's time for each frame whose timestamps came back (not every frame's do: the
    /// render world hands over only its latest).
    gpu: Vec<f64>,
    /// The triangles of each frame whose pipeline statistics came back.
    triangles: Vec<f64>,
    /// The interface's draw calls of each frame timed.
    interface_draws: Vec<u32>,
    /// When the render diagnostics last brought a frame's timings.
    gpu_seen: Option<Instant>,
}

/// The suffix of a render pass's GPU time among Bevy's diagnostics.
const GPU_SPAN: &str = "elapsed_gpu";

/// The suffix of the primitives a render pass's clipper received, among Bevy's diagnostics
/// (the pipeline statistics, where the device has them).
const TRIANGLES: &str = "clipper_invocations";

/// Takes the GPU time and the triangles of the latest frame whose timings have come back,
/// once.
fn note_gpu_time(store: Option<Res<DiagnosticsStore>>, mut times: ResMut<FrameTimes>) {
    let Some(store) = store else { return };
    let spans: Vec<(Instant, &str, f64)> = store
        .iter()
        .filter(|d| {
            let path = d.path().as_str();
            path.ends_with(GPU_SPAN) || path.ends_with(TRIANGLES)
        })
        .filter_map(|d| {
            d.measurement()
                .map(|m| (m.time, d.path().as_str(), m.value))
        })
        .collect();
    let Some(newest) = spans.iter().map(|s| s.0).max() else {
        return;
    };
    if times.gpu_seen.is_some_and(|seen| seen >= newest) {
        return;
    }
    times.gpu_seen = Some(newest);
    if times.skipped < WARM_UP {
        return;
    }
    let frame = |suffix: &str| -> Vec<(&str, f64)> {
        spans
            .iter()
            .filter(|s| s.0 == newest && s.1.ends_with(suffix))
            .map(|s| (s.1, s.2))
            .collect()
    };
    let gpu = frame(GPU_SPAN);
    if !gpu.is_empty() {
        times.gpu.push(outermost_total(&gpu, GPU_SPAN));
    }
    let triangles = frame(TRIANGLES);
    if !triangles.is_empty() {
        times.triangles.push(outermost_total(&triangles, TRIANGLES));
    }
}

/// The total of the outermost spans among `(path, value)`, paths such as
/// `render/main_opaque_pass_3d/elapsed_gpu` (`suffix` the last part): a span nested in another
/// (its path extends the other's) is already counted in it.
fn outermost_total(spans: &[(&str, f64)], suffix: &str) -> f64 {
    let span_of = |path: &str| path.strip_suffix(suffix).unwrap_or(path).to_owned();
    spans
        .iter()
        .filter(|(path, _)| {
            let own = span_of(path);
            !spans.iter().any(|(other, _)| {
                let outer = span_of(other);
                outer.len() < own.len() && own.starts_with(&outer)
            })
        })
        .map(|(_, value)| value)
        .sum()
}

fn note_first_frame(first: Res<FirstFrame>) {
    if let Ok(mut at) = first.0.lock()
        && at.is_none()
    {
        *at = Some(Instant::now());
    }
}

fn start_frame(mut times: ResMut<FrameTimes>) {
    let now = Instant::now();
    times.last_start = times.frame_start.replace(now);
}

/// Frames skipped before timing: start-up work (textures, first layout) is not steady state.
const WARM_UP: u32 = 30;

fn end_frame(
    mut commands: Commands,
    mut times: ResMut<FrameTimes>,
    bench: Res<BenchFrames>,
    first: Res<FirstFrame>,
    screenshot: Option<Res<ScreenshotRequest>>,
    timed: Option<Res<FramesTimed>>,
    counts: Res<GpuCounts>,
    interface: Query<&bevy_egui::EguiRenderOutput>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    let (Some(start), Some(last)) = (times.frame_start, times.last_start) else {
        return;
    };
    if timed.is_some() {
        return;
    }
    if times.skipped < WARM_UP {
        times.skipped += 1;
        return;
    }
    times.samples.push((now - start, start - last));
    times
        .interface_draws
        .push(counts::interface_draws(&interface));
    if times.samples.len() as u32 >= bench.frames {
        let first_frame = first
            .0
            .lock()
            .ok()
            .and_then(|at| *at)
            .zip(PROCESS_START.get().copied())
            .map(|(at, start)| at - start);
        println!("{}", report(&times, &counts.frames(), first_frame));
        commands.insert_resource(FramesTimed);
        // With a screenshot asked for, the screenshot ends the run once it is saved.
        if screenshot.is_none() {
            exit.write(AppExit::Success);
        }
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn stats(mut values: Vec<f64>) -> (f64, f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len().max(1);
    let mean = values.iter().sum::<f64>() / n as f64;
    let at = |q: f64| values[((n as f64 - 1.0) * q).round() as usize];
    (mean, at(0.5), at(0.95), *values.last().unwrap_or(&0.0))
}

/// The printed report.
fn report(times: &FrameTimes, drawn: &counts::Frames, first_frame: Option<Duration>) -> String {
    let samples = &times.samples;
    let (cpu_mean, cpu_p50, cpu_p95, cpu_max) =
        stats(samples.iter().map(|s| millis(s.0)).collect());
    let (wall_mean, wall_p50, wall_p95, wall_max) =
        stats(samples.iter().map(|s| millis(s.1)).collect());
    let startup = first_frame.map_or("unknown".to_owned(), |d| {
        format!("{:.2} s", d.as_secs_f64())
    });
    let gpu_line = if times.gpu.is_empty() {
        "GPU per frame: not measured (no timestamp queries on this device, or nothing drawn)"
            .to_owned()
    } else {
        let (mean, p50, p95, max) = stats(times.gpu.clone());
        format!(
            "GPU per frame (render passes, {} frames): mean {mean:.2} ms, p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms",
            times.gpu.len()
        )
    };
    format!(
        "frames timed: {} (after {WARM_UP} warm-up frames)\n\
         startup to first drawn frame: {startup}\n\
         main world per frame (all systems, one thread): mean {cpu_mean:.3} ms, p50 {cpu_p50:.3} ms, p95 {cpu_p95:.3} ms, max {cpu_max:.3} ms\n\
         {gpu_line}\n\
         frame time: mean {wall_mean:.2} ms ({:.1} fps), p50 {wall_p50:.2} ms, p95 {wall_p95:.2} ms, max {wall_max:.2} ms\n\
         {}",
        samples.len(),
        1000.0 / wall_mean.max(1e-9),
        what_is_drawn(times, drawn),
    )
}

/// The report's lines on what each frame asks of the GPU: draw calls, triangles, pipelines.
fn what_is_drawn(times: &FrameTimes, drawn: &counts::Frames) -> String {
    // The render world's frames after the warm-up (it draws a frame after the main world's).
    let phases: Vec<[u32; counts::PHASES.len()]> = drawn
        .scene_draws
        .iter()
        .skip(WARM_UP as usize)
        .copied()
        .collect();
    let scene: Vec<u32> = phases.iter().map(|p| p.iter().sum()).collect();
    let draws_line = if scene.is_empty() {
        "draw calls per frame: not counted (nothing drawn)".to_owned()
    } else {
        let whole: Vec<f64> = scene
            .iter()
            .zip(times.interface_draws.iter())
            .map(|(scene, interface)| f64::from(scene + interface))
            .collect();
        let (mean, _, _, max) = stats(whole);
        let (interface_mean, ..) = stats(
            times
                .interface_draws
                .iter()
                .map(|&d| f64::from(d))
                .collect(),
        );
        let by_phase: Vec<String> = counts::PHASES
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let (mean, ..) = stats(phases.iter().map(|p| f64::from(p[i])).collect());
                (mean > 0.0).then(|| format!("{name} {mean:.1}"))
            })
            .chain([format!("the interface {interface_mean:.1}")])
            .collect();
        format!(
            "draw calls per frame: mean {mean:.1}, max {max:.0} ({})",
            by_phase.join(", ")
        )
    };
    let triangles_line = if times.triangles.is_empty() {
        "triangles per frame: not counted (no pipeline statistics on this device)".to_owned()
    } else {
        let (mean, _, _, max) = stats(times.triangles.clone());
        format!(
            "triangles per frame (received by the clipper in the 3D passes and shadows): mean {mean:.0}, max {max:.0}"
        )
    };
    let pipelines_line = match drawn.pipelines.last() {
        None => "pipelines: not counted (nothing drawn)".to_owned(),
        Some(&(render, compute)) => {
            let total = |p: &(u32, u32)| p.0 + p.1;
            // The render world's frame in which the last pipeline became ready (1 = the first).
            let last_made = drawn
                .pipelines
                .iter()
                .rposition(|p| total(p) < render + compute)
                .map_or(1, |i| i + 2);
            format!(
                "pipelines ready: {render} render, {compute} compute; the last made in frame {last_made} of {}",
                drawn.pipelines.len()
            )
        }
    };
    format!("{draws_line}\n{triangles_line}\n{pipelines_line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_summarises_samples() {
        let samples: Vec<_> = (1..=100)
            .map(|i| (Duration::from_micros(i * 10), Duration::from_millis(16)))
            .collect();
        let mut times = FrameTimes {
            samples,
            ..default()
        };
        let text = report(
            &times,
            &counts::Frames::default(),
            Some(Duration::from_millis(1500)),
        );
        assert!(text.contains("frames timed: 100"));
        assert!(text.contains("GPU per frame: not measured"), "{text}");
        assert!(text.contains("startup to first drawn frame: 1.50 s"));
        assert!(
            text.contains("p50 0.510 ms") || text.contains("p50 0.500 ms"),
            "{text}"
        );
        assert!(text.contains("(62.5 fps)"));
        times.gpu = vec![2.0, 4.0, 6.0];
        let text = report(&times, &counts::Frames::default(), None);
        assert!(
            text.contains("GPU per frame (render passes, 3 frames): mean 4.00 ms, p50 4.00 ms"),
            "{text}"
        );
        assert!(text.contains("startup to first drawn frame: unknown"));
    }

    #[test]
    fn the_report_counts_draw_calls_triangles_and_pipelines() {
        let times = FrameTimes {
            interface_draws: vec![10, 12],
            triangles: vec![1000.0, 3000.0],
            ..default()
        };
        // The warm-up's frames are not counted.
        let mut scene_draws = vec![[500, 0, 0, 0, 0, 0, 0, 0, 0]; WARM_UP as usize];
        scene_draws.extend([
            [60, 0, 0, 10, 0, 0, 0, 0, 20],
            [70, 0, 0, 10, 0, 0, 0, 0, 20],
        ]);
        let mut pipelines = vec![(5, 1), (9, 2), (9, 2), (12, 2)];
        pipelines.resize(WARM_UP as usize + 2, (12, 2));
        let drawn = counts::Frames {
            scene_draws,
            pipelines,
        };
        let text = what_is_drawn(&times, &drawn);
        assert!(
            text.contains("draw calls per frame: mean 106.0, max 112 (opaque 65.0, transparent 10.0, shadows 20.0, the interface 11.0)"),
            "{text}"
        );
        assert!(text.contains("mean 2000, max 3000"), "{text}");
        assert!(
            text.contains("pipelines ready: 12 render, 2 compute; the last made in frame 4 of 32"),
            "{text}"
        );
        let text = what_is_drawn(&FrameTimes::default(), &counts::Frames::default());
        assert!(text.contains("draw calls per frame: not counted"), "{text}");
        assert!(text.contains("triangles per frame: not counted"), "{text}");
        assert!(text.contains("pipelines: not counted"), "{text}");
    }

    #[test]
    fn a_frames_gpu_time_counts_nested_passes_once() {
        let spans = [
            ("render/shadows/elapsed_gpu", 1.5),
            ("render/shadows/cascade_0/elapsed_gpu", 1.0),
            ("render/main_opaque_pass_3d/elapsed_gpu", 3.0),
            ("render/egui/elapsed_gpu", 0.5),
        ];
        assert_eq!(outermost_total(&spans, GPU_SPAN), 5.0);
        // A name that merely starts like another is not inside it.
        let spans = [
            ("render/main/elapsed_gpu", 1.0),
            ("render/main_pass/elapsed_gpu", 2.0),
        ];
        assert_eq!(outermost_total(&spans, GPU_SPAN), 3.0);
        assert_eq!(outermost_total(&[], GPU_SPAN), 0.0);
    }
}
