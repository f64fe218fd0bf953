//! *Learn from your mistakes*: the position before each of a person's worst moves in a
//! reviewed game, asked again as a question ("Qin to move: find a better move"), answered on the
//! board. Any move that keeps the mover's chance within [`GOOD_ENOUGH`] of the engine's best
//! counts: it is judged as the review judged the mistake (`qiguo_ai::review::chance_after`, on a
//! thread of its own or in a page's Web Worker: [`judge`]). A move found wanting is shown, said,
//! and taken back for another try; a hint marks the stone to move; the solution is played out
//! on the board; then the next mistake. Leaving brings back the reviewed game, and its review.
//!
//! The exercises are the people's (not the computers') mistakes and blunders, and the moves that
//! let their General fall where a better one kept at least a [`MISTAKE`]'s worth more: an
//! inaccuracy's better move is too near the one played to be worth a question.
//!
//! Like a lesson, an exercise is a game the rules system is asked to start, in which every
//! player is a person (nobody answers the move), and the board's guide ([`Guide`]) takes one move
//! of the mover's while the question stands.
//!
//! Puzzles ([`puzzles`]) are asked the same way: a puzzle's question has one answer, its
//! solution, and a first try moves the solver's puzzle rating.

pub(crate) mod judge;
pub mod puzzles;
pub(crate) mod ui;
pub(crate) mod view;

use std::sync::Arc;

use bevy::prelude::*;
use qiguo_ai::review::{GOOD_ENOUGH, GameReview, MISTAKE, MistakeKind, MoveReview};
use qiguo_rules::{Game, Kingdom, Move, PlayerInfo};

use self::puzzles::{
    PuzzleRatedOnServer, PuzzleSolver, PuzzleTriedOnServer, PuzzlesRequested, ServerPuzzleWanted,
};
use crate::puzzles::Puzzle;

use crate::game::frames::Waker;
use crate::game::review::Reviewed;
use crate::game::schedule::AppSystems;
use crate::game::selection::{Guide, SelectionSystems};
use crate::game::state::{
    BoardRefusal, Match, MatchReset, MoveApplied, MoveRequested, MoveShown, Mover,
    NewGameRequested, Notice, SeatAuthority,
};
use crate::game::telling::Announced;
use crate::game::tools::screenshot::hold_while;
use crate::i18n::Tr;
use crate::tr;

pub(crate) fn plugin(app: &mut App) {
    // A picture of a practice or of puzzles asked for at launch waits for their first question.
    hold_while::<PracticeAtLaunch>(app, "practice", |_| true);
    hold_while::<puzzles::PuzzleAtLaunch>(app, "puzzle", |_| true);
    app.add_plugins(puzzles::plugin)
        .init_resource::<Practice>()
        .add_message::<PracticeCommand>()
        .add_systems(
            Update,
            (
                start_at_launch,
                puzzles::ask_at_launch,
                start_puzzles,
                follow_commands,
                guide_moves,
            )
                .chain()
                .in_set(AppSystems::RecordInput)
                .before(SelectionSystems),
        )
        .add_systems(
            Update,
            (
                follow_the_board,
                judge_moves,
                take_judgements,
                take_server_ratings,
                go_back_after_a_miss,
                keep_the_review,
                guide_moves,
            )
                .chain()
                .in_set(AppSystems::SyncView),
        );
}

/// What the learner asks of the practice (the report's button, the card's).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeCommand {
    /// Start with the first mistake of the reviewed game on the board.
    Start,
    /// Mark the stone the best move moves.
    Hint,
    /// Play the best move out on the board.
    Solution,
    /// Go on to the next mistake or puzzle (or to the end).
    Next,
    /// Leave: the reviewed game comes back.
    Leave,
}

/// A question on the board: a mistake asked again, or a puzzle.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// The move of the game it comes from (1 for the game's first).
    pub ply: usize,
    /// The kingdom to move.
    pub kingdom: Kingdom,
    /// What it comes from.
    pub origin: Origin,
    /// The engine's best move (a puzzle's solution).
    pub best: Move,
    /// The mover's chance after it.
    pub best_chance: f64,
    /// The game up to the position before the mistake (a puzzle's position).
    pub before: Game,
}

/// Where a question comes from.
#[derive(Clone, Debug)]
pub enum Origin {
    /// A mistake of the reviewed game's.
    Mistake {
        /// What the review called it.
        kind: MistakeKind,
        /// The move played.
        played: Move,
        /// The mover's chance after it (0 to 1).
        played_chance: f64,
    },
    /// A puzzle: only its solution counts.
    Puzzle {
        /// The puzzle.
        puzzle: Box<Puzzle>,
        /// It is the day's puzzle.
        daily: bool,
        /// It is a server's, rated there.
        server: bool,
    },
}

