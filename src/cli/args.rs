//! The command line's arguments: the game's options and the tools', checked into a [`Launch`]
//! or a [`Tool`] to run.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Position, Preset, Rules, Seating, Seats, Setup, fen, notation};

use super::error::ArgError;
use crate::game::app::launch::{Launch, Screen, View, WindowSize};
use crate::game::online::invite::Invitation;
use crate::game::tools::perf;
use crate::i18n::Language;

/// Stands in for a pass (`--`) among replay's moves, which the argument parser would otherwise
/// take for the end of options. It cannot be typed.
const PASS_ARG: &str = "\u{1}pass";

/// The moves given on the command line as move text, with the stand-in for a pass written
/// `--` again.
pub(super) fn move_texts(moves: &[String]) -> impl Iterator<Item = &str> {
    moves
        .iter()
        .map(|m| if m == PASS_ARG { "--" } else { m.as_str() })
}

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
    /// Rules preset of the first game: classic, wikipedia, elephantchess, leventhal or ludii.
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
    /// The window's size in pixels, such as `1024x768` (from 640x480 to 7680x4320; by default
    /// the size it had when last closed, at first 1280x720).
    #[arg(long, value_name = "WxH")]
    pub window: Option<WindowSize>,
    /// The interface's language: en (English), zh (繁體中文) or sv (Svenska); by default the
    /// one chosen in Settings, at first the system's.
    #[arg(long = "lang", value_name = "LANG")]
    pub language: Option<Language>,
    /// Save a PNG of the window to PATH once the scene is fully drawn, then exit.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Follow an invitation link (https://HOST[:PORT]/join/CODE, or …/watch/CODE): connect to
    /// its server and take the game's open seat (or watch it). With --screenshot, the picture
    /// waits until the link is followed.
    #[arg(long, value_name = "URL", value_parser = Invitation::parse,
          conflicts_with_all = ["fen", "moves"])]
    pub join: Option<Invitation>,
    /// Run N frames, print frame-time statistics and exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub bench_frames: Option<u32>,
    /// With --bench-frames: run every system but draw nothing (no graphics device), to time the
    /// game's own CPU work alone.
    #[arg(long, requires = "bench_frames")]
    pub no_render: bool,
    /// With --bench-frames: a busy middle game (a fixed position, Qin against six computers)
    /// with everything a turn can show on the board: the round's moves since Qin's last, the
    /// threats, a stone's moves and a hint's arrow.
    #[arg(long, requires = "bench_frames",
          conflicts_with_all = ["preset", "fen", "moves", "seating", "levels", "join"])]
    pub busy: bool,
    /// With --bench-frames or --screenshot: draw into an image of WxH pixels instead of a
    /// window (no window opens and no display is needed, only a graphics device); `@R` after
    /// it, a screen of R pixels to a point (a phone's, such as 1170x2532@3), drawn at two at
    /// most as the page draws it.
    #[arg(long, value_name = "WxH[@R]", conflicts_with_all = ["window", "no_render"])]
    pub offscreen: Option<Screen>,
    /// When a game that computers play by themselves ends, begin another like it a few seconds
    /// later, until the window closes (a window left playing for a long measurement).
    #[arg(long, conflicts_with_all = ["screenshot", "bench_frames", "join"])]
    pub again: bool,
    /// Open the Game report at once: how the game went, and, for a game over (with --moves
    /// that end it), its review (each move searched, the people's mistakes marked). With
    /// --screenshot, the picture waits for the review.
    #[arg(long, conflicts_with = "join")]
    pub report: bool,
    /// Learn from your mistakes at once: for a game over (with --moves that end it), once its
    /// review is made, the position before the first of the people's worst moves, to find a
    /// better one. With --screenshot, the picture shows the first question.
    #[arg(long, conflicts_with_all = ["join", "report"])]
    pub practice: bool,
    /// A puzzle at once: `daily` for the day's, a puzzle's name, or its link (…?puzzle=NAME).
    /// Your first try moves your puzzle rating.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["join", "report", "practice"])]
    pub puzzle: Option<crate::puzzles::Asked>,
}

