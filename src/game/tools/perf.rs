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

use crate::game::tools::screenshot::ScreenshotRequest;

/// When the process started, for the start-up figure.
pub(crate) static PROCESS_START: OnceLock<Instant> = OnceLock::new();

pub(crate) fn plugin(app: &mut App) {
    let Some(frames) = app.world().get_resource::<BenchFrames>().map(|b| b.frames) else {
        return;
    };
    let first_frame = FirstFrame::default();
    app.insert_resource(first_frame.clone())
        .insert_resource(FrameTimes {
            samples: Vec::with_capacity(frames as usize),
            ..default()
        })
        .add_systems(First, start_frame)
        .add_systems(Last, (note_gpu_time, end_frame).chain());
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(first_frame)
            .add_systems(Render, note_first_frame.after(RenderSystems::Render));
        app.add_plugins(RenderDiagnosticsPlugin);
    }
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
    /// When the render diagnostics last brought a frame's timings.
    gpu_seen: Option<Instant>,
}

/// The suffix of a render pass's GPU time among Bevy's diagnostics.
const GPU_SPAN: &str = "elapsed_gpu";

/// Takes the GPU time of the latest frame whose timestamps have come back, once.
fn note_gpu_time(store: Option<Res<DiagnosticsStore>>, mut times: ResMut<FrameTimes>) {
    let Some(store) = store else { return };
    let spans: Vec<(Instant, &str, f64)> = store
        .iter()
        .filter(|d| d.path().as_str().ends_with(GPU_SPAN))
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
    let frame: Vec<(&str, f64)> = spans
        .iter()
        .filter(|s| s.0 == newest)
        .map(|s| (s.1, s.2))
        .collect();
    times.gpu.push(outermost_total(&frame));
}

/// The total of the outermost spans among `(path, milliseconds)`, paths such as
/// `render/main_opaque_pass_3d/elapsed_gpu`: a span nested in another (its path extends the
/// other's) is already counted in it.
fn outermost_total(spans: &[(&str, f64)]) -> f64 {
    let span_of = |path: &str| path.strip_suffix(GPU_SPAN).unwrap_or(path).to_owned();
    spans
        .iter()
        .filter(|(path, _)| {
            let own = span_of(path);
            !spans.iter().any(|(other, _)| {
                let outer = span_of(other);
                outer.len() < own.len() && own.starts_with(&outer)
            })
        })
        .map(|(_, ms)| ms)
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
    if times.samples.len() as u32 >= bench.frames {
        let first_frame = first
            .0
            .lock()
            .ok()
            .and_then(|at| *at)
            .zip(PROCESS_START.get().copied())
            .map(|(at, start)| at - start);
        println!("{}", report(&times.samples, &times.gpu, first_frame));
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
fn report(samples: &[(Duration, Duration)], gpu: &[f64], first_frame: Option<Duration>) -> String {
    let (cpu_mean, cpu_p50, cpu_p95, cpu_max) =
        stats(samples.iter().map(|s| millis(s.0)).collect());
    let (wall_mean, wall_p50, wall_p95, wall_max) =
        stats(samples.iter().map(|s| millis(s.1)).collect());
    let startup = first_frame.map_or("unknown".to_owned(), |d| {
        format!("{:.2} s", d.as_secs_f64())
    });
    let gpu_line = if gpu.is_empty() {
        "GPU per frame: not measured (no timestamp queries on this device, or nothing drawn)"
            .to_owned()
    } else {
        let (mean, p50, p95, max) = stats(gpu.to_vec());
        format!(
            "GPU per frame (render passes, {} frames): mean {mean:.2} ms, p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms",
            gpu.len()
        )
    };
    format!(
        "frames timed: {} (after {WARM_UP} warm-up frames)\n\
         startup to first drawn frame: {startup}\n\
         main world per frame (all systems, one thread): mean {cpu_mean:.3} ms, p50 {cpu_p50:.3} ms, p95 {cpu_p95:.3} ms, max {cpu_max:.3} ms\n\
         {gpu_line}\n\
         frame time: mean {wall_mean:.2} ms ({:.1} fps), p50 {wall_p50:.2} ms, p95 {wall_p95:.2} ms, max {wall_max:.2} ms",
        samples.len(),
        1000.0 / wall_mean.max(1e-9),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_summarises_samples() {
        let samples: Vec<_> = (1..=100)
            .map(|i| (Duration::from_micros(i * 10), Duration::from_millis(16)))
            .collect();
        let text = report(&samples, &[], Some(Duration::from_millis(1500)));
        assert!(text.contains("frames timed: 100"));
        assert!(text.contains("GPU per frame: not measured"), "{text}");
        assert!(text.contains("startup to first drawn frame: 1.50 s"));
        assert!(
            text.contains("p50 0.510 ms") || text.contains("p50 0.500 ms"),
            "{text}"
        );
        assert!(text.contains("(62.5 fps)"));
        let text = report(&samples, &[2.0, 4.0, 6.0], None);
        assert!(
            text.contains("GPU per frame (render passes, 3 frames): mean 4.00 ms, p50 4.00 ms"),
            "{text}"
        );
        assert!(text.contains("startup to first drawn frame: unknown"));
    }

    #[test]
    fn a_frames_gpu_time_counts_nested_passes_once() {
        let spans = [
            ("render/shadows/elapsed_gpu", 1.5),
            ("render/shadows/cascade_0/elapsed_gpu", 1.0),
            ("render/main_opaque_pass_3d/elapsed_gpu", 3.0),
            ("render/egui/elapsed_gpu", 0.5),
        ];
        assert_eq!(outermost_total(&spans), 5.0);
        // A name that merely starts like another is not inside it.
        let spans = [
            ("render/main/elapsed_gpu", 1.0),
            ("render/main_pass/elapsed_gpu", 2.0),
        ];
        assert_eq!(outermost_total(&spans), 3.0);
        assert_eq!(outermost_total(&[]), 0.0);
    }
}
