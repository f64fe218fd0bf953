//! Qiguo: the Game of the Seven Kingdoms (七國象棋). Opens the 3D game, or runs a scripting
//! tool (`moves`, `perft`, `replay`) when one is named.

#[cfg(not(target_arch = "wasm32"))]
use std::io::Write;
#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

#[cfg(not(target_arch = "wasm32"))]
use clap::error::ErrorKind;
#[cfg(not(target_arch = "wasm32"))]
use qiguo::{cli, game};

/// In a page: the game in the page's canvas.
#[cfg(target_arch = "wasm32")]
fn main() {
    qiguo::web::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(err) => {
            return match err.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = write!(std::io::stdout(), "{}", err.render());
                    ExitCode::SUCCESS
                }
                _ => fail(&cli::error_line(&err), 2),
            };
        }
    };
    match cli.tool {
        #[cfg(feature = "host")]
        Some(cli::Tool::Server(args)) => qiguo_server::cli::run(&args, "qiguo"),
        Some(cli::Tool::Online(args)) => cli::online::run_online(&args),
        Some(cli::Tool::Puzzles {
            command:
                cli::PuzzlesCommand::Play {
                    puzzles,
                    daily,
                    name,
                    keep,
                },
        }) => {
            let asked = if daily {
                Some(qiguo::puzzles::Asked::Daily)
            } else {
                name
            };
            cli::puzzles::run_play(puzzles.as_deref(), asked.as_ref(), keep.as_deref())
        }
        Some(tool) => match cli::run(&tool) {
            Ok(out) => {
                // A closed pipe (`qiguo moves | head -1`) is not an error worth reporting.
                let _ = std::io::stdout().lock().write_all(out.as_bytes());
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string(), 1),
        },
        None => match cli.game.launch() {
            Ok(launch) => game::run(launch),
            Err(e) => fail(&e.to_string(), 2),
        },
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn fail(message: &str, code: u8) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "qiguo: {message}");
    ExitCode::from(code)
}