impl Exercise {
    /// The move played in the game (a mistake's).
    pub fn played(&self) -> Option<Move> {
        match self.origin {
            Origin::Mistake { played, .. } => Some(played),
            Origin::Puzzle { .. } => None,
        }
    }

    /// The puzzle asked (a puzzle's).
    pub fn puzzle(&self) -> Option<&Puzzle> {
        match &self.origin {
            Origin::Puzzle { puzzle, .. } => Some(puzzle),
            Origin::Mistake { .. } => None,
        }
    }

    /// Whether it is a server's puzzle (rated there).
    pub fn from_server(&self) -> bool {
        matches!(self.origin, Origin::Puzzle { server: true, .. })
    }

    /// A puzzle's question: its position, the mover to move, its solution the answer.
    pub fn of_puzzle(puzzle: &Puzzle, daily: bool, server: bool) -> Option<Exercise> {
        let before = crate::puzzles::game_of(puzzle)
            .inspect_err(|e| warn!("{e}"))
            .ok()?;
        Some(Exercise {
            ply: puzzle.ply,
            kingdom: puzzle.mover,
            origin: Origin::Puzzle {
                puzzle: Box::new(puzzle.clone()),
                daily,
                server,
            },
            best: puzzle.solution,
            best_chance: puzzle.chance,
            before,
        })
    }
}

/// Where the question stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The learner is to move.
    Asking,
    /// The move tried is being judged.
    Judging(Move),
    /// The move tried keeps the mover's chance (0 to 1) within the margin of the best.
    Found(Move, f64),
    /// The move tried falls short (its chance, if it could be judged): it is taken back once
    /// shown.
    Missed(Move, Option<f64>),
    /// The best move was played out for the learner.
    Solved,
    /// Every mistake (or puzzle) has been asked.
    Finished,
}

/// The practice under way, if any.
#[derive(Resource, Default)]
pub struct Practice {
    active: Option<Active>,
}

struct Active {
    exercises: Vec<Exercise>,
    at: usize,
    step: Step,
    /// The last move that fell short in this question, and its chance: the card says so while
    /// the learner tries again.
    missed: Option<(Move, Option<f64>)>,
    /// The hint is shown.
    hinted: bool,
    /// The questions answered with a good move (before or without the solution), by number.
    found: Vec<bool>,
    /// The move tried has landed on the board.
    shown: bool,
    /// A game was asked of the rules system and has not replaced the match yet.
    asked: bool,
    judging: Option<judge::Judging>,
    /// The puzzles to go on with (none for mistakes).
    pool: Vec<&'static Puzzle>,
    /// The first try at the puzzle asked moved the solver's rating: shown, before and after.
    rated: Option<(i64, i64)>,
    /// The first try at the puzzle asked was made (its rating may still be on its way from a
    /// server).
    tried: bool,
    /// The player's puzzle rating on the server whose puzzle is asked, as shown.
    server_solver: Option<i64>,
    kept: Kept,
}

/// The game brought back on leaving (with its review, for mistakes).
struct Kept {
    game: Game,
    players: Vec<PlayerInfo>,
    hints: [u32; 7],
    review: Option<Arc<GameReview>>,
    /// It has been asked back: its review is put back once it is on the board.
    returning: bool,
}

impl Kept {
    /// The game on the board (with its review, for mistakes).
    fn of_the_board(the_match: &Match, review: Option<Arc<GameReview>>) -> Kept {
        Kept {
            game: the_match.game().clone(),
            players: the_match.players().to_vec(),
            hints: std::array::from_fn(|i| the_match.hints_used(Kingdom::ALL[i])),
            review,
            returning: false,
        }
    }

    /// A game another set aside (a lesson's).
    fn of_aside(aside: &NewGameRequested) -> Kept {
        Kept {
            game: aside.game.clone(),
            players: aside.players.clone(),
            hints: aside.hints,
            review: None,
            returning: false,
        }
    }
}

impl Active {
    /// A practice of `exercises`, the first not asked yet, bringing `kept` back on leaving.
    fn new(exercises: Vec<Exercise>, kept: Kept) -> Active {
        Active {
            found: vec![false; exercises.len()],
            exercises,
            at: 0,
            step: Step::Asking,
            missed: None,
            hinted: false,
            shown: false,
            asked: false,
            judging: None,
            pool: Vec::new(),
            rated: None,
            tried: false,
            server_solver: None,
            kept,
        }
    }
}

impl Practice {
    /// Whether a practice is on the board.
    pub fn is_active(&self) -> bool {
        self.active.as_ref().is_some_and(|a| !a.kept.returning)
    }

