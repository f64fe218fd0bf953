//! The 3D game window.

use std::process::ExitCode;

use bevy::prelude::*;

/// Opens the game window and runs until it is closed.
pub fn run() -> ExitCode {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "Qiguo — 七國象棋".into(),
                resolution: (1280, 720).into(),
                ..default()
            }),
            ..default()
        }))
        .add_systems(Startup, spawn_scene)
        .run();
    ExitCode::SUCCESS
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
