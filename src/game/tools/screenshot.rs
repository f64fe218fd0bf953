//! Screenshot mode: once the scene is fully drawn, save a PNG of the window (or of the image
//! drawn into with `--offscreen`) and exit. The app compiles pipelines synchronously in this
//! mode, so the frames drawn are complete; a few frames more let the interface lay itself out.
//! With `--bench-frames` as well, the picture waits for the last timed frame; a game over
//! waits for its review, `--practice` for its first question, and `--join` for the link to be
//! followed (the game on the board).

use std::path::PathBuf;
use std::time::Duration;

use bevy::camera::{ImageRenderTarget, RenderTarget};
use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use crate::game::tools::perf::{BenchFrames, FramesTimed};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<ScreenshotHolds>().add_systems(
        Last,
        take_screenshot.run_if(resource_exists::<ScreenshotRequest>),
    );
}

/// What the picture still waits for, each hold named by the feature that keeps it (a game's
/// review being made, a practice's or a puzzle's first question, a link being followed): a
/// feature says when it is ready through [`hold_while`], so the picture reads none of the
/// features' resources and this low room imports none of them.
#[derive(Resource, Default, Debug)]
pub(crate) struct ScreenshotHolds(std::collections::BTreeSet<&'static str>);

impl ScreenshotHolds {
    /// `who` holds the picture, or lets it go.
    fn set(&mut self, who: &'static str, holding: bool) {
        if holding {
            self.0.insert(who);
        } else {
            self.0.remove(who);
        }
    }
}

/// Holds the picture, under `who`, in the frames where resource `R` is there and `holding`
/// says so of it (a feature's plugin calls this for what its first picture needs).
pub(crate) fn hold_while<R: Resource>(app: &mut App, who: &'static str, holding: fn(&R) -> bool) {
    app.add_systems(
        Update,
        (move |kept: Option<Res<R>>, holds: Option<ResMut<ScreenshotHolds>>| {
            if let Some(mut holds) = holds {
                holds.set(who, kept.is_some_and(|kept| holding(&kept)));
            }
        })
        .run_if(resource_exists::<ScreenshotRequest>),
    );
}

/// Where to save the screenshot.
#[derive(Resource, Clone, Debug)]
pub(crate) struct ScreenshotRequest {
    /// The PNG's path.
    pub(crate) path: PathBuf,
    /// The image drawn into instead of a window (`--offscreen`), if any, at the scale the
    /// camera draws it (a screenshot is of the target that matches it exactly).
    pub(crate) image: Option<ImageRenderTarget>,
}

/// Frames drawn before the picture is taken: the interface needs a couple of passes (not a
/// time) to install its font and lay out its windows.
const SETTLE_FRAMES: u32 = 12;

/// Frames drawn after everything waited for is there, before the picture is taken.
const AFTER_READY_FRAMES: u32 = 3;

/// Real time after which an untaken screenshot counts as failed (software rendering may draw
/// one frame a second while it compiles pipelines).
const GIVE_UP_AFTER: Duration = Duration::from_secs(300);

fn take_screenshot(
    mut commands: Commands,
    request: Res<ScreenshotRequest>,
    frames: Res<FrameCount>,
    time: Res<Time<Real>>,
    bench: Option<Res<BenchFrames>>,
    timed: Option<Res<FramesTimed>>,
    textures: crate::game::board::WholeTextures,
    holds: Res<ScreenshotHolds>,
    mut ready_since: Local<Option<u32>>,
    mut taken: Local<bool>,
    mut exit: MessageWriter<AppExit>,
) {
    if time.elapsed() > GIVE_UP_AFTER {
        error!("the screenshot was never captured");
        exit.write(AppExit::from_code(1));
        return;
    }
    // The board and the stones in their whole textures, too (drawn off the frame after the
    // first ones).
    if *taken
        || frames.0 < SETTLE_FRAMES
        || (bench.is_some() && timed.is_none())
        || !textures.worn()
        || !holds.0.is_empty()
    {
        *ready_since = None;
        return;
    }
    // What came last (a review's text) is laid out, and its glyphs in the font's texture, a
    // frame or two after it first shows.
    let since = *ready_since.get_or_insert(frames.0);
    if frames.0 < since + AFTER_READY_FRAMES {
        return;
    }
    *taken = true;
    let path = request.path.clone();
    let shot = match &request.image {
        Some(image) => Screenshot(RenderTarget::Image(image.clone())),
        None => Screenshot::primary_window(),
    };
    commands.spawn(shot).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|image| image.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => {
                    info!("screenshot saved to {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    eprintln!(
                        "qiguo: cannot save the screenshot to {}: {e}",
                        path.display()
                    );
                    exit.write(AppExit::from_code(1));
                }
            }
        },
    );
}
