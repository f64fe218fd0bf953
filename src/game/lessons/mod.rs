//! Lessons on the board: the lesson runner. A lesson's steps are games the rules system is
//! asked to start (`NewGameRequested`, as a loaded game is); the board then takes only the
//! step's goal moves from the learner, answers any other with the game's own refusal and the
//! lesson's word on it, and once a goal move has been shown starts the next step. Leaving a
//! lesson brings back the game that was on the board. Finished lessons are remembered (the
//! settings keep them). The lessons themselves are data: [`crate::lessons`].

pub(crate) mod ui;
pub(crate) mod view;

use std::collections::BTreeSet;

use bevy::prelude::*;
use qiguo_rules::{Game, PlayerInfo, Point};

use crate::game::practice::puzzles::PuzzlesRequested;
use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::selection::{ClickRefused, Guide, SelectionSystems};
use crate::game::state::{
    BoardRefusal, Match, MatchReset, MoveApplied, MoveRejected, MoveShown, Mover, NewGameRequested,
    Notice, SeatAuthority,
};
use crate::i18n::Tr;
use crate::lessons::{self, Lesson};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LessonRun>()
        .init_resource::<LessonsDone>()
        .keep_setting::<LessonsDone>()
        .add_message::<LessonCommand>()
        .add_systems(
            Update,
            (follow_commands, go_on_once_shown, guide_clicks)
                .chain()
                .in_set(AppSystems::RecordInput)
                .before(SelectionSystems),
        )
        .add_systems(
            Update,
            (
                follow_the_board,
                judge_moves,
                hear_refusals,
                place_marks,
                guide_clicks,
            )
                .chain()
                .in_set(AppSystems::SyncView),
        );
}

/// What the learner (or the lesson card) asks of the lessons.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonCommand {
    /// Start lesson `n` (in [`lessons::all`]'s order), keeping the game on the board aside.
    Open(usize),
    /// Start the current step again.
    Retry,
    /// Go on to the next step (or the next lesson) without doing this one.
    Skip,
    /// Start the next lesson.
    Next,
    /// Leave the lessons: the game kept aside comes back.
    Leave,
    /// Leave for puzzles (the practice's): the game kept aside comes back after them.
    Puzzles(PuzzlesFor),
}

/// Which puzzles the Learn window or a lesson's card asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzlesFor {
    /// The day's puzzle, then any.
    Daily,
    /// Any, the nearest the solver's rating first.
    Anyone,
    /// Lesson `n`'s (its topics').
    Lesson(usize),
}

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepState {
    /// The learner is to make one of the goal moves.
    Waiting,
    /// A goal move was played and is being shown; the next step follows.
    Done,
    /// The lesson's last step is done.
    Finished,
}

/// A wrong move and the answer it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The game's own refusal.
    pub reason: BoardRefusal,
    /// The lesson's word on this move, a message id, if it has one.
    pub why: Option<String>,
}

/// The game on the board before the lessons, brought back on leaving them.
#[derive(Clone, Debug)]
struct KeptGame {
    game: Game,
    players: Vec<PlayerInfo>,
    hints: [u32; 7],
}

/// The lesson under way, if any.
#[derive(Resource, Default, Debug)]
pub struct LessonRun {
    active: Option<Active>,
}

#[derive(Debug)]
struct Active {
    lesson: usize,
    step: usize,
    state: StepState,
    /// The message id said about the step just done.
    praise: Option<String>,
    answer: Option<Answer>,
    kept: KeptGame,
    /// A game was asked of the rules system for this lesson and has not replaced the match yet.
    asked: bool,
}

impl LessonRun {
    /// Whether a lesson is on the board.
    pub fn is_active(&self) -> bool {
        self.active.is_some()
    }

    /// The lesson on the board, its number and the step's.
    pub fn current(&self) -> Option<(usize, &'static Lesson, usize)> {
        let active = self.active.as_ref()?;
        Some((
            active.lesson,
            lessons::all().get(active.lesson)?,
            active.step,
        ))
    }

    /// Where the step stands.
    pub fn state(&self) -> Option<StepState> {
        self.active.as_ref().map(|a| a.state)
    }

