//! The game being played and where its turn stands: [`Match`] (the one source of truth),
//! [`Turn`], [`TurnPhase`], [`Review`] and the [`Dialog`] the board waits for.

use bevy::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, PlayerInfo, Position, Record};

/// The game being played: the rules engine's game (start, moves, current position) and the
/// players. Only the rules system changes it; everything on screen is derived from it.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    pub(super) game: Game,
    pub(super) players: Vec<PlayerInfo>,
    /// Which game this is in the session: it changes whenever the match is replaced.
    pub(super) generation: u64,
    /// Hints shown to each kingdom's player, by kingdom index.
    pub(super) hints: [u32; 7],
}

impl Match {
    /// A match continuing `game`, with these players.
    pub fn from_game(game: Game, players: Vec<PlayerInfo>) -> Match {
        Match {
            game,
            players,
            generation: 0,
            hints: [0; 7],
        }
    }

    /// How many hints the player of `kingdom` has been shown in this game.
    pub fn hints_used(&self, kingdom: Kingdom) -> u32 {
        self.hints[kingdom.index()]
    }

    /// The turn the match is at: which game, and how many moves it has. A move request is
    /// made for one turn and refused at any other.
    pub fn turn(&self) -> Turn {
        Turn {
            generation: self.generation,
            ply: self.game.len(),
        }
    }

    /// The match as a game record: rules, seats, players, start and moves.
    pub fn record(&self) -> Record {
        let mut record = Record::from_game(self.game(), self.players().to_vec());
        if self.hints.iter().any(|&n| n > 0) {
            record.hints = self.hints.to_vec();
        }
        record
    }

    /// The game: start, moves and current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The players, by player number.
    pub fn players(&self) -> &[PlayerInfo] {
        &self.players
    }

    /// Who plays `kingdom`: `Some(level)` for a computer player, `None` for a person (or an
    /// empty kingdom).
    pub fn computer(&self, kingdom: Kingdom) -> Option<Level> {
        let seat = self.position().seats().player(kingdom)?;
        self.players.get(seat as usize)?.computer
    }

    /// Whether a computer player is to move.
    pub fn computer_to_move(&self) -> bool {
        !self.position().is_over() && self.computer(self.position().to_move()).is_some()
    }

    /// Whether any kingdom still in the game is played by a person.
    pub fn has_person(&self) -> bool {
        let pos = self.position();
        pos.alive()
            .iter()
            .any(|k| pos.seats().player(k).is_some() && self.computer(k).is_none())
    }

    /// Takes back the last move and, when people play with computers, the computers' moves
    /// before it, back to the last move a person made. Returns how many moves were taken back.
    pub(super) fn undo_to_person(&mut self) -> usize {
        let mut undone = 0;
        while self.game.undo() {
            undone += 1;
            if !self.has_person() || !self.computer_to_move() || self.game.is_empty() {
                break;
            }
        }
        undone
    }

    /// Plays again the moves taken back, up to the next person's turn. Returns how many.
    pub(super) fn redo_to_person(&mut self) -> usize {
        let mut redone = 0;
        while self.game.redo().is_some() {
            redone += 1;
            if !self.has_person() || !self.computer_to_move() || !self.game.can_redo() {
                break;
            }
        }
        redone
    }

    /// The name of the player holding `kingdom`, if it is held.
    pub(crate) fn player_name(&self, kingdom: Kingdom) -> Option<&str> {
        let seat = self.position().seats().player(kingdom)?;
        self.players.get(seat as usize).map(|p| p.name.as_str())
    }
}

/// The turn a move request was made for: which game of the session (its generation, changed
/// whenever the match is replaced) and how many moves it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Turn {
    /// The match's generation.
    pub generation: u64,
    /// The number of moves played.
    pub ply: usize,
}

/// Where the turn stands. Input is taken only while `AwaitingInput`.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TurnPhase {
    /// The kingdom to move may pick a stone.
    #[default]
    AwaitingInput,
    /// A computer player is choosing its move; clicks wait.
    ComputerThinking,
    /// A move is being shown; clicks wait.
    Animating,
    /// The game has ended.
    GameOver,
    /// Players are looking at an earlier position (see [`Review`]); the game waits.
    Reviewing,
}

/// Which position the board shows: the live one, or an earlier one under review.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Review {
    /// The number of moves played in the position shown; `None` for the live position.
    pub ply: Option<usize>,
}

impl Review {
    /// The number of moves in the position shown.
    pub fn shown_ply(&self, the_match: &Match) -> usize {
        self.ply.unwrap_or(the_match.game().len())
    }

    /// The position shown.
    pub fn shown_position(&self, the_match: &Match) -> Position {
        match self.ply {
            Some(ply) => the_match.game().position_at(ply),
            None => the_match.position().clone(),
        }
    }
}

/// A dialog the players must answer before the board takes moves.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialog {
    /// None is open.
    #[default]
    None,
    /// Whether to resume the last unfinished game.
    Resume,
}
