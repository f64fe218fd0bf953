//! The order of the game's work within a frame: the sets every plugin puts its systems in.

use bevy::prelude::*;

/// The order of the game's work within a frame, chained once: input becomes requests, the
/// rules system applies them to `Match`, entities follow `Match`, their meshes and materials
/// follow the entities, tweens move them, the HUD shows the result.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Pointer and keyboard input turned into requests.
    RecordInput,
    /// The rules system: the only place `Match` changes.
    ApplyRules,
    /// Entities brought in line with `Match`.
    SyncView,
    /// Meshes, materials and halos brought in line with the entities.
    Present,
    /// Tweens advanced; the turn handed on when a move has been shown.
    Animate,
    /// The interface redrawn from `Match`.
    UpdateHud,
}

/// Chains the sets in [`Update`], once for the app.
pub(crate) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::RecordInput,
            AppSystems::ApplyRules,
            AppSystems::SyncView,
            AppSystems::Present,
            AppSystems::Animate,
            AppSystems::UpdateHud,
        )
            .chain(),
    );
}
