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
        .add_systems(Startup, phase_from_match)
        .add_systems(
            Update,
            (start_new_games, change_seats, apply_move_requests)
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

/// A request to replace the match with a new one.
#[derive(Message, Clone, Debug)]
pub struct NewGameRequested {
    /// The start position, with its rules and seats.
    pub start: Position,
    /// The players, one per player number.
    pub players: Vec<PlayerInfo>,
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
    mut reset: MessageWriter<MatchReset>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    *the_match = Match::with_players(request.start.clone(), request.players.clone());
    reset.write(MatchReset);
    next_phase.set(phase_after(&the_match));
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
            rejected.write(MoveRejected {
                mv,
                reason: "wait until the last move has been shown".into(),
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