    /// The question on the board: its exercise, its number and how many there are.
    pub fn current(&self) -> Option<(&Exercise, usize, usize)> {
        let a = self.active.as_ref().filter(|a| !a.kept.returning)?;
        Some((a.exercises.get(a.at)?, a.at, a.exercises.len()))
    }

    /// Where the question stands.
    pub fn step(&self) -> Option<Step> {
        self.active.as_ref().map(|a| a.step)
    }

    /// The last move that fell short in this question (and its chance), while the learner
    /// tries again.
    pub fn missed(&self) -> Option<(Move, Option<f64>)> {
        self.active.as_ref()?.missed
    }

    /// The first try at the puzzle asked, as it moved the solver's rating (shown, before and
    /// after).
    pub fn rated(&self) -> Option<(i64, i64)> {
        self.active.as_ref()?.rated
    }

    /// Whether puzzles are asked (else mistakes).
    pub fn puzzles(&self) -> bool {
        self.current()
            .is_some_and(|(e, _, _)| matches!(e.origin, Origin::Puzzle { .. }))
    }

    /// Whether another question follows this one (a server always has another puzzle).
    pub fn more(&self) -> bool {
        self.active.as_ref().is_some_and(|a| {
            a.at + 1 < a.exercises.len()
                || next_puzzle(&a.pool, &a.exercises).is_some()
                || a.exercises.get(a.at).is_some_and(Exercise::from_server)
        })
    }

    /// The player's puzzle rating on the server whose puzzle is asked, as shown (`None` for
    /// the game's own puzzles, rated here).
    pub fn server_solver(&self) -> Option<i64> {
        self.active.as_ref()?.server_solver
    }

    /// Whether the hint is shown.
    pub fn hinted(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.hinted)
    }

    /// Questions answered with a good move, and asked, so far.
    pub fn score(&self) -> (usize, usize) {
        self.active.as_ref().map_or((0, 0), |a| {
            let asked = a.at + usize::from(a.step != Step::Asking);
            let found = a.found.iter().filter(|&&f| f).count();
            (found, asked.min(a.exercises.len()))
        })
    }

    /// Whether the board waits for the learner's move (and a hint or the solution can be
    /// asked).
    pub fn asks(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| a.step == Step::Asking && !a.asked)
    }

    /// What the practice lets a click or typed move do: any legal move while it asks, none
    /// otherwise; unguided without a practice.
    fn guide(&self) -> Guide {
        match &self.active {
            Some(a) if !a.kept.returning => Guide {
                active: true,
                goals: self.asks().then(|| {
                    a.exercises
                        .get(a.at)
                        .map_or_else(Vec::new, |e| e.before.position().legal_moves())
                }),
                done: Some(BoardRefusal::ExerciseDone),
                tells_the_turn: true,
            },
            _ => Guide::default(),
        }
    }
}

/// The moves of `review` worth asking again: the people's (`people`) mistakes, blunders and
/// Generals let fall where a better move kept a mistake's worth more, one a move, in the order
/// of the game. Cheap (no position is replayed): the report counts them as it draws.
pub fn questions(
    review: &GameReview,
    people: impl Fn(Kingdom) -> bool,
) -> Vec<(MistakeKind, &MoveReview)> {
    let mut out: Vec<(MistakeKind, &MoveReview)> = review
        .mistakes
        .iter()
        .filter(|mistake| {
            matches!(
                mistake.kind,
                MistakeKind::Mistake | MistakeKind::Blunder | MistakeKind::Allowed
            ) && people(mistake.kingdom)
        })
        .filter_map(|mistake| {
            let m = review.moves.get(mistake.ply.checked_sub(1)?)?;
            let asked = m.mover == mistake.kingdom && m.best != m.played && m.loss() >= MISTAKE;
            asked.then_some((mistake.kind, m))
        })
        .collect();
    out.dedup_by_key(|(_, m)| m.ply);
    out
}

/// The exercises of `review` of `game`: its [`questions`], each with the game up to the
/// position before it.
pub fn exercises(
    review: &GameReview,
    game: &Game,
    people: impl Fn(Kingdom) -> bool,
) -> Vec<Exercise> {
    questions(review, people)
        .into_iter()
        .filter_map(|(kind, m)| {
            let mut before = Game::new(game.start_position().clone());
            game.moves()
                .take(m.ply - 1)
                .try_for_each(|mv| before.play(mv).map(drop))
                .ok()?;
            before.position().is_legal(m.best).then_some(Exercise {
                ply: m.ply,
                kingdom: m.mover,
                origin: Origin::Mistake {
                    kind,
                    played: m.played,
                    played_chance: m.played_chance,
                },
                best: m.best,
                best_chance: m.best_chance,
                before,
            })
        })
        .collect()
}

