//! The canonical game state (`Match`), the turn phases, the messages that request and report
//! changes, and the rules system: the only system that changes `Match`.

use bevy::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Move, MoveReport, PlayerInfo, Position};

use super::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<TurnPhase>()
        .add_message::<MoveRequested>()
        .add_message::<MoveApplied>()
        .add_message::<MoveRejected>()
        .add_message::<NewGameRequested>()
        .add_message::<MatchReset>()
        .add_message::<SeatChangeRequested>()
        .add_message::<UndoRequested>()
        .add_message::<RedoRequested>()
        .add_message::<ReviewRequested>()
        .add_message::<ShownPositionChanged>()
        .add_message::<Notice>()
        .init_resource::<Review>()
        .add_systems(Startup, phase_from_match)
        .add_systems(
            Update,
            (
                start_new_games,
                change_seats,
                undo_and_redo,
                review,
                apply_move_requests,
            )
                .chain()
                .in_set(AppSystems::ApplyRules),
        );
}

/// The game being played: the rules engine's game (start, moves, current position) and the
/// players. Only the rules system changes it; everything on screen is derived from it.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    game: Game,
    players: Vec<PlayerInfo>,
}

impl Match {
    /// A match from `start`, with default player names.
    pub fn new(start: Position) -> Match {
        let players = PlayerInfo::defaults(start.seats().player_count());
        Match::with_players(start, players)
    }

    /// A match from `start` with these players (one per player number in the seats).
    pub fn with_players(start: Position, players: Vec<PlayerInfo>) -> Match {
        Match::from_game(Game::new(start), players)
    }

    /// A match continuing `game`, with these players.
    pub fn from_game(game: Game, players: Vec<PlayerInfo>) -> Match {
        Match { game, players }
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
        self.players
            .get(seat as usize)?
            .computer
            .as_deref()
            .and_then(|l| l.parse().ok())
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
    fn undo_to_person(&mut self) -> usize {
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
    fn redo_to_person(&mut self) -> usize {
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
    pub fn player_name(&self, kingdom: Kingdom) -> Option<&str> {
        let seat = self.position().seats().player(kingdom)?;
        self.players.get(seat as usize).map(|p| p.name.as_str())
    }
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

/// A request to take back the last move (back to the last move a person made).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequested;

/// A request to play again the moves last taken back.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RedoRequested;

/// A request to look at an earlier position, or to go back to the game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewRequested {
    /// The position after this many moves.
    Ply(usize),
    /// The start.
    First,
    /// One move back from the position shown.
    Back,
    /// One move forward from the position shown.
    Forward,
    /// The live position: leave the review.
    Live,
}

/// The board should move to a different position of the same game (undo, redo, review): the
/// stones glide there instead of being rebuilt.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ShownPositionChanged;

/// A message for the players (a refused file, a failed save), shown briefly and logged.
#[derive(Message, Clone, Debug)]
pub struct Notice {
    /// The text.
    pub text: String,
    /// Whether something went wrong (rather than just done).
    pub error: bool,
}

impl Notice {
    /// Something went wrong; nothing changed.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: true,
        }
    }

    /// Something was done.
    pub fn done(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: false,
        }
    }
}

/// A request to play a move for the kingdom to move. The rules system checks it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRequested(pub Move);

/// A move was played: what it did, and how many moves the game now has.
#[derive(Message, Clone, Debug)]
pub struct MoveApplied {
    /// Everything the move did.
    pub report: MoveReport,
    /// Number of moves played, this one included.
    pub ply: usize,
}

/// A move request was refused; nothing changed.
#[derive(Message, Clone, Debug)]
pub struct MoveRejected {
    /// The move.
    pub mv: Move,
    /// Why, for the player.
    pub reason: String,
}

/// A request to replace the match with a new one: a new game, or a loaded or imported one.
#[derive(Message, Clone, Debug)]
pub struct NewGameRequested {
    /// The game: its start (rules and seats inside) and any moves already played.
    pub game: Game,
    /// The players, one per player number.
    pub players: Vec<PlayerInfo>,
}

impl NewGameRequested {
    /// A new game from `start`.
    pub fn new(start: Position, players: Vec<PlayerInfo>) -> NewGameRequested {
        NewGameRequested {
            game: Game::new(start),
            players,
        }
    }
}

/// A request to hand a player's kingdoms to a person or to the computer.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatChangeRequested {
    /// The player (see the seats).
    pub player: u8,
    /// The computer's level, or `None` for a person.
    pub computer: Option<Level>,
}

/// The match was replaced as a whole: views rebuild from it rather than animate.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct MatchReset;

fn phase_after(the_match: &Match) -> TurnPhase {
    if the_match.position().is_over() {
        TurnPhase::GameOver
    } else if the_match.computer_to_move() {
        TurnPhase::ComputerThinking
    } else {
        TurnPhase::AwaitingInput
    }
}

/// The first phase follows the match: finished, a computer to move, or a person.
fn phase_from_match(the_match: Res<Match>, mut next_phase: ResMut<NextState<TurnPhase>>) {
    let phase = phase_after(&the_match);
    if phase != TurnPhase::AwaitingInput {
        next_phase.set(phase);
    }
}