/// `qiguo puzzles …`.
#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum PuzzlesCommand {
    /// Review saved game records and mine their puzzles: positions where one move alone keeps or
    /// wins something decisive (a General taken or saved, a decisive capture), confirmed by a
    /// deeper search that no second move comes close.
    Mine {
        /// Saved game records (JSON).
        #[arg(value_name = "FILE", required = true)]
        records: Vec<PathBuf>,
        /// Print the puzzles as one JSON array (what `play` reads) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a puzzle: the untried one rated nearest you, the day's, or one by its name (or
    /// link), from the game's own puzzles or from a file `mine --json` wrote. Your puzzle rating
    /// is the game's (kept in its settings, as the window keeps it).
    Play {
        /// Puzzles from this file (JSON) instead of the game's own.
        #[arg(value_name = "FILE")]
        puzzles: Option<PathBuf>,
        /// The day's puzzle (the same for everyone on a day).
        #[arg(long, conflicts_with = "name")]
        daily: bool,
        /// The puzzle of this name, or of a link such as https://HOST/?puzzle=NAME.
        #[arg(long, value_name = "NAME")]
        name: Option<crate::puzzles::Asked>,
        /// Keep your puzzle rating in this file instead.
        #[arg(long, value_name = "FILE")]
        keep: Option<PathBuf>,
    },
}

/// A seating that is neither a number of players nor a list of kingdoms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}; a seating is seven, six, five, four, three, two, or kingdoms like qin,qi,zhao")]
pub struct ParseSeatingError(String);

/// A seating named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatingArg(pub Seating);

impl std::str::FromStr for SeatingArg {
    type Err = ParseSeatingError;

    fn from_str(s: &str) -> Result<SeatingArg, ParseSeatingError> {
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
            .map_err(|e| ParseSeatingError(e.to_string()))?;
        Ok(SeatingArg(Seating::Present(kingdoms)))
    }
}