/// The players of an exercise, every one a person (nobody answers the move): a mistake's, the
/// reviewed game's names; a puzzle's, its kingdoms' names.
fn people(exercise: &Exercise, players: &[PlayerInfo], tr: Tr) -> Vec<PlayerInfo> {
    if exercise.puzzle().is_some() {
        let seats = exercise.before.position().seats();
        return (0..seats.player_count())
            .map(|n| PlayerInfo {
                name: seats
                    .kingdoms_of(n as u8)
                    .iter()
                    .next()
                    .map_or_else(String::new, |k| tr.kingdom(k)),
                computer: None,
            })
            .collect();
    }
    players
        .iter()
        .map(|p| PlayerInfo {
            name: p.name.clone(),
            computer: None,
        })
        .collect()
}

/// The puzzles of `pool` not asked yet in this run.
fn unasked<'a>(pool: &[&'a Puzzle], asked: &[Exercise]) -> Vec<&'a Puzzle> {
    pool.iter()
        .copied()
        .filter(|p| {
            !asked.iter().any(|e| {
                e.puzzle()
                    .is_some_and(|q| q.fen == p.fen && q.solution == p.solution)
            })
        })
        .collect()
}

/// Whether a puzzle of `pool` is left to ask after `asked`.
fn next_puzzle<'a>(pool: &[&'a Puzzle], asked: &[Exercise]) -> Option<&'a Puzzle> {
    unasked(pool, asked).first().copied()
}

/// Asks for the position of the current question, and says it.
fn ask(
    active: &mut Active,
    games: &mut MessageWriter<NewGameRequested>,
    said: &mut MessageWriter<Announced>,
    tr: Tr,
) {
    let Some(exercise) = active.exercises.get(active.at) else {
        return;
    };
    games.write(NewGameRequested {
        game: exercise.before.clone(),
        players: people(exercise, &active.kept.players, tr),
        hints: [0; 7],
    });
    active.asked = true;
    active.step = Step::Asking;
    active.missed = None;
    active.hinted = false;
    active.shown = false;
    active.judging = None;
    active.rated = None;
    active.tried = false;
    let heading = heading(exercise, active.at, active.exercises.len(), tr);
    // At once, as a person's turn is: it is the turn, which the board does not tell besides
    // (`Guide::tells_the_turn`).
    said.write(Announced {
        words: format!("{heading}. {}", question_words(exercise, tr)),
        urgent: true,
    });
}

/// The question's heading: which mistake of how many, or the puzzle's theme and rating.
pub(crate) fn heading(exercise: &Exercise, n: usize, total: usize, tr: Tr) -> String {
    match &exercise.origin {
        Origin::Mistake { .. } => tr!(tr, "practice-heading", n = n + 1, total = total),
        Origin::Puzzle { puzzle, daily, .. } => tr!(
            tr,
            if *daily {
                "puzzle-daily-heading"
            } else {
                "puzzle-heading"
            },
            theme = tr.text(theme_id(puzzle.theme)),
            rating = puzzle.rating
        ),
    }
}

/// The message id of a puzzle's theme.
pub(crate) fn theme_id(theme: crate::puzzles::Theme) -> &'static str {
    use crate::puzzles::Theme;
    match theme {
        Theme::GeneralHunt => "puzzle-theme-general-hunt",
        Theme::GeneralSaved => "puzzle-theme-general-saved",
        Theme::CannonScreen => "puzzle-theme-cannon-screen",
        Theme::KnightLeg => "puzzle-theme-knight-leg",
        Theme::DecisiveCapture => "puzzle-theme-decisive-capture",
        Theme::QuietMove => "puzzle-theme-quiet-move",
    }
}

/// The question, in words: who moves, what was played and what it was (a puzzle: who moves).
pub(crate) fn question_words(exercise: &Exercise, tr: Tr) -> String {
    match &exercise.origin {
        Origin::Mistake { kind, played, .. } => tr!(
            tr,
            "practice-question",
            kingdom = tr.kingdom(exercise.kingdom),
            ply = exercise.ply,
            played = played.to_string(),
            kind = tr.text(crate::game::ui::report::mistake_kind_id(*kind))
        ),
        Origin::Puzzle { .. } => tr!(
            tr,
            "puzzle-question",
            kingdom = tr.kingdom(exercise.kingdom)
        ),
    }
}

/// A chance as a whole per cent, as the card and the reader say it.
pub(crate) fn percent(chance: f64) -> String {
    format!("{:.0}", 100.0 * chance)
}

/// Asked at launch (`--practice`): the practice starts once the game's review is made, and a
/// screenshot waits for its first question.
#[derive(Resource, Debug, Default)]
pub struct PracticeAtLaunch {
    asked: bool,
}

