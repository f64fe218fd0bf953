//! The canonical game state (`Match`), the turn phases, the messages that request and report
//! changes, and the rules system: the only system that changes `Match`.

use bevy::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{
    Game, IllegalMove, Kingdom, Move, MoveReport, PieceKind, PlayerInfo, Position, Record,
};

mod seats;

pub use seats::{SeatAuthority, SeatHolder};

use crate::game::AppSystems;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<TurnPhase>()
        .init_state::<Dialog>()
        .add_message::<MoveRequested>()
        .add_message::<MoveApplied>()
        .add_message::<MoveRejected>()
        .add_message::<MoveShown>()
        .add_message::<NewGameRequested>()
        .add_message::<HintUsed>()
        .add_message::<MatchReset>()
        .add_message::<SeatChangeRequested>()
        .add_message::<GameFromServer>()
        .add_message::<PlayersFromServer>()
        .add_message::<UndoRequested>()
        .add_message::<RedoRequested>()
        .add_message::<ReviewRequested>()
        .add_message::<ShownPositionChanged>()
        .add_message::<Notice>()
        .init_resource::<Review>()
        .init_resource::<SeatAuthority>()
        .add_systems(Startup, phase_from_match)
        .add_systems(
            Update,
            (
                start_new_games,
                change_seats,
                undo_and_redo,
                review,
                apply_move_requests,
                count_hints,
                follow_seat_authority,
                // Last: the next phase follows the match as the other requests left it.
                hand_on_turn,
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
    /// Which game this is in the session: it changes whenever the match is replaced.
    generation: u64,
    /// Hints shown to each kingdom's player, by kingdom index.
    hints: [u32; 7],
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
    pub(crate) fn player_name(&self, kingdom: Kingdom) -> Option<&str> {
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
pub(crate) struct ShownPositionChanged;

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

/// The turn a move request was made for: which game of the session (its generation, changed
/// whenever the match is replaced) and how many moves it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Turn {
    /// The match's generation.
    pub generation: u64,
    /// The number of moves played.
    pub ply: usize,
}

/// Who asks for a move: the person at the board, or the computer player of the kingdom to
/// move at some level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// A person, by clicking.
    Person,
    /// A computer player of this level.
    Computer(Level),
    /// The server of the online game on the board, which has played the move already (this
    /// window's people's moves among them).
    Remote,
}

/// A request to play a move for the kingdom to move, made for one turn by one mover. The rules
/// system checks that the request still fits the match before playing it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRequested {
    /// The move.
    pub mv: Move,
    /// The turn it was chosen at.
    pub made_for: Turn,
    /// Who chose it.
    pub by: Mover,
}

impl MoveRequested {
    /// A person's request to play `mv` now, in `the_match`.
    pub fn by_person(the_match: &Match, mv: Move) -> MoveRequested {
        MoveRequested {
            mv,
            made_for: the_match.turn(),
            by: Mover::Person,
        }
    }
}

/// The last move has been shown (its stones have landed): the turn can go on.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(crate) struct MoveShown;

/// A move was played: what it did, and how many moves the game now has.
#[derive(Message, Clone, Debug)]
pub struct MoveApplied {
    /// Everything the move did.
    pub report: MoveReport,
    /// Number of moves played, this one included.
    pub ply: usize,
    /// Who asked for it.
    pub by: Mover,
}

/// A move request was refused; nothing changed.
#[derive(Message, Clone, Debug)]
pub struct MoveRejected {
    /// The move.
    pub mv: Move,
    /// Why.
    pub reason: Refusal,
}

/// Why a click or a move request did nothing. Every reason the board gives lives here, worded
/// by [`Refusal::text`] from the interface's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A move is still being shown.
    Animating,
    /// The game has ended.
    GameOver,
    /// Players are looking at an earlier position.
    Reviewing,
    /// The kingdom to move is played by the computer.
    ComputerPlays(Kingdom),
    /// A dialog waits for an answer (see [`Dialog`]).
    DialogOpen,
    /// The move attacks an ally and waits for the player to confirm it.
    AllyQuestionOpen,
    /// The request was made for another turn, another game or another player of the kingdom
    /// (the match changed since). Nobody did anything wrong: it is not shown to the players.
    Outdated,
    /// The move is not legal in the position.
    Illegal(IllegalMove),
    /// The clicked stone of the kingdom to move cannot move.
    NowhereToGo(PieceKind),
    /// The clicked stone belongs to another kingdom.
    NotYourStone {
        /// The stone's kingdom.
        owner: Kingdom,
        /// The stone's piece.
        kind: PieceKind,
        /// The kingdom to move.
        to_move: Kingdom,
    },
    /// The kingdom to move is played on another machine.
    RemotePlays(Kingdom),
    /// In an online game the server plays the moves: the request went there. Not shown (the
    /// server's answer is).
    SentToServer,
    /// The Emperor's point was clicked.
    Emperor,
    /// An empty point was clicked with no stone selected.
    PickAStone(Kingdom),
    /// The move box's text is not a move (as typed, lowercased).
    Unreadable(String),
    /// `concede` was typed: conceding goes through its own question.
    ConcedeTyped,
    /// In a lesson: a legal move, but not what the step asks for.
    OffLesson(Move),
    /// In a lesson: the step is done; the lesson goes on, or is over.
    LessonDone,
}