impl GameArgs {
    /// Checks the options: the FEN must be valid under the chosen rules.
    pub fn launch(&self) -> Result<Launch, ArgError> {
        let rules = Rules::preset(self.preset.unwrap_or_default());
        let seats = seats_of(self.seating.as_ref())?;
        let (fen, moves, levels) = match self.busy {
            true => (
                Some(perf::BUSY_FEN.to_owned()),
                perf::BUSY_MOVES.iter().map(|m| m.to_string()).collect(),
                Some(perf::BUSY_LEVELS),
            ),
            false => (self.fen.clone(), self.moves.clone(), self.levels.as_deref()),
        };
        let setup = match &fen {
            Some(fen) => {
                fen::parse(fen).map_err(|e| ArgError::new("--fen", format!("bad FEN: {e}")))?
            }
            None => Setup::start(rules.setup),
        };
        let setup = setup.without(seats.empty_kingdoms());
        let start = Position::new(&setup, rules, seats).map_err(|e| match &fen {
            Some(_) => ArgError::new("--fen", e),
            None => ArgError::new("--seating", e),
        })?;
        let mut game = Game::new(start);
        notation::play_list(move_texts(&moves), notation::parse_move, |mv| {
            game.play(mv).map(|_| ())
        })
        .map_err(|e| ArgError::new("--moves", e))?;
        if let Some(path) = &self.screenshot {
            let png = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("png"));
            if !png {
                return Err(ArgError::new(
                    format!("--screenshot {}", path.display()),
                    "the file must end in .png",
                ));
            }
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if !dir.is_dir() {
                return Err(ArgError::new(
                    format!("--screenshot {}", path.display()),
                    format!("there is no directory {}", dir.display()),
                ));
            }
        }
        if let Some(screen) = self.offscreen
            && self.bench_frames.is_none()
            && self.screenshot.is_none()
        {
            return Err(ArgError::new(
                format!("--offscreen {screen}"),
                "it draws only for --bench-frames or --screenshot",
            ));
        }
        let levels = match levels {
            None => vec![None; seats.player_count()],
            Some(text) => parse_levels(text, seats.player_count())?,
        };
        if self.again && levels.iter().any(Option::is_none) {
            return Err(ArgError::new(
                "--again",
                "it begins games again only when computers play every seat (--levels)",
            ));
        }
        Ok(Launch {
            game,
            levels,
            view: self.view,
            window: self.window,
            screenshot: self.screenshot.clone(),
            bench_frames: self.bench_frames,
            no_render: self.no_render,
            busy: self.busy,
            again: self.again,
            report: self.report,
            practice: self.practice,
            puzzle: self.puzzle.clone(),
            offscreen: self.offscreen,
            language: self.language,
            invitation: self.join.clone(),
            plain: self.join.is_none()
                && self.fen.is_none()
                && self.moves.is_empty()
                && self.preset.is_none()
                && self.seating.is_none()
                && self.levels.is_none()
                && self.puzzle.is_none()
                && !self.busy,
            log: None,
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
    /// Print how a saved game went: material and the evaluation's estimate of each kingdom's
    /// chances move by move, falls, captures, turning points and hints.
    Report {
        /// The saved game record (JSON).
        #[arg(long, value_name = "FILE")]
        record: PathBuf,
        /// Print the report as one line of JSON (with every move's values) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Review a saved game: each kingdom's chance before every move, the engine's best move
    /// and the mover's chance with it, and the moves that cost their kingdom most (searched at
    /// the same fixed number of positions a move as the server's reviews).
    Review {
        /// The saved game record (JSON).
        #[arg(value_name = "FILE")]
        record: PathBuf,
        /// Print the review as one line of JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Positions searched for each position of the game.
        #[arg(long, value_name = "N", default_value_t = qiguo_ai::review::REVIEW_NODES,
              value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
        nodes: u64,
    },
    /// Puzzles from real games: mine them from saved games, or play one in the terminal.
    Puzzles {
        /// What to do.
        #[command(subcommand)]
        command: PuzzlesCommand,
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
    /// Serve online games (live and by correspondence) to players on other machines, without a
    /// window; prints one line per event (the same server as the `qiguo-server` binary).
    #[cfg(feature = "host")]
    Server(Box<qiguo_server::cli::ServerArgs>),
    /// Play online games without a window: create, join, list, move, show, or play a seat as a
    /// computer. Each command prints one JSON line.
    Online(super::online::OnlineArgs),
    /// Write the game's icon as a PNG (for desktop menus; see the README's Install section).
    Icon {
        /// Width and height in pixels.
        #[arg(long, value_name = "PX", default_value_t = 256,
              value_parser = clap::value_parser!(u32).range(16..=1024))]
        size: u32,
        /// The PNG file to write.
        #[arg(value_name = "PATH")]
        path: std::path::PathBuf,
    },
}

/// The seats `--seating` asks for (seven players without it).
fn seats_of(seating: Option<&SeatingArg>) -> Result<Seats, ArgError> {
    match seating {
        Some(SeatingArg(seating)) => seating.seats().map_err(|e| ArgError::new("--seating", e)),
        None => Ok(Seats::seven()),
    }
}

/// The players' controllers in `--levels`: one for all `count` players, or one per player in
/// seat order. `None` is a person.
fn parse_levels(text: &str, count: usize) -> Result<Vec<Option<Level>>, ArgError> {
    let parsed = text
        .split(',')
        .map(|l| match l.trim() {
            "person" => Ok(None),
            other => other
                .parse::<Level>()
                .map(Some)
                .map_err(|e| ArgError::new("--levels", format!("{e} (or person)"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    match parsed.len() {
        1 => Ok(vec![parsed[0]; count]),
        n if n == count => Ok(parsed),
        n => Err(ArgError::new(
            "--levels",
            format!("give one level or {count} (one per player, in seat order), not {n}"),
        )),
    }
}

/// The position a tool starts from.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
    #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
    pub preset: Preset,
    /// Start from this 7K FEN instead of the preset's starting position.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The position the options name: the FEN under the preset, or the preset's start.
    pub fn position(&self) -> Result<Position, ArgError> {
        let rules = Rules::preset(self.preset);
        match &self.fen {
            Some(fen) => Position::from_fen(fen, rules).map_err(|e| ArgError::new("--fen", e)),
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

    /// A plain start may show the welcome card and offer the last game; an invitation's game
    /// is what was asked for, as a position or a seating is.
    #[test]
    fn an_invitation_is_no_plain_start() {
        let plain = |line: &str| parse(args(line)).unwrap().game.launch().unwrap().plain;
        assert!(plain("qiguo"));
        assert!(!plain(
            "qiguo --join https://qiguo.example.org:7206/join/K7QM-3XTD-9WFB-2HZR"
        ));
        assert!(!plain("qiguo --rules wikipedia"));
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
        for bad in ["1024", "100x100", "1024x768x2", "wide", "8000x600"] {
            let err = parse(args(&format!("qiguo --window {bad}"))).unwrap_err();
            let line = error_line(&err);
            assert!(line.contains("not a window size"), "{bad}: {line}");
        }
        let err = parse(args("qiguo --lang de")).unwrap_err();
        assert!(
            error_line(&err).contains("`de` is not a language of the game: en, zh or sv"),
            "{}",
            error_line(&err)
        );
        for (code, language) in [
            ("en", Language::English),
            ("zh", Language::Chinese),
            ("SV", Language::Swedish),
        ] {
            let cli = parse(args(&format!("qiguo --lang {code}"))).unwrap();
            assert_eq!(cli.game.launch().unwrap().language, Some(language));
        }
        assert_eq!(
            parse(args("qiguo"))
                .unwrap()
                .game
                .launch()
                .unwrap()
                .language,
            None
        );
        let cli = parse(args("qiguo --window 1024x768")).unwrap();
        let size = cli.game.launch().unwrap().window.unwrap();
        assert_eq!((size.width, size.height), (1024, 768));
        let cli = parse(args("qiguo")).unwrap();
        assert_eq!(
            cli.game.launch().unwrap().window,
            None,
            "the remembered size"
        );
        // Game options and a tool do not mix, and the message says which.
        let err = parse(args("qiguo --rules classic moves")).unwrap_err();
        let line = error_line(&err);
        assert!(
            line.contains("subcommand 'moves' cannot be used with '--rules"),
            "{line}"
        );
        let cli = parse(args("qiguo --fen x")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert_eq!(e.option, "--fen");
        assert!(e.to_string().starts_with("--fen: bad FEN"), "{e}");
        let cli = parse(args("qiguo --screenshot shot.jpg")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert_eq!(e.option, "--screenshot shot.jpg");
        assert_eq!(e.why, "the file must end in .png");
        let cli = parse(args("qiguo --screenshot /no/such/dir/shot.png")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert_eq!(e.why, "there is no directory /no/such/dir");
        let err = parse(args("qiguo perft")).unwrap_err();
        assert!(error_line(&err).contains("--depth"), "{}", error_line(&err));
        let cli = parse(args("qiguo --moves e10e5 f1f2")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert!(e.to_string().starts_with("--moves: move 2 (`f1f2`)"), "{e}");
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
                .why
                .contains("at least two players")
        );
        let cli = parse(args("qiguo --levels hard")).unwrap();
        let launch = cli.game.launch().unwrap();
        assert!(launch.levels.iter().all(|l| *l == Some(Level::Hard)));
        let cli = parse(args("qiguo --seating two --levels person,easy")).unwrap();
        let launch = cli.game.launch().unwrap();
        assert_eq!(launch.levels[1], Some(Level::Easy));
        let cli = parse(args("qiguo --levels hard,easy")).unwrap();
        assert!(
            cli.game
                .launch()
                .unwrap_err()
                .why
                .contains("one per player")
        );
        let cli = parse(args("qiguo --levels genius")).unwrap();
        assert!(cli.game.launch().unwrap_err().why.contains("unknown level"));
        let err = parse(args("qiguo --no-render")).unwrap_err();
        assert!(
            error_line(&err).contains("--bench-frames"),
            "{}",
            error_line(&err)
        );
    }

    /// The command line is refused, saying `why`.
    fn refused(line: &str, why: &str) {
        let err = parse(args(line)).unwrap_err();
        assert!(
            error_line(&err).contains(why),
            "{line}: {}",
            error_line(&err)
        );
    }

    /// `--busy`: the bench's middle game, Qin a person against six Easy computers, the round
    /// since Qin's last move played; only for a benchmark, and instead of a game of one's own.
    #[test]
    fn busy_is_the_benchs_middle_game() {
        let cli = parse(args("qiguo --bench-frames 2 --busy")).unwrap();
        let launch = cli.game.launch().unwrap();
        assert!(launch.busy);
        assert!(!launch.plain);
        assert_eq!(launch.game.len(), perf::BUSY_MOVES.len());
        assert_eq!(launch.game.position().to_move(), Kingdom::Qin);
        assert_eq!(launch.levels[0], None);
        assert!(launch.levels[1..].iter().all(|l| *l == Some(Level::Easy)));
        let err = parse(args("qiguo --busy")).unwrap_err();
        assert!(
            error_line(&err).contains("--bench-frames"),
            "{}",
            error_line(&err)
        );
        for conflict in [
            "--fen 7/7/7 w",
            "--levels hard",
            "--moves a1a2",
            "--rules ludii",
        ] {
            refused(
                &format!("qiguo --bench-frames 2 --busy {conflict}"),
                "cannot be used with",
            );
        }
    }

    /// `--again`: only where computers play every seat, and not for a one-off picture or bench.
    #[test]
    fn again_needs_computers_in_every_seat() {
        let cli = parse(args("qiguo --levels medium --again")).unwrap();
        assert!(cli.game.launch().unwrap().again);
        let cli = parse(args("qiguo --levels medium")).unwrap();
        assert!(!cli.game.launch().unwrap().again);
        for line in [
            "qiguo --again",
            "qiguo --levels person,easy,easy,easy,easy,easy,easy --again",
        ] {
            let err = parse(args(line)).unwrap().game.launch().unwrap_err();
            assert!(err.to_string().contains("--levels"), "{line}: {err}");
        }
        refused(
            "qiguo --levels easy --again --bench-frames 5",
            "cannot be used with",
        );
    }

    #[test]
    fn offscreen_draws_only_for_a_benchmark_or_a_screenshot() {
        let cli = parse(args("qiguo --bench-frames 10 --offscreen 800x600")).unwrap();
        let launch = cli.game.launch().unwrap();
        let screen = launch.offscreen.unwrap();
        assert_eq!(
            (screen.pixels, screen.ratio, screen.drawn()),
            (
                WindowSize {
                    width: 800,
                    height: 600
                },
                1.0,
                WindowSize {
                    width: 800,
                    height: 600
                }
            )
        );
        assert_eq!(launch.window, None);
        // A phone's screen of three pixels to a point is drawn at two, as the page draws it.
        let cli = parse(args("qiguo --bench-frames 10 --offscreen 1170x2532@3")).unwrap();
        let screen = cli.game.launch().unwrap().offscreen.unwrap();
        assert_eq!((screen.ratio, screen.drawn_ratio()), (3.0, 2.0));
        assert_eq!(
            screen.drawn(),
            WindowSize {
                width: 780,
                height: 1688
            }
        );
        assert_eq!(screen.to_string(), "1170x2532@3");
        for bad in ["1170x2532@0.5", "1170x2532@5", "1170x2532@", "1170x2532@x"] {
            refused(
                &format!("qiguo --bench-frames 10 --offscreen {bad}"),
                "is not a screen",
            );
        }
        let cli = parse(args("qiguo --screenshot shot.png --offscreen 1280x720")).unwrap();
        assert!(cli.game.launch().unwrap().offscreen.is_some());
        let cli = parse(args("qiguo --offscreen 800x600")).unwrap();
        let e = cli.game.launch().unwrap_err();
        assert_eq!(e.option, "--offscreen 800x600");
        assert!(e.why.contains("--bench-frames or --screenshot"), "{e}");
        // The size is checked as a window's is.
        let err = parse(args("qiguo --bench-frames 10 --offscreen 10x10")).unwrap_err();
        assert!(
            error_line(&err).contains("--offscreen"),
            "{}",
            error_line(&err)
        );
        // Nothing to draw into an image without a graphics device, and no window to size.
        for conflict in ["--no-render", "--window 800x600"] {
            refused(
                &format!("qiguo --bench-frames 10 --offscreen 800x600 {conflict}"),
                "cannot be used with",
            );
        }
    }
}
