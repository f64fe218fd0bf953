//! Self-play games kept with what the search said before each move, for fitting models of the
//! game (the players' chances, the evaluation's weights): `qiguo-selfplay --positions FILE`
//! writes them, [`read`] reads them back.
//!
//! The file is JSON lines. The first names the format and the series that played the games:
//! `{"qiguo_positions": 2, "series": {…}}` (the series' settings as its ledger names them).
//! Every other line is one finished game ([`GameRecord`]): its number, its rules (a preset's
//! name) and seats (who holds each kingdom), the levels, the moves, the search's value and depth
//! before each move, who won, when each kingdom left the game and each kingdom's place. A game
//! carries its own rules and seats, so one file holds games of several presets and seatings.
//! Positions are kept as moves rather than as FEN, since FEN leaves out the captures and losses
//! that the rules and the evaluation count; [`GameRecord::positions`] plays them again. A later
//! format gets a new number, and this reader refuses it rather than misreading it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use qiguo_ai::SearchResult;
use qiguo_rules::{Game, Kingdom, Position, Preset, Rules, Seats, Standing};
use serde::{Deserialize, Serialize};

/// The format this build writes and reads. 1 had one preset a file (named in its first line)
/// and seven players; 2 gives each game its rules and seats, and its places.
pub const FORMAT: u64 = 2;

/// One game, as a line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The game's number in its series (its seed follows from it).
    pub game: u32,
    /// Its rules: a preset's name (`classic`, `wikipedia`, …).
    pub rules: String,
    /// Who holds each kingdom: the player numbers, in turn order.
    pub seats: Seats,
    /// The level of each kingdom, in turn order.
    pub levels: Vec<String>,
    /// The moves, as `qiguo moves` writes them.
    pub moves: Vec<String>,
    /// Before each move, the search's value for the kingdom to move's player and the depth it
    /// finished; `None` where nothing was searched (the opening's moves, a lone legal move, a
    /// random one).
    pub searched: Vec<Option<(i32, u32)>>,
    /// The winning kingdom; `None` for a game capped before its end.
    pub winner: Option<String>,
    /// The winning player (by player number).
    pub player: Option<u8>,
    /// How it was won.
    pub victory: Option<String>,
    /// After how many moves each kingdom left the game (by kingdom index); `None` for a
    /// kingdom still in it at the end.
    pub out: [Option<usize>; 7],
    /// Each kingdom's place at the end (by kingdom index; see [`places_of`]); `None` for a
    /// capped game.
    pub places: Option<[u8; 7]>,
}

impl GameRecord {
    /// The record of `game` (numbered `index`, played by `levels`), with `searched` before each
    /// of its moves.
    pub fn of(
        index: u32,
        levels: &[qiguo_ai::Level; 7],
        game: &Game,
        searched: Vec<Option<(i32, u32)>>,
    ) -> GameRecord {
        let start = game.start_position();
        let mut out = [None; 7];
        let mut pos = game.start_position().clone();
        for (i, report) in game.reports().enumerate() {
            pos.make(report.mv);
            for k in Kingdom::ALL {
                let gone = !matches!(pos.standing(k), Standing::InGame | Standing::Absent);
                if gone && out[k.index()].is_none() {
                    out[k.index()] = Some(i + 1);
                }
            }
        }
        let outcome = game.outcome();
        GameRecord {
            game: index,
            rules: start.rules().preset_name().to_owned(),
            seats: *start.seats(),
            levels: levels.iter().map(|l| l.name().to_owned()).collect(),
            moves: game.reports().map(|r| r.mv.to_string()).collect(),
            searched,
            winner: outcome.map(|o| o.winner.name().to_owned()),
            player: outcome.map(|o| o.player),
            victory: outcome.map(|o| o.victory.name().to_owned()),
            out,
            places: outcome.map(|o| places_of(o.winner, &out)),
        }
    }

    /// The game's rules, from its preset's name.
    pub fn rules(&self) -> Result<Rules, ReplayError> {
        self.rules
            .parse::<Preset>()
            .map(Rules::preset)
            .map_err(|_| ReplayError::Rules {
                game: self.game,
                rules: self.rules.clone(),
            })
    }

    /// The position before each move, with what the search said there; then the last
    /// position. Fails on a move that is not legal where it stands (a damaged file, or one
    /// from other rules).
    pub fn positions(&self) -> Result<Vec<(Position, Option<i32>)>, ReplayError> {
        let game = self.game()?;
        let mut pos = game.start_position().clone();
        let mut out = Vec::with_capacity(game.len() + 1);
        for (i, mv) in game.moves().enumerate() {
            let searched = self.searched.get(i).copied().flatten().map(|(v, _)| v);
            out.push((pos.clone(), searched));
            pos.make(mv);
        }
        out.push((pos, None));
        Ok(out)
    }

    /// The game played again under its rules and seats: fails as [`GameRecord::positions`]
    /// does, or on rules no preset names.
    pub fn game(&self) -> Result<Game, ReplayError> {
        let mut game = Game::start(self.rules()?, self.seats);
        for (i, text) in self.moves.iter().enumerate() {
            let refused = |why: String| ReplayError::Move {
                game: self.game,
                ply: i + 1,
                text: text.clone(),
                why,
            };
            let mv = qiguo_rules::notation::parse_move(text).map_err(|e| refused(e.to_string()))?;
            game.play(mv).map_err(|e| refused(e.to_string()))?;
        }
        if game.outcome().map(|o| o.player) != self.player {
            return Err(ReplayError::Ending { game: self.game });
        }
        Ok(game)
    }
}

