//! A game: the start position, the moves played with what each did, undo and redo, and the
//! end by agreement.

use crate::{IllegalMove, Move, MoveReport, Outcome, Position, Rules, Seats, position::Undo};

/// A game in progress or finished: its start, its moves, and its current position.
///
/// ```
/// use qiguo_rules::{notation, Game, Rules};
/// let mut game = Game::start(Rules::default(), Default::default());
/// game.play(notation::parse_move("e10e5").unwrap()).unwrap();
/// assert_eq!(game.len(), 1);
/// assert!(game.undo());
/// assert_eq!(game.position(), game.start_position());
/// assert!(game.redo().is_some());
/// assert_eq!(game.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    played: Vec<(MoveReport, Undo)>,
    /// Moves taken back, each with whether it was an overdue pass.
    undone: Vec<(Move, bool)>,
    ended_early: bool,
    /// The numbers of the moves that were overdue passes, in order.
    overdue: Vec<usize>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            current: start.clone(),
            start,
            played: Vec::new(),
            undone: Vec::new(),
            ended_early: false,
            overdue: Vec::new(),
        }
    }

    /// A game from the starting position of `rules` with `seats`.
    pub fn start(rules: Rules, seats: Seats) -> Game {
        Game::new(Position::start_with(rules, seats))
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// Number of moves played.
    pub fn len(&self) -> usize {
        self.played.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.played.iter().map(|(r, _)| r.mv)
    }

    /// What each move did, in order.
    pub fn reports(&self) -> impl ExactSizeIterator<Item = &MoveReport> + '_ {
        self.played.iter().map(|(r, _)| r)
    }

    /// The report of the last move.
    pub fn last_report(&self) -> Option<&MoveReport> {
        self.played.last().map(|(r, _)| r)
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.current.outcome()
    }

    /// Whether the players ended the game early.
    pub fn ended_early(&self) -> bool {
        self.ended_early
    }

    /// Plays a move after checking it. Clears the moves that could be redone.
    pub fn play(&mut self, mv: Move) -> Result<&MoveReport, IllegalMove> {
        self.current.check(mv)?;
        self.undone.clear();
        Ok(self.push(mv))
    }

    /// Passes the turn of the kingdom to move because its move is overdue (an online game by
    /// correspondence whose creator chose that overdue turns pass): the pass is made even though
    /// the kingdom has legal moves, and the game remembers it as such
    /// ([`Game::overdue_passes`]; records keep it, see [`Record`](crate::Record)). Refused only
    /// when the game is over.
    ///
    /// ```
    /// use qiguo_rules::{Game, Move, Rules};
    /// let mut game = Game::start(Rules::default(), Default::default());
    /// assert!(game.play(Move::PASS).is_err());
    /// game.pass_overdue().unwrap();
    /// assert_eq!(game.overdue_passes(), &[0]);
    /// assert_ne!(game.position().to_move(), game.start_position().to_move());
    /// ```
    pub fn pass_overdue(&mut self) -> Result<&MoveReport, IllegalMove> {
        if self.current.is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.undone.clear();
        self.overdue.push(self.played.len());
        Ok(self.push(Move::PASS))
    }

    /// The numbers (from 0) of the moves that were overdue passes ([`Game::pass_overdue`]).
    pub fn overdue_passes(&self) -> &[usize] {
        &self.overdue
    }

    fn push(&mut self, mv: Move) -> &MoveReport {
        let entry = self.current.play_unchecked_with_report(mv);
        self.played.push(entry);
        &self.played.last().expect("just pushed").0
    }

    /// Takes back the last move (or the end by agreement). Returns whether anything was undone.
    pub fn undo(&mut self) -> bool {
        if self.ended_early {
            self.ended_early = false;
            self.current = self.position_at(self.played.len());
            return true;
        }
        match self.played.pop() {
            Some((report, undo)) => {
                self.current.unmake(undo);
                let forced = self.overdue.last() == Some(&self.played.len());
                if forced {
                    self.overdue.pop();
                }
                self.undone.push((report.mv, forced));
                true
            }
            None => false,
        }
    }

    /// Plays again the last move taken back, if any.
    pub fn redo(&mut self) -> Option<&MoveReport> {
        let (mv, forced) = self.undone.pop()?;
        if forced {
            self.overdue.push(self.played.len());
        }
        Some(self.push(mv))
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The position after the first `ply` moves (clamped to the moves played).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut pos = self.start.clone();
        for (report, _) in self.played.iter().take(ply) {
            pos.make(report.mv);
        }
        pos
    }

    /// Ends the game by agreement: the player with the most captures wins.
    pub fn end_early(&mut self) -> Option<Outcome> {
        if self.current.is_over() {
            return None;
        }
        self.ended_early = true;
        Some(self.current.end_by_agreement())
    }
}
