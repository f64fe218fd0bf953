//! What a frame asks of the GPU, counted for `--bench-frames`: draw calls, triangles and
//! pipelines.
//!
//! - **Draw calls.** Every draw function of the 3D phases (opaque, alpha-masked, transmissive,
//!   transparent, their prepasses and deferred passes, and the lights' shadow maps) is wrapped
//!   in one that counts what it draws: one phase item drawn is one draw call (a batch of
//!   instances is one item). Where the device draws indirectly from several batches at once
//!   (a desktop's GPU preprocessing), one item may stand for several; in WebGL2 (a page) each
//!   is one `drawElements`. The interface's draw calls are egui's meshes, one each.
//! - **Triangles.** The primitives the GPU's clipper received in each render pass, from the
//!   render diagnostics' pipeline statistics, where the device has them (lavapipe has).
//! - **Pipelines.** The render and compute pipelines the pipeline cache holds ready, and when
//!   each was made: a pipeline compiled after the first drawn frame stalled the frame that
//!   needed it (in a page, where compiling is not done in the background, for all of its
//!   duration).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use bevy::core_pipeline::core_3d::{AlphaMask3d, Opaque3d, Transparent3d};
use bevy::core_pipeline::deferred::{AlphaMask3dDeferred, Opaque3dDeferred};
use bevy::core_pipeline::prepass::{AlphaMask3dPrepass, Opaque3dPrepass};
use bevy::pbr::{Shadow, Transmissive3d};
use bevy::prelude::*;
use bevy::render::render_phase::{Draw, DrawError, DrawFunctions, PhaseItem, TrackedRenderPass};
use bevy::render::render_resource::{
    CachedPipelineState, Pipeline, PipelineCache, PipelineDescriptor,
};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_egui::EguiRenderOutput;

/// The counts shared between the render world, which draws, and the main world, which reports.
#[derive(Resource, Clone, Default)]
pub(crate) struct GpuCounts(Arc<Shared>);

#[derive(Default)]
struct Shared {
    /// Draw calls of each phase in the frame being drawn.
    drawing: [AtomicU32; PHASES.len()],
    frames: Mutex<Frames>,
}

/// The phases counted, by the names the report gives them.
pub(crate) const PHASES: [&str; 9] = [
    "opaque",
    "alpha mask",
    "transmissive",
    "transparent",
    "opaque prepass",
    "alpha mask prepass",
    "opaque deferred",
    "alpha mask deferred",
    "shadows",
];

/// What the render world counted, frame by frame.
#[derive(Default, Clone, Debug)]
pub(crate) struct Frames {
    /// The 3D phases' draw calls of each frame drawn, oldest first, phase by phase
    /// ([`PHASES`]).
    pub(crate) scene_draws: Vec<[u32; PHASES.len()]>,
    /// Render and compute pipelines ready after each frame drawn.
    pub(crate) pipelines: Vec<(u32, u32)>,
}

impl GpuCounts {
    /// The frames counted so far.
    pub(crate) fn frames(&self) -> Frames {
        self.0.frames.lock().map(|f| f.clone()).unwrap_or_default()
    }
}

pub(crate) fn plugin(app: &mut App, counts: GpuCounts) {
    let Some(render) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    render.insert_resource(counts).add_systems(
        Render,
        (
            (
                count_draws::<Opaque3d, 0>,
                count_draws::<AlphaMask3d, 1>,
                count_draws::<Transmissive3d, 2>,
                count_draws::<Transparent3d, 3>,
                count_draws::<Opaque3dPrepass, 4>,
                count_draws::<AlphaMask3dPrepass, 5>,
                count_draws::<Opaque3dDeferred, 6>,
                count_draws::<AlphaMask3dDeferred, 7>,
                count_draws::<Shadow, 8>,
            )
                .before(RenderSystems::Render),
            note_frame.after(RenderSystems::Render),
        ),
    );
}

/// A draw function that counts the items it draws.
struct Counted<P: PhaseItem> {
    inner: Box<dyn Draw<P>>,
    counts: GpuCounts,
    /// Its phase's place in [`PHASES`].
    phase: usize,
}

impl<P: PhaseItem> Draw<P> for Counted<P> {
    fn prepare(&mut self, world: &'_ World) {
        self.inner.prepare(world);
    }

    fn draw<'w>(
        &mut self,
        world: &'w World,
        pass: &mut TrackedRenderPass<'w>,
        view: Entity,
        item: &P,
    ) -> Result<(), DrawError> {
        let drawn = self.inner.draw(world, pass, view, item);
        if drawn.is_ok() {
            self.counts.0.drawing[self.phase].fetch_add(1, Ordering::Relaxed);
        }
        drawn
    }
}

/// Wraps the phase's draw functions not wrapped yet (they are only ever added, at the end).
fn count_draws<P: PhaseItem, const PHASE: usize>(
    functions: Option<Res<DrawFunctions<P>>>,
    counts: Res<GpuCounts>,
    mut wrapped: Local<usize>,
) {
    let Some(functions) = functions else { return };
    if functions.read().draw_functions.len() == *wrapped {
        return;
    }
    let mut functions = functions.write();
    let all = std::mem::take(&mut functions.draw_functions);
    functions.draw_functions = all
        .into_iter()
        .enumerate()
        .map(|(i, inner)| -> Box<dyn Draw<P>> {
            if i < *wrapped {
                inner
            } else {
                Box::new(Counted {
                    inner,
                    counts: counts.clone(),
                    phase: PHASE,
                })
            }
        })
        .collect();
    *wrapped = functions.draw_functions.len();
}

/// Keeps the frame's draw calls and the pipelines ready after it; logs (at debug) each
/// pipeline when it becomes ready, with its label and the frame.
fn note_frame(counts: Res<GpuCounts>, cache: Res<PipelineCache>, mut ready: Local<Vec<bool>>) {
    let draws = std::array::from_fn(|i| counts.0.drawing[i].swap(0, Ordering::Relaxed));
    let frame = counts.0.frames.lock().map_or(0, |f| f.pipelines.len()) + 1;
    let (mut render, mut compute) = (0, 0);
    for (i, pipeline) in cache.pipelines().enumerate() {
        match &pipeline.state {
            CachedPipelineState::Ok(Pipeline::RenderPipeline(_)) => render += 1,
            CachedPipelineState::Ok(Pipeline::ComputePipeline(_)) => compute += 1,
            _ => continue,
        }
        let label = match &pipeline.descriptor {
            PipelineDescriptor::RenderPipelineDescriptor(d) => d.label.as_deref(),
            PipelineDescriptor::ComputePipelineDescriptor(d) => d.label.as_deref(),
        };
        if ready.len() <= i {
            ready.resize(i + 1, false);
        }
        if !ready[i] {
            ready[i] = true;
            debug!(
                "pipeline ready in frame {frame}: {}",
                label.unwrap_or("(unlabelled)")
            );
        }
    }
    if let Ok(mut frames) = counts.0.frames.lock() {
        frames.scene_draws.push(draws);
        frames.pipelines.push((render, compute));
    }
}

/// The interface's draw calls this frame: egui's meshes with something in them.
pub(crate) fn interface_draws(outputs: &Query<&EguiRenderOutput>) -> u32 {
    outputs
        .iter()
        .flat_map(|output| &output.paint_jobs)
        .filter(|job| match &job.primitive {
            bevy_egui::egui::epaint::Primitive::Mesh(mesh) => !mesh.indices.is_empty(),
            bevy_egui::egui::epaint::Primitive::Callback(_) => false,
        })
        .count() as u32
}