/// Starts the practice asked at launch once the review is made; gives up where there is
/// nothing to practise (a game not over, no mistake of a person's).
fn start_at_launch(
    mut commands: Commands,
    wanted: Option<ResMut<PracticeAtLaunch>>,
    practice: Res<Practice>,
    reviewed: Res<Reviewed>,
    the_match: Res<Match>,
    mut out: MessageWriter<PracticeCommand>,
) {
    let Some(mut wanted) = wanted else {
        return;
    };
    if practice.asks() {
        commands.remove_resource::<PracticeAtLaunch>();
    } else if wanted.asked && !practice.is_active() {
        warn!("--practice: this game has no mistake of a person's to learn from");
        commands.remove_resource::<PracticeAtLaunch>();
    } else if !wanted.asked && reviewed.done_for(the_match.turn()).is_some() {
        out.write(PracticeCommand::Start);
        wanted.asked = true;
    } else if !the_match.position().is_over() {
        warn!("--practice: the game is not over, so not reviewed");
        commands.remove_resource::<PracticeAtLaunch>();
    }
}

#[allow(clippy::too_many_arguments)]
fn follow_commands(
    mut commands: MessageReader<PracticeCommand>,
    mut practice: ResMut<Practice>,
    the_match: Res<Match>,
    reviewed: Res<Reviewed>,
    seats: Res<SeatAuthority>,
    mut games: MessageWriter<NewGameRequested>,
    mut moves: MessageWriter<MoveRequested>,
    mut notices: MessageWriter<Notice>,
    mut said: MessageWriter<Announced>,
    mut solver: ResMut<PuzzleSolver>,
    mut to_server: MessageWriter<PuzzleTriedOnServer>,
    mut wanted: MessageWriter<ServerPuzzleWanted>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    for &command in commands.read() {
        match command {
            PracticeCommand::Start => {
                if practice.is_active() {
                    continue;
                }
                if seats.follows_server() {
                    notices.write(Notice::error_message("online-leave-first"));
                    continue;
                }
                let Some(review) = reviewed.done_for(the_match.turn()).cloned() else {
                    continue;
                };
                let game = the_match.game();
                let list = exercises(&review, game, |k| the_match.computer(k).is_none());
                if list.is_empty() {
                    notices.write(Notice::error_message("practice-none"));
                    continue;
                }
                info!("learning from {} mistakes", list.len());
                let kept = Kept::of_the_board(&the_match, Some(review));
                let mut active = Active::new(list, kept);
                ask(&mut active, &mut games, &mut said, tr);
                practice.active = Some(active);
            }
            PracticeCommand::Hint => {
                let asks = practice.asks();
                let Some(active) = practice.active.as_mut().filter(|_| asks) else {
                    continue;
                };
                active.hinted = true;
                first_try(active, &mut solver, &mut to_server, false, &mut said, tr);
                if let Some(e) = active.exercises.get(active.at)
                    && let Some(from) = e.best.from()
                    && let Some(piece) = e.before.position().piece_at(from)
                {
                    said.write(Announced {
                        words: tr!(
                            tr,
                            "practice-hint-text",
                            piece = tr.piece_in_text(piece.kind),
                            point = from.to_string()
                        ),
                        urgent: true,
                    });
                }
            }
            PracticeCommand::Solution => {
                let asks = practice.asks();
                let Some(active) = practice.active.as_mut().filter(|_| asks) else {
                    continue;
                };
                first_try(active, &mut solver, &mut to_server, false, &mut said, tr);
                let Some(e) = active.exercises.get(active.at) else {
                    continue;
                };
                moves.write(MoveRequested {
                    mv: e.best,
                    made_for: the_match.turn(),
                    by: Mover::Person,
                });
                said.write(Announced {
                    words: solution_words(e, tr),
                    urgent: true,
                });
                active.step = Step::Solved;
                active.hinted = false;
            }
            PracticeCommand::Next => {
                let Some(active) = practice.active.as_mut() else {
                    continue;
                };
                if active.kept.returning || matches!(active.step, Step::Judging(_)) {
                    continue;
                }
                if active
                    .exercises
                    .get(active.at)
                    .is_some_and(Exercise::from_server)
                {
                    // The server sends the next; it is asked as it comes.
                    wanted.write(ServerPuzzleWanted);
                    continue;
                }
                let puzzle = unasked(&active.pool, &active.exercises);
                let puzzle = solver
                    .0
                    .next(&puzzle)
                    .and_then(|p| Exercise::of_puzzle(p, false, false));
                if active.at + 1 < active.exercises.len() {
                    active.at += 1;
                    ask(active, &mut games, &mut said, tr);
                } else if let Some(exercise) = puzzle {
                    active.exercises.push(exercise);
                    active.found.push(false);
                    active.at += 1;
                    ask(active, &mut games, &mut said, tr);
                } else {
                    active.step = Step::Finished;
                    active.hinted = false;
                    said.write(Announced {
                        words: tr!(
                            tr,
                            "practice-finished",
                            found = active.found.iter().filter(|&&f| f).count(),
                            total = active.exercises.len()
                        ),
                        urgent: true,
                    });
                }
            }
            PracticeCommand::Leave => {
                if let Some(active) = practice.active.as_mut().filter(|a| !a.kept.returning) {
                    games.write(NewGameRequested {
                        game: active.kept.game.clone(),
                        players: active.kept.players.clone(),
                        hints: active.kept.hints,
                    });
                    active.kept.returning = true;
                    active.asked = true;
                    active.judging = None;
                }
            }
        }
    }
}