    /// The answer to the last wrong move in this step.
    pub fn answer(&self) -> Option<&Answer> {
        self.active.as_ref()?.answer.as_ref()
    }

    /// What was said about the step just done.
    pub fn praise(&self) -> Option<&str> {
        self.active.as_ref()?.praise.as_deref()
    }

    /// What the lesson lets a click or typed move do now: the step's goal moves while it
    /// waits, none once it is done; unguided without a lesson.
    pub fn guide(&self) -> Guide {
        let Some(active) = self.active.as_ref() else {
            return Guide::default();
        };
        let goals = match active.state {
            StepState::Waiting => lessons::all()
                .get(active.lesson)
                .and_then(|l| l.steps.get(active.step))
                .map(|step| step.goal.clone()),
            StepState::Done | StepState::Finished => None,
        };
        Guide {
            active: true,
            goals,
            done: None,
            tells_the_turn: false,
        }
    }
}

/// Keeps the clicks' guide as the lesson stands (without a lesson, a guide of the practice's
/// is the practice's to keep).
fn guide_clicks(run: Res<LessonRun>, mut guide: ResMut<Guide>) {
    if run.is_changed() && (run.is_active() || guide.done.is_none()) {
        guide.set_if_neq(run.guide());
    }
}

/// The lessons the player has finished, by id (kept in the settings).
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct LessonsDone(pub BTreeSet<String>);

impl KeptSetting for LessonsDone {
    fn apply(&mut self, prefs: &Preferences) {
        self.0 = prefs.settings.lessons_done.iter().cloned().collect();
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.lessons_done = self.0.iter().cloned().collect();
    }
}

/// A marked point of the lesson's step on the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonMark {
    /// The point.
    pub point: Point,
    /// Whether a stone to move stands there (rather than a point to reach).
    pub origin: bool,
}

/// The players of a lesson's games, named in the interface's language: the learner "You", the
/// others after their first kingdom.
fn players(lesson: &Lesson, tr: Tr) -> Vec<PlayerInfo> {
    let seats = lesson.seats;
    let mut players = lesson.players();
    for (n, player) in players.iter_mut().enumerate() {
        let kingdoms = seats.kingdoms_of(n as u8);
        player.name = if kingdoms.contains(lessons::LEARNER) {
            tr.text("lesson-you")
        } else if let Some(first) = kingdoms.iter().next() {
            tr.kingdom(first)
        } else {
            continue;
        };
    }
    players
}