/// Each kingdom's place at the end of a game `winner` won (by kingdom index), `out` saying
/// after how many moves each left it: the winner first, then the others by how long they
/// lasted (those still in the game at the end share the place after the winner's).
pub fn places_of(winner: Kingdom, out: &[Option<usize>; 7]) -> [u8; 7] {
    let lasted = |k: usize| out[k].unwrap_or(usize::MAX);
    let winning = winner.index();
    std::array::from_fn(|k| {
        if k == winning {
            return 1;
        }
        let better = (0..7)
            .filter(|&o| o != k && o != winning && lasted(o) > lasted(k))
            .count();
        2 + better as u8
    })
}

/// Why a game's moves cannot be played again.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A move is not one, or not legal where it stands.
    #[error("game {game}, move {ply} ({text}): {why}")]
    Move {
        /// The game's number.
        game: u32,
        /// The move's number, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        why: String,
    },
    /// The rules are no preset's.
    #[error("game {game}: no preset is named {rules}")]
    Rules {
        /// The game's number.
        game: u32,
        /// The name written.
        rules: String,
    },
    /// The moves do not end with the winner the record names.
    #[error("game {game}: its moves do not end as it says")]
    Ending {
        /// The game's number.
        game: u32,
    },
}

/// What the search said before a move, as a record keeps it: nothing for a move not searched.
pub fn searched(result: &SearchResult) -> Option<(i32, u32)> {
    (result.depth > 0).then_some((result.score, result.depth))
}

/// Why a file of positions cannot be written or read.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Its first line does not name a format this build reads.
    #[error("{path}: not a file of positions of format {FORMAT} (its first line: {first})")]
    Format {
        /// The file.
        path: PathBuf,
        /// Its first line.
        first: String,
    },
    /// A game's line cannot be read.
    #[error("{path}, line {line}: {why}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// The positions that a fit reads of the games of some files, split by game: those fitted on
/// and those held out to measure on.
#[derive(Debug)]
pub struct Split<T> {
    /// What was read of the games fitted on.
    pub fitted: Vec<T>,
    /// What was read of the games held out.
    pub held_out: Vec<T>,
    /// Games in the files.
    pub games: usize,
    /// Games with a winner.
    pub won: usize,
    /// Games with a winner held out.
    pub kept_out: usize,
}

/// Why files of positions cannot be read for a fit.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// A file cannot be read.
    #[error(transparent)]
    File(#[from] PositionsError),
    /// A game in it cannot be played again.
    #[error("{}: {source}", path.display())]
    Replay {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ReplayError,
    },
}

/// What `read` makes of each game of `files`, one game in `hold_out` held out by a hash of its
/// number (not the number itself: a series turns its presets and tables game by game, and
/// every fifth game is one preset's).
pub fn read_split<T>(
    files: &[PathBuf],
    hold_out: u32,
    mut read: impl FnMut(&GameRecord) -> Result<Vec<T>, ReplayError>,
) -> Result<Split<T>, SplitError> {
    let mut split = Split {
        fitted: Vec::new(),
        held_out: Vec::new(),
        games: 0,
        won: 0,
        kept_out: 0,
    };
    for path in files {
        for record in self::read(path)? {
            split.games += 1;
            split.won += usize::from(record.player.is_some());
            let held = qiguo_rules::random::splitmix64(u64::from(record.game))
                .is_multiple_of(u64::from(hold_out.max(1)));
            split.kept_out += usize::from(held && record.player.is_some());
            let samples = read(&record).map_err(|source| SplitError::Replay {
                path: path.clone(),
                source,
            })?;
            if held {
                &mut split.held_out
            } else {
                &mut split.fitted
            }
            .extend(samples);
        }
    }
    Ok(split)
}

/// A file of positions being written, a game at a time.
#[derive(Debug)]
pub struct PositionsFile {
    path: PathBuf,
    file: std::fs::File,
}

impl PositionsFile {
    /// Starts the file at `path` (replacing one there) for the series named `series` (its
    /// identity, as JSON).
    pub fn create(path: &Path, series: &str) -> Result<PositionsFile, PositionsError> {
        let io = |source| PositionsError::Io {
            path: path.to_owned(),
            source,
        };
        let series: serde_json::Value = serde_json::from_str(series).unwrap_or_default();
        let mut file = std::fs::File::create(path).map_err(io)?;
        let head = serde_json::json!({ "qiguo_positions": FORMAT, "series": series });
        writeln!(file, "{head}").map_err(io)?;
        Ok(PositionsFile {
            path: path.to_owned(),
            file,
        })
    }

    /// Adds a game.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), PositionsError> {
        let line = serde_json::to_string(record).expect("a record is JSON");
        writeln!(self.file, "{line}").map_err(|source| PositionsError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

/// The games of the file at `path`.
pub fn read(path: &Path) -> Result<Vec<GameRecord>, PositionsError> {
    let io = |source| PositionsError::Io {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut lines = BufReader::new(file).lines();
    let first = lines.next().transpose().map_err(io)?.unwrap_or_default();
    let head: serde_json::Value = serde_json::from_str(&first).unwrap_or_default();
    let Some(FORMAT) = head["qiguo_positions"].as_u64() else {
        return Err(PositionsError::Format {
            path: path.to_owned(),
            first: first.chars().take(120).collect(),
        });
    };
    let mut games = Vec::new();
    for (i, line) in lines.enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        let record: GameRecord =
            serde_json::from_str(&line).map_err(|e| PositionsError::Damaged {
                path: path.to_owned(),
                line: i + 2,
                why: e.to_string(),
            })?;
        games.push(record);
    }
    Ok(games)
}