/// Puzzles asked for: the first asked at once, the game on the board (or the one set aside for
/// it) kept to come back. Refused while the board follows a server.
#[allow(clippy::too_many_arguments)]
fn start_puzzles(
    mut requests: MessageReader<PuzzlesRequested>,
    mut practice: ResMut<Practice>,
    the_match: Res<Match>,
    seats: Res<SeatAuthority>,
    solver: Res<PuzzleSolver>,
    mut games: MessageWriter<NewGameRequested>,
    mut notices: MessageWriter<Notice>,
    mut said: MessageWriter<Announced>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    for request in requests.read() {
        if seats.follows_server() {
            notices.write(Notice::error_message("online-leave-first"));
            continue;
        }
        let (exercise, pool, server_solver) = if let Some(given) = &request.given {
            let Some(exercise) = Exercise::of_puzzle(&given.puzzle, given.daily, true) else {
                notices.write(Notice::error_message("puzzle-unknown"));
                continue;
            };
            (exercise, Vec::new(), Some(given.solver))
        } else {
            let pool = puzzles::pool(&request.topics);
            let day = crate::puzzles::today();
            let first = match puzzles::first_of(request.first.as_ref(), &pool, &solver.0, day) {
                Ok(Some(first)) => first,
                Ok(None) => {
                    notices.write(Notice::error_message("puzzle-none"));
                    continue;
                }
                Err(asked) => {
                    warn!("no puzzle asked for ({asked:?}) is among the game's");
                    notices.write(Notice::error_message("puzzle-unknown"));
                    continue;
                }
            };
            let daily = request.first == Some(crate::puzzles::Asked::Daily);
            let Some(exercise) = Exercise::of_puzzle(first, daily, false) else {
                continue;
            };
            (exercise, pool, None)
        };
        if let Some(p) = exercise.puzzle() {
            info!("puzzle {} ({})", p.id(), p.theme.name());
        }
        // Already practising: the game kept stays the one to come back to.
        let kept = match practice.active.take().filter(|a| !a.kept.returning) {
            Some(active) => active.kept,
            None => request
                .aside
                .as_ref()
                .map_or_else(|| Kept::of_the_board(&the_match, None), Kept::of_aside),
        };
        let mut active = Active::new(vec![exercise], kept);
        active.pool = pool;
        active.server_solver = server_solver;
        ask(&mut active, &mut games, &mut said, tr);
        // A puzzle the server says was tried before moves no rating.
        if request.given.as_ref().is_some_and(|g| g.tried) {
            active.tried = true;
        }
        practice.active = Some(active);
    }
}

/// The first try at the puzzle asked (`solved` or not): the solver's rating moves, once a
/// puzzle, and the card and the reader say how; a server's puzzle is rated by its server (the
/// answer comes back as [`PuzzleRatedOnServer`]).
fn first_try(
    active: &mut Active,
    solver: &mut PuzzleSolver,
    to_server: &mut MessageWriter<PuzzleTriedOnServer>,
    solved: bool,
    said: &mut MessageWriter<Announced>,
    tr: Tr,
) {
    if std::mem::replace(&mut active.tried, true) {
        return;
    }
    let Some(exercise) = active.exercises.get(active.at) else {
        return;
    };
    let Some(puzzle) = exercise.puzzle() else {
        return;
    };
    if exercise.from_server() {
        to_server.write(PuzzleTriedOnServer {
            id: puzzle.id(),
            solved,
        });
        return;
    }
    let (before, after) = puzzles::shown(solver.0.first_try(puzzle, solved));
    active.rated = Some((before, after));
    said.write(Announced {
        words: rating_words((before, after), tr),
        urgent: false,
    });
}