crate::i18n::display_in_english!(Refusal);

impl Refusal {
    /// The reason in the interface's language.
    pub fn text(&self, tr: Tr) -> String {
        match self {
            Refusal::Animating => tr.text("refusal-animating"),
            Refusal::GameOver => tr.text("refusal-game-over"),
            Refusal::Reviewing => tr!(
                tr,
                "refusal-reviewing",
                key = crate::game::keys::REVIEW_LIVE.label()
            ),
            Refusal::ComputerPlays(k) => tr!(tr, "refusal-computer", kingdom = tr.kingdom(*k)),
            Refusal::DialogOpen => tr.text("refusal-dialog"),
            Refusal::AllyQuestionOpen => tr.text("refusal-ally-question"),
            Refusal::Outdated => tr.text("refusal-outdated"),
            Refusal::RemotePlays(k) => tr!(tr, "refusal-remote", kingdom = tr.kingdom(*k)),
            Refusal::SentToServer => tr.text("refusal-sent-to-server"),
            Refusal::Illegal(e) => illegal_text(tr, e),
            Refusal::NowhereToGo(kind) => {
                tr!(tr, "refusal-nowhere", piece = tr.piece_in_text(*kind))
            }
            Refusal::NotYourStone {
                owner,
                kind,
                to_move,
            } => tr!(
                tr,
                "refusal-not-yours",
                owner = tr.kingdom(*owner),
                piece = tr.piece_in_text(*kind),
                mover = tr.kingdom(*to_move)
            ),
            Refusal::Emperor => tr.text("refusal-emperor"),
            Refusal::PickAStone(k) => tr!(tr, "refusal-pick", kingdom = tr.kingdom(*k)),
            Refusal::Unreadable(text) => tr!(tr, "refusal-unreadable", text = text.as_str()),
            Refusal::ConcedeTyped => tr.text("refusal-concede-typed"),
            Refusal::OffLesson(mv) => tr!(tr, "refusal-off-lesson", mv = mv.to_string()),
            Refusal::LessonDone => tr.text("refusal-lesson-done"),
        }
    }

    /// Whether players should be told (an outdated request is nobody's mistake).
    pub fn is_shown(&self) -> bool {
        !matches!(self, Refusal::Outdated | Refusal::SentToServer)
    }
}

/// Why a move is not legal, in the interface's language.
pub(crate) fn illegal_text(tr: Tr, e: &IllegalMove) -> String {
    match e {
        IllegalMove::GameOver => tr.text("refusal-game-over"),
        IllegalMove::NoPiece(p) => tr!(tr, "illegal-no-piece", point = p.to_string()),
        IllegalMove::NotYourPiece { piece, to_move } => tr!(
            tr,
            "illegal-not-yours",
            piece = tr.piece_in_text(piece.kind),
            owner = tr.kingdom(piece.kingdom),
            mover = tr.kingdom(*to_move)
        ),
        IllegalMove::Unreachable { piece, mv } => tr!(
            tr,
            "illegal-unreachable",
            owner = tr.kingdom(piece.kingdom),
            piece = tr.piece_in_text(piece.kind),
            mv = mv.to_string()
        ),
        IllegalMove::PassNotAllowed => tr.text("illegal-pass-not-allowed"),
        IllegalMove::MustPass => tr.text("illegal-must-pass"),
    }
}

