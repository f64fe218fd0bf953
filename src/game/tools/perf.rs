//! `--bench-frames N`: runs N frames, then prints how long start-up took, how long the main
//! world's schedule (every game and engine system; no GPU work) took per frame, and the frame
//! time.
//!
//! The main world runs on one thread (see `run_main_world_on_one_thread`), so its schedule's
//! duration is its CPU time as long as nothing else needs the cores. A software renderer does:
//! `--no-render` runs every system without a graphics device, for the game's CPU work alone.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bevy::platform::time::Instant;

use bevy::prelude::*;
use bevy::render::{Render, RenderApp, RenderSystems};

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
        .add_systems(Last, end_frame);
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(first_frame)
            .add_systems(Render, note_first_frame.after(RenderSystems::Render));
    }
}

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
    mut times: ResMut<FrameTimes>,
    bench: Res<BenchFrames>,
    first: Res<FirstFrame>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    let (Some(start), Some(last)) = (times.frame_start, times.last_start) else {
        return;
    };
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
        println!("{}", report(&times.samples, first_frame));
        exit.write(AppExit::Success);
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
fn report(samples: &[(Duration, Duration)], first_frame: Option<Duration>) -> String {
    let (cpu_mean, cpu_p50, cpu_p95, cpu_max) =
        stats(samples.iter().map(|s| millis(s.0)).collect());
    let (wall_mean, wall_p50, wall_p95, wall_max) =
        stats(samples.iter().map(|s| millis(s.1)).collect());
    let startup = first_frame.map_or("unknown".to_owned(), |d| {
        format!("{:.2} s", d.as_secs_f64())
    });
    format!(
        "frames timed: {} (after {WARM_UP} warm-up frames)\n\
         startup to first drawn frame: {startup}\n\
         main world per frame (all systems, one thread): mean {cpu_mean:.3} ms, p50 {cpu_p50:.3} ms, p95 {cpu_p95:.3} ms, max {cpu_max:.3} ms\n\
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
        let text = report(&samples, Some(Duration::from_millis(1500)));
        assert!(text.contains("frames timed: 100"));
        assert!(text.contains("startup to first drawn frame: 1.50 s"));
        assert!(
            text.contains("p50 0.510 ms") || text.contains("p50 0.500 ms"),
            "{text}"
        );
        assert!(text.contains("(62.5 fps)"));
    }
}
