//! Qiguo Xiangqi (七國象棋), the Game of the Seven Kingdoms, as a 3D hot-seat board game.
//!
//! The rules live in the `qiguo-rules` crate; this crate is the game around them: the command
//! line ([`cli`]) and the Bevy app ([`game`]), built from one plugin per concern.

#[cfg(target_arch = "wasm32")]
pub(crate) mod browser;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod game;
pub mod game_text;
pub mod i18n;
pub mod lessons;
pub mod locale;
pub mod report;
pub mod saves;
pub mod settings;
pub mod storage;
#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(test)]
mod layers {
    /// The lowest layer — words, settings, saves, storage, the platform's languages — reads
    /// the platform through its own leaves and nothing of the game or the page above it (their
    /// tests may use the game).
    #[test]
    fn the_lowest_layer_imports_nothing_of_the_game_or_the_page() {
        let src = qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR")).join("src");
        for file in [
            "i18n.rs",
            "settings.rs",
            "saves.rs",
            "locale.rs",
            "storage/mod.rs",
            "storage/native.rs",
            "storage/web.rs",
        ] {
            let text = std::fs::read_to_string(src.join(file)).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            for above in ["crate::game", "crate::web", "crate::cli"] {
                assert!(!code.contains(above), "src/{file} reaches {above}");
            }
        }
    }
}
