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
pub mod puzzles;
pub mod report;
pub mod saves;
pub mod settings;
pub mod storage;
#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(test)]
mod layers {
    use std::path::{Path, PathBuf};

    /// The code of `file` without its tests and comments: what it imports.
    fn code_of(file: &Path) -> String {
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        code.lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every Rust file under `dir`.
    fn rust_files(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
        files
    }

    fn src() -> PathBuf {
        qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    /// The page's two layers: the browser's services (`src/browser`) serve the game and know
    /// nothing of it or of the page's shell (`src/web`) above both.
    #[test]
    fn the_browsers_services_know_nothing_of_the_game_or_the_page() {
        let files = rust_files(&src().join("browser"));
        assert!(files.len() >= 6, "the services are read: {files:?}");
        for file in files {
            let code = code_of(&file);
            for above in ["crate::game", "crate::web", "crate::cli"] {
                assert!(!code.contains(above), "{} reaches {above}", file.display());
            }
        }
    }

    /// The game runs in the window, the page and the tests alike: nothing of it reaches the
    /// page's shell, which starts it and sits above it.
    #[test]
    fn the_game_never_imports_the_pages_shell() {
        let files = rust_files(&src().join("game"));
        assert!(files.len() >= 90, "the game is read: {} files", files.len());
        for file in files {
            let code = code_of(&file);
            for above in ["crate::web", "crate::cli"] {
                assert!(!code.contains(above), "{} reaches {above}", file.display());
            }
        }
    }

    /// The lowest layer — words, settings, saves, storage, the platform's languages — reads
    /// the platform through its own leaves and nothing of the game or the page above it (their
    /// tests may use the game).
    #[test]
    fn the_lowest_layer_imports_nothing_of_the_game_or_the_page() {
        let src = src();
        for file in [
            "i18n.rs",
            "settings.rs",
            "saves.rs",
            "locale.rs",
            "puzzles.rs",
            "storage/mod.rs",
            "storage/native.rs",
            "storage/web.rs",
        ] {
            let code = code_of(&src.join(file));
            for above in ["crate::game", "crate::web", "crate::browser", "crate::cli"] {
                assert!(!code.contains(above), "src/{file} reaches {above}");
            }
        }
    }
}