/// Whether `by` may ask for a move now, or why not. The same answer holds for a person's
/// clicks: only legality and the freshness of a request are checked later, when it is applied.
pub(crate) fn turn_refusal(
    the_match: &Match,
    phase: TurnPhase,
    review: &Review,
    dialog: Dialog,
    by: Mover,
    seats: &SeatAuthority,
) -> Option<Refusal> {
    let k = the_match.position().to_move();
    let refusal = if phase == TurnPhase::Animating {
        Refusal::Animating
    } else if phase == TurnPhase::GameOver || the_match.position().is_over() {
        Refusal::GameOver
    } else if phase == TurnPhase::Reviewing || review.ply.is_some() {
        Refusal::Reviewing
    } else if dialog != Dialog::None {
        Refusal::DialogOpen
    } else {
        let player = the_match.position().player_of(k);
        match (by, the_match.computer(k)) {
            (Mover::Person, Some(_)) => Refusal::ComputerPlays(k),
            (Mover::Person, None) if !seats.plays_here(player) => Refusal::RemotePlays(k),
            (Mover::Computer(level), held) if held != Some(level) => Refusal::Outdated,
            (Mover::Remote, _) if !seats.follows_server() => Refusal::Outdated,
            _ => return None,
        }
    };
    Some(refusal)
}

/// A dialog the players must answer before the board takes moves.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Dialog {
    /// None is open.
    #[default]
    None,
    /// Whether to resume the last unfinished game.
    Resume,
}

/// A request to replace the match with a new one: a new game, or a loaded or imported one.
#[derive(Message, Clone, Debug)]
pub struct NewGameRequested {
    /// The game: its start (rules and seats inside) and any moves already played.
    pub game: Game,
    /// The players, one per player number.
    pub players: Vec<PlayerInfo>,
    /// Hints already shown to each kingdom's player (a loaded game), by kingdom index.
    pub hints: [u32; 7],
}

/// A hint was shown to the player of `kingdom` at `turn`: counted in the match.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintUsed {
    /// The kingdom to move, whose player asked.
    pub kingdom: Kingdom,
    /// The turn it was for (a hint for a turn gone is not counted).
    pub turn: Turn,
}

impl From<crate::saves::Loaded> for NewGameRequested {
    /// A request to play on from a loaded game, hints counted as the record has them.
    fn from(loaded: crate::saves::Loaded) -> NewGameRequested {
        NewGameRequested {
            players: loaded.players(),
            hints: loaded.record.hints_by_kingdom(),
            game: loaded.game,
        }
    }
}

