//! The command line: `qiguo` opens the game; `moves`, `perft` and `replay` are scripting tools
//! that print plain text and never open a window.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use qiguo_ai::{Engine, Level, Limits};
use qiguo_rules::{
    Game, Kingdom, Move, PlayerInfo, Position, Preset, Record, Rules, Seating, Seats, Setup, fen,
    notation,
};
use serde::Serialize;

use crate::selfplay::{self, Series};

/// Stands in for a pass (`--`) among replay's moves, which the argument parser would otherwise
/// take for the end of options. It cannot be typed.
const PASS_ARG: &str = "\u{1}pass";

/// Qiguo Xiangqi (七國象棋), the Game of the Seven Kingdoms.
#[derive(Parser, Debug)]
#[command(name = "qiguo", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Options for the game window (without a tool).
    #[command(flatten)]
    pub game: GameArgs,
    /// A scripting tool to run instead of the game.
    #[command(subcommand)]
    pub tool: Option<Tool>,
}

/// Options of the game window.
#[derive(Args, Debug, Default)]
pub struct GameArgs {
    /// Rules preset of the first game: classic, wikipedia, elephantchess or leventhal.
    #[arg(long = "rules", value_name = "PRESET")]
    pub preset: Option<Preset>,
    /// Start the first game from this 7K FEN position.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Who holds the kingdoms: seven, six, five, four or three players (the 1206 seatings, with
    /// the first free kingdoms as the extra ones), two (Savard's game), or the kingdoms of the
    /// players present, such as `qin,qi,zhao`.
    #[arg(long, value_name = "SEATING")]
    pub seating: Option<SeatingArg>,
    /// Who plays: one of person, easy, medium or hard for every player, or one per player
    /// (in the order of the seating), comma-separated.
    #[arg(long, value_name = "L1,…")]
    pub levels: Option<String>,
    /// Play these moves (such as `f3a8`; `--` passes) before handing the game to the players.
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
    /// Look from behind a kingdom (qin, chu, han, qi, wei, zhao, yan) or from the top.
    #[arg(long, value_name = "VIEW")]
    pub view: Option<View>,
    /// Save a PNG of the window to PATH once the scene is fully drawn, then exit.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Run N frames, print frame-time statistics and exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub bench_frames: Option<u32>,
    /// With --bench-frames: run every system but draw nothing (no graphics device), to time the
    /// game's own CPU work alone.
    #[arg(long, requires = "bench_frames")]
    pub no_render: bool,
}

/// A camera view: from behind a kingdom's edge, or from above.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// From behind the kingdom's home edge.
    Kingdom(Kingdom),
    /// Straight down on the board.
    Top,
}

impl std::str::FromStr for View {
    type Err = String;

    fn from_str(s: &str) -> Result<View, String> {
        if s == "top" {
            return Ok(View::Top);
        }
        s.parse::<Kingdom>().map(View::Kingdom).map_err(|_| {
            format!("`{s}` is not a view: expected qin, chu, han, qi, wei, zhao, yan or top")
        })
    }
}

/// A seating named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatingArg(pub Seating);

impl std::str::FromStr for SeatingArg {
    type Err = String;

    fn from_str(s: &str) -> Result<SeatingArg, String> {
        let count = match s {
            "seven" => Some(7),
            "six" => Some(6),
            "five" => Some(5),
            "four" => Some(4),
            "three" => Some(3),
            "two" => return Ok(SeatingArg(Seating::TwoPlayers)),
            _ => None,
        };
        if let Some(n) = count {
            return Ok(SeatingArg(
                Seating::traditional(n).expect("3 to 7 players have a seating"),
            ));
        }
        let kingdoms = s
            .split(',')
            .map(|k| k.trim().parse::<Kingdom>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                format!(
                    "{e}; a seating is seven, six, five, four, three, two, or kingdoms like qin,qi,zhao"
                )
            })?;
        Ok(SeatingArg(Seating::Present(kingdoms)))
    }
}