/// Hands players' kingdoms to people or computers; the turn follows at once if the kingdom to
/// move changed hands (a computer starts thinking, or stops and leaves it to the person).
fn change_seats(
    mut requests: MessageReader<SeatChangeRequested>,
    mut the_match: ResMut<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let mut changed = false;
    for request in requests.read() {
        if let Some(player) = the_match.players.get_mut(request.player as usize) {
            let computer = request.computer.map(|l| l.name().to_owned());
            if player.computer != computer {
                player.computer = computer;
                changed = true;
            }
        }
    }
    if changed
        && matches!(
            phase.get(),
            TurnPhase::AwaitingInput | TurnPhase::ComputerThinking
        )
    {
        next_phase.set(phase_after(&the_match));
    }
}

/// Replaces the match on request.
fn start_new_games(
    mut requests: MessageReader<NewGameRequested>,
    mut the_match: ResMut<Match>,
    mut review: ResMut<Review>,
    mut reset: MessageWriter<MatchReset>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    *the_match = Match::from_game(request.game.clone(), request.players.clone());
    *review = Review::default();
    reset.write(MatchReset);
    next_phase.set(phase_after(&the_match));
}

/// Takes moves back and plays them again. Refused while a move is being shown.
#[allow(clippy::too_many_arguments)]
fn undo_and_redo(
    mut undo: MessageReader<UndoRequested>,
    mut redo: MessageReader<RedoRequested>,
    mut the_match: ResMut<Match>,
    mut review: ResMut<Review>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut shown: MessageWriter<ShownPositionChanged>,
    mut notices: MessageWriter<Notice>,
) {
    let undos = undo.read().count();
    let redos = redo.read().count();
    if undos + redos == 0 {
        return;
    }
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::error("wait until the last move has been shown"));
        return;
    }
    let mut changed = 0;
    for _ in 0..undos {
        changed += the_match.undo_to_person();
    }
    for _ in 0..redos {
        changed += the_match.redo_to_person();
    }
    if changed == 0 {
        let what = if undos > 0 { "undo" } else { "redo" };
        notices.write(Notice::error(format!("there is nothing to {what}")));
        return;
    }
    *review = Review::default();
    shown.write(ShownPositionChanged);
    // `set`, not `set_if_neq`: a computer to move again re-enters ComputerThinking.
    next_phase.set(phase_after(&the_match));
}

/// Moves the review through the game's positions, and back to the game.
fn review(
    mut requests: MessageReader<ReviewRequested>,
    the_match: Res<Match>,
    mut review: ResMut<Review>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut shown: MessageWriter<ShownPositionChanged>,
    mut notices: MessageWriter<Notice>,
) {
    let Some(&request) = requests.read().last() else {
        return;
    };
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::error("wait until the last move has been shown"));
        return;
    }
    let len = the_match.game().len();
    let at = review.shown_ply(&the_match);
    let target = match request {
        ReviewRequested::Ply(n) => n.min(len),
        ReviewRequested::First => 0,
        ReviewRequested::Back => at.saturating_sub(1),
        ReviewRequested::Forward => (at + 1).min(len),
        ReviewRequested::Live => len,
    };
    let new = Review {
        ply: (target < len).then_some(target),
    };
    if new == *review {
        return;
    }
    *review = new;
    shown.write(ShownPositionChanged);
    next_phase.set(if new.ply.is_some() {
        TurnPhase::Reviewing
    } else {
        phase_after(&the_match)
    });
}

/// Checks move requests against `Match` and plays the legal one. Only one move is taken per
/// frame, and only while the turn awaits input; the rest are refused.
fn apply_move_requests(
    mut requests: MessageReader<MoveRequested>,
    mut the_match: ResMut<Match>,
    phase: Res<State<TurnPhase>>,
    mut applied: MessageWriter<MoveApplied>,
    mut rejected: MessageWriter<MoveRejected>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let mut taken = !matches!(
        phase.get(),
        TurnPhase::AwaitingInput | TurnPhase::ComputerThinking
    );
    for &MoveRequested(mv) in requests.read() {
        if taken {
            let reason = match phase.get() {
                TurnPhase::Reviewing => "go back to the game to play",
                TurnPhase::GameOver => "the game is over",
                _ => "wait until the last move has been shown",
            };
            rejected.write(MoveRejected {
                mv,
                reason: reason.into(),
            });
            continue;
        }
        match the_match.game.play(mv) {
            Ok(report) => {
                let report = report.clone();
                taken = true;
                applied.write(MoveApplied {
                    report,
                    ply: the_match.game.len(),
                });
                next_phase.set(TurnPhase::Animating);
            }
            Err(e) => {
                rejected.write(MoveRejected {
                    mv,
                    reason: e.to_string(),
                });
            }
        }
    }
}

/// Sets the phase once a move has been shown: back to input, or over.
pub(super) fn finish_turn(
    the_match: &Match,
    phase: &State<TurnPhase>,
    next_phase: &mut NextState<TurnPhase>,
) {
    if *phase.get() == TurnPhase::Animating {
        // `set`, not `set_if_neq`: a computer moving again after a computer re-enters
        // ComputerThinking, which starts its search.
        next_phase.set(phase_after(the_match));
    }
}