impl NewGameRequested {
    /// A new game from `start`.
    pub fn new(start: Position, players: Vec<PlayerInfo>) -> NewGameRequested {
        NewGameRequested {
            game: Game::new(start),
            players,
            hints: [0; 7],
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

/// From the server of the online game on the board: the whole game (on opening it, or again
/// after moves were taken back), replacing the match.
#[derive(Message, Clone, Debug)]
pub(crate) struct GameFromServer {
    /// The game.
    pub game: Game,
    /// The players, as the server has them.
    pub players: Vec<PlayerInfo>,
}

/// From the server of the online game on the board: the players' names and computers now.
#[derive(Message, Clone, Debug, PartialEq)]
pub(crate) struct PlayersFromServer(pub Vec<PlayerInfo>);

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
#[allow(clippy::too_many_arguments)]
fn change_seats(
    mut requests: MessageReader<SeatChangeRequested>,
    mut from_server: MessageReader<PlayersFromServer>,
    mut the_match: ResMut<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    seats: Res<SeatAuthority>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let mut changed = false;
    if let Some(PlayersFromServer(players)) = from_server.read().last()
        && seats.follows_server()
        && players.len() == the_match.players.len()
        && *players != the_match.players
    {
        the_match.players = players.clone();
        changed = true;
    }
    for request in requests.read() {
        if seats.follows_server() {
            notices.write(Notice::error(tr.text("online-server-decides")));
            continue;
        }
        let computer = request.computer;
        let seat = request.player as usize;
        if the_match
            .players
            .get(seat)
            .is_some_and(|p| p.computer != computer)
        {
            the_match.players[seat].computer = computer;
            changed = true;
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
#[allow(clippy::too_many_arguments)]
fn start_new_games(
    mut requests: MessageReader<NewGameRequested>,
    mut from_server: MessageReader<GameFromServer>,
    mut the_match: ResMut<Match>,
    mut review: ResMut<Review>,
    mut reset: MessageWriter<MatchReset>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    seats: Res<SeatAuthority>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let local = requests.read().last();
    let served = from_server.read().last();
    let (game, players, hints) = match (local, served) {
        (_, Some(sent)) if seats.follows_server() => (&sent.game, &sent.players, [0; 7]),
        (Some(_), _) if seats.follows_server() => {
            notices.write(Notice::error(tr.text("online-leave-first")));
            return;
        }
        (Some(request), _) => (&request.game, &request.players, request.hints),
        _ => return,
    };
    let generation = the_match.generation + 1;
    *the_match = Match {
        generation,
        hints,
        ..Match::from_game(game.clone(), players.clone())
    };
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
    tr: Res<Tr>,
    seats: Res<SeatAuthority>,
) {
    let undos = undo.read().count();
    let redos = redo.read().count();
    if undos + redos == 0 {
        return;
    }
    if seats.follows_server() {
        // A take-back is asked of the server by the online code; only the server plays moves
        // again.
        if redos > 0 {
            notices.write(Notice::error(tr.text("online-server-decides")));
        }
        return;
    }
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::error(Refusal::Animating.text(*tr)));
        return;
    }
    let mut changed = 0;
    let unmarked = the_match.bypass_change_detection();
    for _ in 0..undos {
        changed += unmarked.undo_to_person();
    }
    for _ in 0..redos {
        changed += unmarked.redo_to_person();
    }
    if changed == 0 {
        let id = if undos > 0 {
            "nothing-to-undo"
        } else {
            "nothing-to-redo"
        };
        notices.write(Notice::error(tr.text(id)));
        return;
    }
    the_match.set_changed();
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
    tr: Res<Tr>,
) {
    let Some(&request) = requests.read().last() else {
        return;
    };
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::error(Refusal::Animating.text(*tr)));
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

/// Checks move requests against `Match` and plays the legal one. A request is refused unless it
/// was made for this turn, by whoever now holds the kingdom to move, while the turn awaits it,
/// and `Match` has not changed earlier in this frame; one move at most is taken per frame.
/// Refusals change nothing (`Match` is not even marked changed).
fn apply_move_requests(
    mut requests: MessageReader<MoveRequested>,
    mut the_match: ResMut<Match>,
    phase: Res<State<TurnPhase>>,
    dialog: Res<State<Dialog>>,
    review: Res<Review>,
    mut applied: MessageWriter<MoveApplied>,
    mut rejected: MessageWriter<MoveRejected>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    seats: Res<SeatAuthority>,
) {
    // A change by another rules system this frame (a seat, an undo, a new game) outdates
    // every request made before it.
    let mut taken = the_match.is_changed();
    for request in requests.read() {
        let refusal = if taken || request.made_for != the_match.turn() {
            Some(Refusal::Outdated)
        } else if seats.follows_server() && request.by == Mover::Person {
            Some(Refusal::SentToServer)
        } else {
            turn_refusal(
                &the_match,
                *phase.get(),
                &review,
                *dialog.get(),
                request.by,
                &seats,
            )
        };
        if let Some(reason) = refusal {
            debug!("move {} refused: {reason}", request.mv);
            rejected.write(MoveRejected {
                mv: request.mv,
                reason,
            });
            continue;
        }
        match the_match.bypass_change_detection().game.play(request.mv) {
            Ok(report) => {
                let report = report.clone();
                the_match.set_changed();
                taken = true;
                applied.write(MoveApplied {
                    report,
                    ply: the_match.game.len(),
                    by: request.by,
                });
                next_phase.set(TurnPhase::Animating);
            }
            Err(e) => {
                rejected.write(MoveRejected {
                    mv: request.mv,
                    reason: Refusal::Illegal(e),
                });
            }
        }
    }
}

/// Counts the hints shown, each for the turn it was found at. The count is not a change of
/// the game: it does not outdate the move requests of the next frame.
fn count_hints(mut used: MessageReader<HintUsed>, mut the_match: ResMut<Match>) {
    for hint in used.read() {
        if hint.turn == the_match.turn() {
            the_match.bypass_change_detection().hints[hint.kingdom.index()] += 1;
        }
    }
}

/// When this machine stops following a server, the turn is taken up again here: a computer to
/// move starts thinking (the server played the computers until now), or a person may move. The
/// match itself is unchanged: the same game, the same stones.
fn follow_seat_authority(
    seats: Res<SeatAuthority>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut followed_server: Local<bool>,
) {
    let follows = seats.follows_server();
    if std::mem::replace(&mut *followed_server, follows)
        && !follows
        && matches!(
            phase.get(),
            TurnPhase::AwaitingInput | TurnPhase::ComputerThinking
        )
    {
        // `set`, not `set_if_neq`: a computer to move re-enters ComputerThinking.
        next_phase.set(phase_after(&the_match));
    }
}

/// Hands the turn on once a move has been shown: to a person, a computer, or the end.
fn hand_on_turn(
    mut shown: MessageReader<MoveShown>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    if shown.read().count() > 0 && *phase.get() == TurnPhase::Animating {
        // `set`, not `set_if_neq`: a computer moving again after a computer re-enters
        // ComputerThinking, which starts its search.
        next_phase.set(phase_after(&the_match));
    }
}