/// The server's rating of a first try at its puzzle on the board: shown and said.
fn take_server_ratings(
    mut rated: MessageReader<PuzzleRatedOnServer>,
    mut practice: ResMut<Practice>,
    mut said: MessageWriter<Announced>,
    tr: Res<Tr>,
) {
    for came in rated.read() {
        let Some(active) = practice.active.as_mut() else {
            continue;
        };
        let on_board = active
            .exercises
            .get(active.at)
            .and_then(Exercise::puzzle)
            .is_some_and(|p| p.id() == came.id);
        if !on_board {
            continue;
        }
        active.rated = Some((came.before, came.after));
        active.server_solver = Some(came.after);
        said.write(Announced {
            words: rating_words((came.before, came.after), *tr),
            urgent: false,
        });
    }
}

/// What is said of the solver's rating after a first try.
pub(crate) fn rating_words((before, after): (i64, i64), tr: Tr) -> String {
    if before == after {
        tr!(tr, "puzzle-rating-kept", rating = after)
    } else {
        tr!(tr, "puzzle-rating-moved", before = before, after = after)
    }
}

/// What is said as the solution is played out.
pub(crate) fn solution_words(exercise: &Exercise, tr: Tr) -> String {
    match exercise.origin {
        Origin::Mistake { .. } => tr!(
            tr,
            "practice-solution-text",
            best = exercise.best.to_string(),
            chance = percent(exercise.best_chance)
        ),
        Origin::Puzzle { .. } => tr!(tr, "puzzle-solution-text", best = exercise.best.to_string()),
    }
}

/// Keeps the board's guide as the practice stands (without a practice, a lesson's guide is the
/// lesson's to keep).
fn guide_moves(practice: Res<Practice>, mut guide: ResMut<Guide>) {
    let ours = practice.active.is_some() || guide.done == Some(BoardRefusal::ExerciseDone);
    if practice.is_changed() && ours {
        guide.set_if_neq(practice.guide());
    }
}

/// The board changed under the practice: the game it asked for has come (the question stands);
/// a game it did not ask for (a new, loaded or joined one, or a lesson) ends it, that game
/// staying; a move taken back asks the question again.
fn follow_the_board(
    mut resets: MessageReader<MatchReset>,
    mut applied: MessageReader<MoveApplied>,
    the_match: Res<Match>,
    mut practice: ResMut<Practice>,
    mut games: MessageWriter<NewGameRequested>,
    mut said: MessageWriter<Announced>,
    tr: Res<Tr>,
) {
    let reset = resets.read().count() > 0;
    let moved = applied.read().count() > 0;
    // (Checked before `as_mut`, which would mark the practice changed every frame.)
    if practice.active.is_none() || !(reset || the_match.is_changed()) {
        return;
    }
    let Some(active) = practice.active.as_mut() else {
        return;
    };
    if reset {
        if !std::mem::take(&mut active.asked) && !active.kept.returning {
            info!("another game took the board: the practice ends");
            practice.active = None;
        }
        return;
    }
    if moved || active.asked || active.kept.returning {
        return;
    }
    // A move taken back, or played again.
    ask(active, &mut games, &mut said, *tr);
}

/// The learner's move, while the question stands: the best is found, the mistake again is
/// missed (both said at once), any other is judged.
fn judge_moves(
    mut applied: MessageReader<MoveApplied>,
    mut practice: ResMut<Practice>,
    waker: Option<Res<Waker>>,
    mut solver: ResMut<PuzzleSolver>,
    mut to_server: MessageWriter<PuzzleTriedOnServer>,
    mut said: MessageWriter<Announced>,
    tr: Res<Tr>,
) {
    for move_applied in applied.read() {
        let asks = practice.asks();
        let Some(active) = practice.active.as_mut().filter(|_| asks) else {
            continue;
        };
        if move_applied.by != Mover::Person {
            continue;
        }
        let Some(e) = active.exercises.get(active.at) else {
            continue;
        };
        let mv = move_applied.report.mv;
        active.shown = false;
        active.hinted = false;
        let best_chance = e.best_chance;
        if e.puzzle().is_some() {
            // A puzzle's one move: any other misses (nothing to judge).
            let solved = mv == e.best;
            let step = if solved {
                Step::Found(mv, best_chance)
            } else {
                Step::Missed(mv, None)
            };
            settle(active, step, &mut said, *tr);
            first_try(active, &mut solver, &mut to_server, solved, &mut said, *tr);
        } else if mv == e.best {
            settle(active, Step::Found(mv, best_chance), &mut said, *tr);
        } else if let Origin::Mistake {
            played,
            played_chance,
            ..
        } = e.origin
            && mv == played
        {
            settle(
                active,
                Step::Missed(mv, Some(played_chance)),
                &mut said,
                *tr,
            );
        } else {
            active.judging = Some(judge::Judging::start(
                &e.before,
                mv,
                waker.as_ref().map(|w| w.as_fn()),
            ));
            active.step = Step::Judging(mv);
        }
    }
}