/// Everything the game window needs to start, checked.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The first game: its start position (rules inside) and any moves already played.
    pub game: Game,
    /// The players, by player number.
    pub players: Vec<PlayerInfo>,
    /// The view to start with; by default, from behind the kingdom to move.
    pub view: Option<View>,
    /// Where to save a screenshot before exiting.
    pub screenshot: Option<PathBuf>,
    /// How many frames to run for frame-time statistics.
    pub bench_frames: Option<u32>,
    /// Whether to run without a graphics device (benchmarks only).
    pub no_render: bool,
    /// Whether the game was opened plainly (no position, rules or seating asked for), so that
    /// it may offer to resume the last unfinished game.
    pub plain: bool,
}

impl GameArgs {
    /// Checks the options: the FEN must be valid under the chosen rules.
    pub fn launch(&self) -> Result<Launch, String> {
        let rules = Rules::preset(self.preset.unwrap_or_default());
        let seats = match &self.seating {
            Some(SeatingArg(seating)) => seating.seats().map_err(|e| format!("--seating: {e}"))?,
            None => Seats::seven(),
        };
        let setup = match &self.fen {
            Some(fen) => fen::parse(fen).map_err(|e| format!("--fen: bad FEN: {e}"))?,
            None => Setup::start(rules.setup),
        };
        let setup = setup.without(seats.empty_kingdoms());
        let start = Position::new(&setup, rules, seats).map_err(|e| match &self.fen {
            Some(_) => format!("--fen: {e}"),
            None => format!("--seating: {e}"),
        })?;
        let mut game = Game::new(start);
        for (index, text) in self.moves.iter().enumerate() {
            let shown = if text == PASS_ARG { "--" } else { text };
            let err = |why: String| format!("--moves: move {} (`{shown}`): {why}", index + 1);
            let mv = if text == PASS_ARG {
                Move::PASS
            } else {
                notation::parse_move(text).map_err(|e| err(e.to_string()))?
            };
            game.play(mv).map_err(|e| err(e.to_string()))?;
        }
        if let Some(path) = &self.screenshot {
            let png = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("png"));
            if !png {
                return Err(format!(
                    "--screenshot {}: the file must end in .png",
                    path.display()
                ));
            }
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if !dir.is_dir() {
                return Err(format!(
                    "--screenshot {}: there is no directory {}",
                    path.display(),
                    dir.display()
                ));
            }
        }
        let count = seats.player_count();
        let controllers: Vec<Option<Level>> = match &self.levels {
            None => vec![None; count],
            Some(text) => {
                let parsed = text
                    .split(',')
                    .map(|l| match l.trim() {
                        "person" => Ok(None),
                        other => other
                            .parse::<Level>()
                            .map(Some)
                            .map_err(|e| format!("--levels: {e} (or person)")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                match parsed.len() {
                    1 => vec![parsed[0]; count],
                    n if n == count => parsed,
                    n => {
                        return Err(format!(
                            "--levels: give one level or {count} (one per player), not {n}"
                        ));
                    }
                }
            }
        };
        let players = PlayerInfo::defaults(count)
            .into_iter()
            .zip(controllers)
            .map(|(p, c)| PlayerInfo {
                computer: c.map(|l| l.name().to_owned()),
                ..p
            })
            .collect();
        Ok(Launch {
            game,
            players,
            view: self.view,
            screenshot: self.screenshot.clone(),
            bench_frames: self.bench_frames,
            no_render: self.no_render,
            plain: self.fen.is_none()
                && self.moves.is_empty()
                && self.preset.is_none()
                && self.seating.is_none()
                && self.levels.is_none(),
        })
    }
}

/// The scripting tools.
#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Print every legal move of the position, one per line, in ASCII order.
    Moves(PositionArgs),
    /// Print the number of leaves of the legal-move tree DEPTH moves deep.
    Perft {
        /// How many moves deep.
        #[arg(long, value_name = "N")]
        depth: u32,
        /// The position to count from.
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Play moves from the position; print the final FEN, then a one-line JSON summary.
    Replay {
        /// The position to play from.
        #[command(flatten)]
        position: PositionArgs,
        /// Start from a saved game record (JSON) instead: its rules, seats, start and moves.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["preset", "fen"])]
        record: Option<PathBuf>,
        /// Read the moves with 0-based ranks, as elephantchess.io writes them (`e9e4` is e10→e5).
        #[arg(long)]
        zero_based: bool,
        /// Moves such as `f3a8`; `--` passes.
        #[arg(value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// Print the move a computer player would play.
    Bestmove {
        /// The position.
        #[command(flatten)]
        position: PositionArgs,
        /// Time to think, in milliseconds (default: the level's own).
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Strength: random, easy, medium or hard.
        #[arg(long, value_name = "L", default_value = "hard")]
        level: Level,
        /// Seed for the levels' variety.
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
    },
    /// Play complete games between computer players and print how they went.
    Selfplay {
        /// Number of games.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Rules preset: classic, wikipedia, elephantchess or leventhal.
        #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
        preset: Preset,
        /// One level for all kingdoms, or seven (Qin … Yan), comma-separated.
        #[arg(long, value_name = "L1,…,L7", default_value = "medium")]
        levels: String,
        /// Shift the levels one seat further each game, so every kingdom takes every level.
        #[arg(long)]
        rotate: bool,
        /// Seed of the first game.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Time per move for every computer player, in milliseconds (default: each level's).
        #[arg(long, value_name = "MS", conflicts_with = "time_scale")]
        movetime: Option<u64>,
        /// Multiply each level's own time per move by F (keeps the levels' ratios).
        #[arg(long, value_name = "F")]
        time_scale: Option<f64>,
        /// Games played at once (default: one per core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
}

/// The seven levels of `--levels`: one level for all, or seven.
fn parse_levels(text: &str) -> Result<[Level; 7], String> {
    let levels = text
        .split(',')
        .map(|l| {
            l.trim()
                .parse::<Level>()
                .map_err(|e| format!("--levels: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match levels.len() {
        1 => Ok([levels[0]; 7]),
        7 => Ok(levels.try_into().expect("seven levels")),
        n => Err(format!(
            "--levels: give one level or seven (Qin to Yan), not {n}"
        )),
    }
}

/// The position a tool starts from.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Rules preset: classic, wikipedia, elephantchess or leventhal.
    #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
    pub preset: Preset,
    /// Start from this 7K FEN instead of the preset's starting position.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
}

impl PositionArgs {
    fn position(&self) -> Result<Position, String> {
        let rules = Rules::preset(self.preset);
        match &self.fen {
            Some(fen) => Position::from_fen(fen, rules).map_err(|e| format!("--fen: {e}")),
            None => Ok(Position::start(rules)),
        }
    }
}

/// Parses the command line. A pass written `--` after `replay` or `--moves` is kept as a move.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, clap::Error> {
    let mut seen_moves = false;
    let args = args.into_iter().enumerate().map(|(i, arg)| {
        if i > 0 && (arg == "replay" || arg == "--moves") {
            seen_moves = true;
        }
        if seen_moves && arg == "--" {
            OsString::from(PASS_ARG)
        } else {
            arg
        }
    });
    Cli::try_parse_from(args)
}

/// The one line to print for a command-line error (clap's own message without usage and hints).
pub fn error_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    // The message and its indented continuation lines, up to the usage or the hints.
    let line = text
        .lines()
        .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let line = line.strip_prefix("error: ").unwrap_or(&line).to_owned();
    if line.is_empty() {
        "bad arguments; see `qiguo --help`".to_owned()
    } else {
        line
    }
}

/// Runs a tool, returning what to print on standard output or a one-line error.
pub fn run(tool: &Tool) -> Result<String, String> {
    match tool {
        Tool::Moves(args) => {
            let pos = args.position()?;
            let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
            moves.sort();
            Ok(moves.iter().fold(String::new(), |mut out, m| {
                out.push_str(m);
                out.push('\n');
                out
            }))
        }
        Tool::Perft { depth, position } => {
            let mut pos = position.position()?;
            Ok(format!("{}\n", pos.perft(*depth)))
        }
        Tool::Replay {
            position,
            record,
            zero_based,
            moves,
        } => {
            let mut pos = match record {
                Some(path) => load_record(path)?,
                None => position.position()?,
            };
            for (index, text) in moves.iter().enumerate() {
                let shown = if text == PASS_ARG { "--" } else { text };
                let err = |why: String| format!("move {} (`{shown}`): {why}", index + 1);
                let mv = if text == PASS_ARG {
                    Move::PASS
                } else if *zero_based {
                    notation::parse_move_zero_based(text).map_err(|e| err(e.to_string()))?
                } else {
                    notation::parse_move(text).map_err(|e| err(e.to_string()))?
                };
                pos.play(mv).map_err(|e| err(e.to_string()))?;
            }
            let mut out = pos.to_fen();
            out.push('\n');
            let summary = serde_json::to_string(&Summary::of(&pos)).expect("summaries serialize");
            let _ = writeln!(out, "{summary}");
            Ok(out)
        }
        Tool::Bestmove {
            position,
            movetime,
            level,
            seed,
        } => {
            let pos = position.position()?;
            let limits = Limits {
                movetime: movetime.map(Duration::from_millis),
                ..Limits::default()
            };
            let result = Engine::default()
                .search(&pos, *level, &limits, *seed)
                .ok_or("the game is over: there is no move")?;
            Ok(format!("{}\n", result.best))
        }
        Tool::Selfplay {
            games,
            preset,
            levels,
            rotate,
            seed,
            movetime,
            time_scale,
            threads,
        } => {
            if time_scale.is_some_and(|f| !(f > 0.0 && f <= 100.0)) {
                return Err("--time-scale: give a factor above 0 and at most 100".into());
            }
            let series = Series {
                games: *games,
                rules: Rules::preset(*preset),
                levels: parse_levels(levels)?,
                rotate: *rotate,
                seed: *seed,
                movetime: movetime.map(Duration::from_millis),
                time_scale: time_scale.unwrap_or(1.0),
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                    .max(1),
                max_plies: 3000,
            };
            let results = series.run(selfplay::progress_bar);
            Ok(selfplay::report(&series, &results))
        }
    }
}

/// The current position of the game saved in the record at `path`.
fn load_record(path: &Path) -> Result<Position, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("--record {shown}: {e}"))?;
    let game = Record::from_json(&text)
        .and_then(|record| record.replay())
        .map_err(|e| format!("--record {shown}: {e}"))?;
    Ok(game.position().clone())
}

/// The JSON summary `replay` prints.
#[derive(Serialize)]
struct Summary {
    winner: Option<Kingdom>,
    victory: Option<&'static str>,
    alive: Vec<Kingdom>,
    captures: Captures,
}

/// Captures per kingdom, in turn order.
#[derive(Serialize)]
struct Captures {
    qin: u32,
    chu: u32,
    han: u32,
    qi: u32,
    wei: u32,
    zhao: u32,
    yan: u32,
}

impl Summary {
    fn of(pos: &Position) -> Summary {
        let c = |k| pos.captures(k);
        Summary {
            winner: pos.outcome().map(|o| o.winner),
            victory: pos.outcome().map(|o| o.victory.name()),
            alive: pos.alive().iter().collect(),
            captures: Captures {
                qin: c(Kingdom::Qin),
                chu: c(Kingdom::Chu),
                han: c(Kingdom::Han),
                qi: c(Kingdom::Qi),
                wei: c(Kingdom::Wei),
                zhao: c(Kingdom::Zhao),
                yan: c(Kingdom::Yan),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn a_pass_after_replay_is_a_move() {
        let cli = parse(args("qiguo replay e10e5 -- f1f2")).unwrap();
        let Some(Tool::Replay { moves, .. }) = cli.tool else {
            panic!("not replay");
        };
        assert_eq!(moves, ["e10e5", PASS_ARG, "f1f2"]);
    }

    #[test]
    fn errors_fit_on_one_line() {
        for line in [
            "qiguo perft",
            "qiguo perft --depth x",
            "qiguo perft --depth -1",
            "qiguo moves --rules chess",
            "qiguo fly",
            "qiguo moves --fen",
        ] {
            let err = parse(args(line)).unwrap_err();
            let msg = error_line(&err);
            assert!(!msg.contains('\n') && !msg.is_empty(), "{line}: {msg}");
        }
        let err = parse(args("qiguo moves --rules chess")).unwrap_err();
        assert!(error_line(&err).contains("unknown rules preset `chess`"));
        let err = parse(args("qiguo --view north")).unwrap_err();
        assert!(
            error_line(&err).contains("not a view"),
            "{}",
            error_line(&err)
        );
        let err = parse(args("qiguo --rules classic moves")).unwrap_err();
        assert!(!error_line(&err).is_empty());
        let cli = parse(args("qiguo --fen x")).unwrap();
        assert!(cli.game.launch().unwrap_err().starts_with("--fen: bad FEN"));
        let cli = parse(args("qiguo --screenshot shot.jpg")).unwrap();
        assert!(cli.game.launch().unwrap_err().contains("must end in .png"));
        let cli = parse(args("qiguo --screenshot /no/such/dir/shot.png")).unwrap();
        assert!(
            cli.game
                .launch()
                .unwrap_err()
                .contains("no directory /no/such/dir")
        );
        let err = parse(args("qiguo perft")).unwrap_err();
        assert!(error_line(&err).contains("--depth"), "{}", error_line(&err));
        let cli = parse(args("qiguo --moves e10e5 f1f2")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert!(e.starts_with("--moves: move 2 (`f1f2`)"), "{e}");
        let cli = parse(args("qiguo --moves e10e5 f5f6")).unwrap();
        assert_eq!(cli.game.launch().unwrap().game.len(), 2);
        let cli = parse(args("qiguo --seating two")).unwrap();
        let start = cli.game.launch().unwrap().game.start_position().clone();
        assert_eq!(start.seats().player_count(), 2);
        assert_eq!(start.to_move(), Kingdom::Chu);
        let cli = parse(args("qiguo --seating qin,qi")).unwrap();
        assert_eq!(cli.game.launch().unwrap().game.position().alive().len(), 2);
        let err = parse(args("qiguo --seating qin,rome")).unwrap_err();
        assert!(
            error_line(&err).contains("`rome` is not a kingdom"),
            "{}",
            error_line(&err)
        );
        let cli = parse(args("qiguo --seating qin")).unwrap();
        assert!(
            cli.game
                .launch()
                .unwrap_err()
                .contains("at least two players")
        );
        let cli = parse(args("qiguo --levels hard")).unwrap();
        let launch = cli.game.launch().unwrap();
        assert!(
            launch
                .players
                .iter()
                .all(|p| p.computer.as_deref() == Some("hard"))
        );
        let cli = parse(args("qiguo --seating two --levels person,easy")).unwrap();
        let launch = cli.game.launch().unwrap();
        assert_eq!(launch.players[1].computer.as_deref(), Some("easy"));
        let cli = parse(args("qiguo --levels hard,easy")).unwrap();
        assert!(cli.game.launch().unwrap_err().contains("one per player"));
        let cli = parse(args("qiguo --levels genius")).unwrap();
        assert!(cli.game.launch().unwrap_err().contains("unknown level"));
        let err = parse(args("qiguo --no-render")).unwrap_err();
        assert!(
            error_line(&err).contains("--bench-frames"),
            "{}",
            error_line(&err)
        );
    }
}
