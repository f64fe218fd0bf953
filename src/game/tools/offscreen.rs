//! `--offscreen WxH[@R]`: the scene drawn into an image of that many pixels instead of a
//! window.
//!
//! No window is opened and no display server is needed, so `--bench-frames` and `--screenshot`
//! run on a machine whose GPU has no screen (and on a software renderer without Xvfb). The
//! game's camera renders into the image ([`OffscreenTarget`]); its interface is laid out for the
//! image's size, as for a window of that size at a scale factor of 1. A screen of more pixels
//! to a point (`@R`, a phone's) is drawn as the page draws it: at two pixels to a point at
//! most, the interface laid out for the screen's points (1170x2532@3: an image of 780×1688, an
//! interface of 390×844 points). Nothing reads input.
//!
//! A window's frames are paced by presenting them; an image's are not, and the CPU could queue
//! frames faster than the GPU draws them. So each frame here ends by waiting for the GPU to
//! finish it: the frame time is the time to draw a frame completely.

use std::time::Duration;

use bevy::app::{PluginGroupBuilder, ScheduleRunnerPlugin};
use bevy::asset::RenderAssetUsages;
use bevy::camera::{ImageRenderTarget, RenderTarget};
use bevy::prelude::*;
use bevy::render::render_resource::{PollType, TextureFormat, TextureUsages};
use bevy::render::renderer::RenderDevice;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::window::ExitCondition;

use crate::game::app::launch::{Screen, WindowSize};
use crate::game::tools::screenshot::ScreenshotRequest;

/// The screen asked for on the command line.
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct Offscreen(pub(crate) Screen);

/// The image the game's camera draws into, and at how many pixels to a point.
#[derive(Resource, Clone, Debug)]
pub(crate) struct OffscreenTarget(pub(crate) ImageRenderTarget);

/// Bevy's plugins without a window: no window asked for, none needed to keep running, no
/// windowing event loop (a plain loop runs the frames back to back instead).
pub(crate) fn without_window(plugins: PluginGroupBuilder) -> PluginGroupBuilder {
    plugins
        .set(WindowPlugin {
            primary_window: None,
            exit_condition: ExitCondition::DontExit,
            ..default()
        })
        .disable::<bevy::winit::WinitPlugin>()
        .add(ScheduleRunnerPlugin::run_loop(Duration::ZERO))
}

pub(crate) fn plugin(app: &mut App) {
    let Some(Offscreen(screen)) = app.world().get_resource::<Offscreen>().copied() else {
        return;
    };
    let image = target_image(screen.drawn());
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    let target = ImageRenderTarget {
        handle,
        scale_factor: screen.drawn_ratio(),
    };
    if let Some(mut screenshot) = app.world_mut().get_resource_mut::<ScreenshotRequest>() {
        screenshot.image = Some(target.clone());
    }
    app.insert_resource(OffscreenTarget(target))
        .add_observer(aim_camera);
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render.add_systems(Render, wait_for_gpu.after(RenderSystems::Render));
    }
}

/// An image a camera can draw into and a screenshot can copy from, 8-bit sRGB as a window's
/// surface usually has.
fn target_image(size: WindowSize) -> Image {
    let mut image =
        Image::new_target_texture(size.width, size.height, TextureFormat::Rgba8UnormSrgb, None);
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    // Only the GPU needs it: the pixels the image starts with are never read back.
    image.asset_usage = RenderAssetUsages::RENDER_WORLD;
    image
}

/// The game's camera draws into the image (it is spawned at start-up, after this plugin), at
/// the screen's ratio as drawn.
fn aim_camera(added: On<Add, Camera3d>, target: Res<OffscreenTarget>, mut commands: Commands) {
    commands
        .entity(added.entity)
        .insert(RenderTarget::Image(target.0.clone()));
}

/// Ends the render world's frame when the GPU has finished it.
fn wait_for_gpu(device: Res<RenderDevice>) {
    if let Err(e) = device.poll(PollType::wait_indefinitely()) {
        warn!("waiting for the GPU to finish a frame failed: {e}");
    }
}
