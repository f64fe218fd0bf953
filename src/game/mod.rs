//! The Bevy game, one plugin per concern. [`logic_plugins`] hold the game's state and
//! behaviour and run headless (tests drive them with messages); [`view_plugins`] add
//! rendering, picking, the camera and the HUD.

pub mod animation;
pub mod board;
pub mod layout;
pub mod selection;
pub mod state;
pub mod stones;

use std::process::ExitCode;

use bevy::prelude::*;

use crate::cli::Launch;
pub use state::Match;

/// The order of the game's work within a frame, chained once: input becomes requests, the
/// rules system applies them to `Match`, entities follow `Match`, tweens move them, the HUD
/// shows the result.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Pointer and keyboard input turned into requests.
    RecordInput,
    /// The rules system: the only place `Match` changes.
    ApplyRules,
    /// Entities brought in line with `Match`.
    SyncView,
    /// Tweens advanced; the turn handed on when a move has been shown.
    Animate,
    /// The interface redrawn from `Match`.
    UpdateHud,
}

/// The game's state and behaviour, without rendering: `Match`, the rules system, board and
/// stone entities, selection and animation. Needs `StatesPlugin` and a `Match` resource.
pub fn logic_plugins(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::RecordInput,
            AppSystems::ApplyRules,
            AppSystems::SyncView,
            AppSystems::Animate,
            AppSystems::UpdateHud,
        )
            .chain(),
    );
    app.add_plugins((
        state::plugin,
        board::plugin,
        stones::plugin,
        selection::plugin,
        animation::plugin,
    ));
}

/// Opens the game window and runs until it is closed (or the screenshot is saved).
pub fn run(launch: Launch) -> ExitCode {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Qiguo — 七國象棋".into(),
            resolution: (1280, 720).into(),
            ..default()
        }),
        ..default()
    }));
    app.insert_resource(Match::new(launch.start.clone()));
    logic_plugins(&mut app);
    app.add_systems(Startup, spawn_scene);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

fn spawn_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 14.0, 16.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(10.0, 0.6, 10.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.78, 0.6, 0.36))),
    ));
}