/// Asks the rules system for `game`, step `step` of `lesson` (or says why it cannot be made).
/// Returns whether it was asked for.
fn request_step(
    lesson: &Lesson,
    step: usize,
    game: Result<Game, lessons::StepError>,
    games: &mut MessageWriter<NewGameRequested>,
    tr: Tr,
) -> bool {
    match game {
        Ok(game) => {
            games.write(NewGameRequested {
                game,
                players: players(lesson, tr),
                hints: [0; 7],
            });
            true
        }
        Err(why) => {
            // Every lesson is checked when it is read: this is not expected.
            error!("lesson {} step {}: {why}", lesson.id, step + 1);
            false
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn follow_commands(
    mut commands: MessageReader<LessonCommand>,
    mut run: ResMut<LessonRun>,
    the_match: Res<Match>,
    seats: Res<SeatAuthority>,
    mut games: MessageWriter<NewGameRequested>,
    mut puzzles: MessageWriter<PuzzlesRequested>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let all = lessons::all();
    for &command in commands.read() {
        if let LessonCommand::Puzzles(which) = command {
            let (first, topics) = match which {
                PuzzlesFor::Daily => (Some(crate::puzzles::Asked::Daily), Vec::new()),
                PuzzlesFor::Anyone => (None, Vec::new()),
                PuzzlesFor::Lesson(n) => (
                    None,
                    all.get(n).map_or_else(Vec::new, |l| l.puzzles.clone()),
                ),
            };
            // The game the lesson set aside comes back after the puzzles.
            let aside = run.active.take().map(|a| NewGameRequested {
                game: a.kept.game,
                players: a.kept.players,
                hints: a.kept.hints,
            });
            puzzles.write(PuzzlesRequested {
                first,
                topics,
                aside,
                given: None,
            });
            continue;
        }
        let (lesson, step) = match (command, run.active.as_mut()) {
            (LessonCommand::Open(n), _) => (n, 0),
            (LessonCommand::Leave, Some(_)) => {
                bring_back(&mut run, &mut games);
                continue;
            }
            (LessonCommand::Retry, Some(a)) => (a.lesson, a.step),
            (LessonCommand::Skip, Some(a)) if a.step + 1 < all[a.lesson].steps.len() => {
                (a.lesson, a.step + 1)
            }
            // (A finished lesson was remembered as it finished.)
            (LessonCommand::Skip | LessonCommand::Next, Some(a)) => (a.lesson + 1, 0),
            (LessonCommand::Puzzles(_), _) | (_, None) => continue,
        };
        let Some(chosen) = all.get(lesson) else {
            // Past the last lesson: back to the game.
            bring_back(&mut run, &mut games);
            continue;
        };
        if seats.follows_server() {
            notices.write(Notice::error_message("online-leave-first"));
            continue;
        }
        if !request_step(chosen, step, chosen.start_of(step), &mut games, *tr) {
            continue;
        }
        let kept = match run.active.take() {
            Some(active) => active.kept,
            None => KeptGame {
                game: the_match.game().clone(),
                players: the_match.players().to_vec(),
                hints: std::array::from_fn(|i| the_match.hints_used(qiguo_rules::Kingdom::ALL[i])),
            },
        };
        run.active = Some(Active {
            lesson,
            step,
            state: StepState::Waiting,
            praise: None,
            answer: None,
            kept,
            asked: true,
        });
    }
}

/// Ends the lesson under way, asking for the game kept aside to come back.
fn bring_back(run: &mut LessonRun, games: &mut MessageWriter<NewGameRequested>) {
    if let Some(active) = run.active.take() {
        games.write(NewGameRequested {
            game: active.kept.game,
            players: active.kept.players,
            hints: active.kept.hints,
        });
    }
}

/// A goal move played by the learner ends the step.
fn judge_moves(mut applied: MessageReader<MoveApplied>, mut run: ResMut<LessonRun>) {
    // (Without a lesson the run is not touched: a change to it resets the board's guide.)
    if !run.is_active() {
        applied.clear();
        return;
    }
    for move_applied in applied.read() {
        let Some(active) = run.active.as_mut() else {
            continue;
        };
        let Some(lesson) = lessons::all().get(active.lesson) else {
            continue;
        };
        let step = &lesson.steps[active.step];
        if move_applied.by == Mover::Person
            && active.state == StepState::Waiting
            && step.goal.contains(&move_applied.report.mv)
        {
            active.state = StepState::Done;
            active.praise = Some(step.done.clone());
            active.answer = None;
        }
    }
}

/// Once a goal move has been shown, the next step starts (on the board it left, when the step
/// has no pieces of its own); after the last, the lesson is finished and remembered.
fn go_on_once_shown(
    mut shown: MessageReader<MoveShown>,
    mut run: ResMut<LessonRun>,
    mut done: ResMut<LessonsDone>,
    the_match: Res<Match>,
    mut games: MessageWriter<NewGameRequested>,
    tr: Res<Tr>,
) {
    if shown.read().count() == 0 {
        return;
    }
    let Some(active) = run.active.as_mut() else {
        return;
    };
    if active.state != StepState::Done {
        return;
    }
    let Some(lesson) = lessons::all().get(active.lesson) else {
        return;
    };
    let next = active.step + 1;
    if next < lesson.steps.len() {
        let game = lesson.step_game(next, Some(the_match.game()));
        if request_step(lesson, next, game, &mut games, *tr) {
            active.step = next;
            active.state = StepState::Waiting;
            active.asked = true;
        }
        return;
    }
    active.state = StepState::Finished;
    done.0.insert(lesson.id.clone());
    // The board stays as the last move left it, the learner's side still facing them: the
    // turn comes back to Qin unless the game is over.
    if !the_match.position().is_over()
        && let Ok(game) = lessons::settled(the_match.game())
    {
        games.write(NewGameRequested {
            game,
            players: the_match.players().to_vec(),
            hints: [0; 7],
        });
        active.asked = true;
    }
}

/// The board changed under the lesson. A game it did not ask for (a new, loaded or resumed
/// game, or one joined) ends the lesson, that game staying; a move taken back or played again
/// starts the step again, as *Retry* does.
#[allow(clippy::too_many_arguments)]
fn follow_the_board(
    mut resets: MessageReader<MatchReset>,
    mut applied: MessageReader<MoveApplied>,
    the_match: Res<Match>,
    mut run: ResMut<LessonRun>,
    mut games: MessageWriter<NewGameRequested>,
    tr: Res<Tr>,
) {
    let reset = resets.read().count() > 0;
    let moved = applied.read().count() > 0;
    // (Checked before `as_mut`, which would mark the run changed every frame.)
    if !run.is_active() || !(reset || the_match.is_changed()) {
        return;
    }
    let Some(active) = run.active.as_mut() else {
        return;
    };
    if reset {
        if !std::mem::take(&mut active.asked) {
            info!("another game took the board: the lesson ends");
            run.active = None;
        }
        return;
    }
    if !the_match.is_changed() || moved || active.asked {
        return;
    }
    // Undo or redo.
    let Some(lesson) = lessons::all().get(active.lesson) else {
        return;
    };
    let step = active.step;
    if request_step(lesson, step, lesson.start_of(step), &mut games, *tr) {
        active.state = StepState::Waiting;
        active.praise = None;
        active.answer = None;
        active.asked = true;
    }
}

/// A refused move or click in a step under way is answered: the game's reason, and the
/// lesson's word on that move if it has one.
fn hear_refusals(
    mut clicks: MessageReader<ClickRefused>,
    mut moves: MessageReader<MoveRejected>,
    mut run: ResMut<LessonRun>,
) {
    let reasons: Vec<BoardRefusal> = clicks
        .read()
        .map(|c| c.reason.clone())
        .chain(moves.read().map(|m| m.reason.clone()))
        .filter(BoardRefusal::is_shown)
        .collect();
    // Once the step is done the card says what comes next; the status line says why not.
    if reasons.is_empty() || run.state() != Some(StepState::Waiting) {
        return;
    }
    let Some(active) = run
        .active
        .as_mut()
        .filter(|a| a.state == StepState::Waiting)
    else {
        return;
    };
    let Some(lesson) = lessons::all().get(active.lesson) else {
        return;
    };
    let step = &lesson.steps[active.step];
    for reason in reasons {
        let mv = match &reason {
            BoardRefusal::OffLesson(mv) => Some(*mv),
            BoardRefusal::Illegal(qiguo_rules::IllegalMove::Unreachable { mv, .. }) => Some(*mv),
            _ => None,
        };
        active.answer = Some(Answer {
            why: mv.and_then(|mv| step.why(mv)).map(str::to_owned),
            reason,
        });
    }
}

/// The step's marks on the board: the stones to move and the points to reach, while the step
/// waits for its move.
fn place_marks(mut commands: Commands, run: Res<LessonRun>, marks: Query<(Entity, &LessonMark)>) {
    if !run.is_changed() {
        return;
    }
    let wanted: Vec<LessonMark> = match (run.current(), run.state()) {
        (Some((_, lesson, step)), Some(StepState::Waiting)) => {
            let (from, to) = lesson.steps[step].marks();
            from.into_iter()
                .map(|point| LessonMark {
                    point,
                    origin: true,
                })
                .chain(to.into_iter().map(|point| LessonMark {
                    point,
                    origin: false,
                }))
                .collect()
        }
        _ => Vec::new(),
    };
    let present: Vec<LessonMark> = marks.iter().map(|(_, m)| *m).collect();
    if present == wanted {
        return;
    }
    for (entity, _) in &marks {
        commands.entity(entity).despawn();
    }
    for mark in wanted {
        commands.spawn((
            mark,
            Transform::from_translation(crate::game::layout::point_position(mark.point)),
            Name::new(format!("lesson mark {}", mark.point)),
        ));
    }
}