/// A judgement come back: the move tried is found or missed.
fn take_judgements(
    mut practice: ResMut<Practice>,
    mut said: MessageWriter<Announced>,
    tr: Res<Tr>,
) {
    // (Looked at without `as_mut` first: most frames there is nothing to take.)
    if practice.active.as_ref().is_none_or(|a| a.judging.is_none()) {
        return;
    }
    let Some(active) = practice.active.as_mut() else {
        return;
    };
    let (Step::Judging(mv), Some(judging)) = (active.step, active.judging.as_mut()) else {
        active.judging = None;
        return;
    };
    let Some(judged) = judging.take() else {
        return;
    };
    active.judging = None;
    let best = active
        .exercises
        .get(active.at)
        .map_or(0.0, |e| e.best_chance);
    let step = match judged {
        Ok(chance) if chance >= best - GOOD_ENOUGH => Step::Found(mv, chance),
        Ok(chance) => Step::Missed(mv, Some(chance)),
        Err(why) => {
            warn!("{mv} could not be judged: {why}");
            Step::Missed(mv, None)
        }
    };
    settle(active, step, &mut said, *tr);
}

/// The move tried is judged (`step`, found or missed): noted, counted and said.
fn settle(active: &mut Active, step: Step, said: &mut MessageWriter<Announced>, tr: Tr) {
    active.step = step;
    if let (Step::Found(..), Some(found)) = (step, active.found.get_mut(active.at)) {
        *found = true;
    }
    if let Some(e) = active.exercises.get(active.at)
        && let Some(words) = judged_words(step, e, tr)
    {
        said.write(Announced {
            words,
            urgent: true,
        });
    }
}

/// What is said of a move judged (`step`) in `exercise`.
pub(crate) fn judged_words(step: Step, exercise: &Exercise, tr: Tr) -> Option<String> {
    if exercise.puzzle().is_some() {
        return Some(match step {
            Step::Found(mv, _) => tr!(tr, "puzzle-found", mv = mv.to_string()),
            Step::Missed(mv, _) => tr!(tr, "puzzle-missed", mv = mv.to_string()),
            _ => return None,
        });
    }
    Some(match step {
        Step::Found(mv, chance) if mv == exercise.best => tr!(
            tr,
            "practice-found-best",
            mv = mv.to_string(),
            chance = percent(chance)
        ),
        Step::Found(mv, chance) => tr!(
            tr,
            "practice-found",
            mv = mv.to_string(),
            chance = percent(chance),
            best = exercise.best.to_string(),
            best_chance = percent(exercise.best_chance)
        ),
        Step::Missed(mv, Some(chance)) => tr!(
            tr,
            "practice-missed",
            mv = mv.to_string(),
            chance = percent(chance),
            best_chance = percent(exercise.best_chance)
        ),
        Step::Missed(mv, None) => tr!(tr, "practice-unjudged", mv = mv.to_string()),
        _ => return None,
    })
}

/// A move found wanting is taken back once it has been shown (and judged): the question is
/// asked again, the miss kept for the card.
fn go_back_after_a_miss(
    mut shown: MessageReader<MoveShown>,
    mut practice: ResMut<Practice>,
    mut games: MessageWriter<NewGameRequested>,
    tr: Res<Tr>,
) {
    let landed = shown.read().count() > 0;
    let Some(active) = practice.active.as_ref() else {
        return;
    };
    let waiting = matches!(active.step, Step::Judging(_) | Step::Missed(..));
    if !(waiting && (landed || active.shown)) {
        return;
    }
    let Some(active) = practice.active.as_mut() else {
        return;
    };
    active.shown = true;
    let Step::Missed(mv, chance) = active.step else {
        return;
    };
    let Some(e) = active.exercises.get(active.at) else {
        return;
    };
    games.write(NewGameRequested {
        game: e.before.clone(),
        players: people(e, &active.kept.players, *tr),
        hints: [0; 7],
    });
    active.asked = true;
    active.step = Step::Asking;
    active.missed = Some((mv, chance));
    active.shown = false;
}

/// While a practice is on the board its games are not reviewed; once the reviewed game is back,
/// so is its review, and the practice ends.
fn keep_the_review(
    mut practice: ResMut<Practice>,
    mut reviewed: ResMut<Reviewed>,
    the_match: Res<Match>,
) {
    let active = practice.is_active();
    if reviewed.held != active {
        reviewed.held = active;
    }
    let back = practice
        .active
        .as_ref()
        .is_some_and(|a| a.kept.returning && !a.asked);
    if !back {
        return;
    }
    if let Some(review) = practice.active.take().and_then(|a| a.kept.review) {
        reviewed.set(
            the_match.turn(),
            crate::game::review::ReviewShown::Done(review),
        );
    }
}
