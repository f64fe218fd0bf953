//! The lessons that teach the game by doing: their files, read and checked.
//!
//! A lesson is a file in `assets/lessons/` (RON, built into the binary), not code: its title
//! and texts are Fluent message ids, and each of its steps is a position on the board, the
//! moves that fulfil it, and the wrong moves worth a word of their own:
//!
//! ```text
//! Lesson(
//!     id: "knight",
//!     title: "lesson-knight",
//!     steps: [
//!         Step(
//!             pieces: ["wN e6", "rQ f1"],      // or none: go on from the last step's board
//!             text: "lesson-knight-1",         // what to do
//!             goal: ["e6i9"],                  // the moves that do it
//!             done: "lesson-knight-1-done",    // said once it is done
//!             wrong: [Wrong(mv: "e6e9", why: "lesson-knight-1-why")],
//!         ),
//!     ],
//! )
//! ```
//!
//! A lesson may name the puzzles it offers once done (`puzzles: ["cannon"]`: puzzles' themes
//! such as `general-hunt`, or pieces, whose puzzles move that piece: `qiguo_ai::puzzles::Topic`).
//! A step may also name its `rules` (a preset; the lesson's, else `classic`), the lesson its
//! `players` (the player holding each kingdom, Qin first, for alliances; else one player each),
//! and a step a `prelude` (moves played before the learner's turn, shown in the move list, so
//! that captures made earlier count). The learner always plays Qin, whose turn each step starts
//! with. Every lesson is checked by the tests: it reads, its positions are valid, every goal
//! move is legal, every wrong move is not a goal.

use std::sync::OnceLock;

use qiguo_rules::{
    Board, Game, IllegalMove, Kingdom, Move, Piece, PlayerInfo, Point, Position, PositionError,
    Preset, Rules, Seats, Setup, notation,
};
use serde::Deserialize;

/// The lesson files, in the order of their names: `(file name, text)`.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/lesson_files.rs"));

/// The kingdom the learner plays in every lesson.
pub const LEARNER: Kingdom = Kingdom::Qin;

/// A lesson, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Its name, kept in the settings once finished (`knight`).
    pub id: String,
    /// The message id of its title.
    pub title: String,
    /// The players holding the kingdoms.
    pub seats: Seats,
    /// Its steps, in order.
    pub steps: Vec<Step>,
    /// What the puzzles it offers are about.
    pub puzzles: Vec<qiguo_ai::puzzles::Topic>,
}

/// One thing to do in a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The pieces, Qin to move; `None` to go on from the board the last step left.
    pub setup: Option<Setup>,
    /// The rules it is played under.
    pub rules: Rules,
    /// Moves played before the learner's turn.
    pub prelude: Vec<Move>,
    /// The message id saying what to do.
    pub text: String,
    /// The moves that do it.
    pub goal: Vec<Move>,
    /// The message id said once it is done.
    pub done: String,
    /// Wrong moves with a word of their own: the move and the message id saying why not.
    pub wrong: Vec<(Move, String)>,
}

/// Why a lesson file could not be used (for the tests and the log: lessons are built in).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("lesson {file}: {why}")]
pub struct LessonError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub why: String,
}

/// Why a lesson's step has no game to play, or its goal does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The lesson has no steps.
    #[error("a lesson needs a step")]
    NoSteps,
    /// No step of that number.
    #[error("no such step")]
    NoStep,
    /// The step gives no pieces and no step comes before it.
    #[error("no board to go on from")]
    NoBoard,
    /// The step's pieces make no position.
    #[error("{0}")]
    Position(#[from] PositionError),
    /// A move of the step's prelude is not legal.
    #[error("prelude {0}: {1}")]
    Prelude(Move, IllegalMove),
    /// The learner does not move first in the step.
    #[error("the learner (Qin) is not to move")]
    NotTheLearners,
    /// The step has no goal.
    #[error("no goal")]
    NoGoal,
    /// A goal move is not legal.
    #[error("goal {0}: {1}")]
    Goal(Move, IllegalMove),
    /// A move is both a goal and a wrong move.
    #[error("{0} is both a goal and wrong")]
    GoalAndWrong(Move),
    /// A piece of the step is not written `wQ a10` (colour and piece letters, then a point).
    #[error("`{0}` is not a piece and a point")]
    NotAPieceAndPoint(String),
    /// Not a piece's letters.
    #[error("`{0}` is not a piece")]
    NotAPiece(String),
    /// Not a point.
    #[error("`{0}` is not a point")]
    NotAPoint(String),
    /// Two pieces on one point, or a piece on the Emperor's.
    #[error("{0} is taken")]
    Taken(Point),
    /// In step `n` (from 1), this.
    #[error("step {0}: {1}")]
    In(usize, Box<StepError>),
}

#[derive(Deserialize)]
#[serde(rename = "Lesson", deny_unknown_fields)]
struct LessonFile {
    id: String,
    title: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    players: Option<Vec<Option<u8>>>,
    #[serde(default)]
    puzzles: Vec<String>,
    steps: Vec<StepFile>,
}

#[derive(Deserialize)]
#[serde(rename = "Step", deny_unknown_fields)]
struct StepFile {
    #[serde(default)]
    pieces: Option<Vec<String>>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    prelude: Vec<String>,
    text: String,
    goal: Vec<String>,
    done: String,
    #[serde(default)]
    wrong: Vec<WrongFile>,
}

#[derive(Deserialize)]
#[serde(rename = "Wrong", deny_unknown_fields)]
struct WrongFile {
    mv: String,
    why: String,
}

/// Every lesson that reads and checks, in order; the others are left out and logged.
pub fn all() -> &'static [Lesson] {
    static LESSONS: OnceLock<Vec<Lesson>> = OnceLock::new();
    LESSONS.get_or_init(|| {
        read_all()
            .into_iter()
            .filter_map(|lesson| {
                lesson
                    .inspect_err(|e| bevy::log::error!("{e}; the lesson is left out"))
                    .ok()
            })
            .collect()
    })
}

/// Every lesson file, read and checked.
pub fn read_all() -> Vec<Result<Lesson, LessonError>> {
    FILES
        .iter()
        .map(|(file, text)| Lesson::read(file, text))
        .collect()
}

/// The number of the lesson called `id` in [`all`], if there is one.
pub fn index_of(id: &str) -> Option<usize> {
    all().iter().position(|l| l.id == id)
}

impl Lesson {
    /// Reads a lesson file (`file` names it in errors) and checks every step: its position,
    /// its prelude, that every goal move is legal and that no wrong move is a goal.
    pub fn read(file: &str, text: &str) -> Result<Lesson, LessonError> {
        let error = |why: String| LessonError {
            file: file.to_owned(),
            why,
        };
        let parsed: LessonFile = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .map_err(|e| error(e.to_string()))?;
        let rules_of = |name: &Option<String>, fallback: Rules| match name {
            Some(name) => name
                .parse::<Preset>()
                .map(Rules::preset)
                .map_err(|e| error(e.to_string())),
            None => Ok(fallback),
        };
        let lesson_rules = rules_of(&parsed.rules, Rules::default())?;
        let seats = match &parsed.players {
            None => Seats::seven(),
            Some(players) => {
                let held: [Option<u8>; 7] = players
                    .clone()
                    .try_into()
                    .map_err(|_| error("`players` needs one entry per kingdom".into()))?;
                Seats::new(held).map_err(|e| error(e.to_string()))?
            }
        };
        let moves = |texts: &[String]| -> Result<Vec<Move>, LessonError> {
            texts
                .iter()
                .map(|t| notation::parse_move(t).map_err(|e| error(format!("{t}: {e}"))))
                .collect()
        };
        let mut steps = Vec::new();
        for (n, step) in parsed.steps.iter().enumerate() {
            let setup = match &step.pieces {
                None if n == 0 => return Err(error("the first step needs its pieces".into())),
                None => None,
                Some(pieces) => {
                    Some(setup_of(pieces).map_err(|why| error(format!("step {}: {why}", n + 1)))?)
                }
            };
            steps.push(Step {
                setup,
                rules: rules_of(&step.rules, lesson_rules)?,
                prelude: moves(&step.prelude)?,
                text: step.text.clone(),
                goal: moves(&step.goal)?,
                done: step.done.clone(),
                wrong: step
                    .wrong
                    .iter()
                    .map(|w| Ok((moves(std::slice::from_ref(&w.mv))?[0], w.why.clone())))
                    .collect::<Result<_, LessonError>>()?,
            });
        }
        let puzzles = parsed
            .puzzles
            .iter()
            .map(|topic| {
                topic
                    .parse()
                    .map_err(|e: qiguo_ai::puzzles::UnknownTopic| error(e.to_string()))
            })
            .collect::<Result<_, LessonError>>()?;
        let lesson = Lesson {
            id: parsed.id,
            title: parsed.title,
            seats,
            steps,
            puzzles,
        };
        lesson.check().map_err(|e| error(e.to_string()))?;
        Ok(lesson)
    }

    /// Plays the lesson through with its goals' first moves, checking every step on the way.
    fn check(&self) -> Result<(), StepError> {
        if self.steps.is_empty() {
            return Err(StepError::NoSteps);
        }
        let mut last: Option<Game> = None;
        for (n, step) in self.steps.iter().enumerate() {
            let at = |why: StepError| StepError::In(n + 1, Box::new(why));
            let mut game = self.step_game(n, last.as_ref()).map_err(at)?;
            let pos = game.position();
            let Some(&first) = step.goal.first() else {
                return Err(at(StepError::NoGoal));
            };
            for &mv in &step.goal {
                pos.check(mv).map_err(|e| at(StepError::Goal(mv, e)))?;
            }
            for (mv, _) in &step.wrong {
                if step.goal.contains(mv) {
                    return Err(at(StepError::GoalAndWrong(*mv)));
                }
            }
            game.play(first)
                .map_err(|e| at(StepError::Goal(first, e)))?;
            last = Some(game);
        }
        Ok(())
    }

    /// The game step `n` starts from: its pieces (or the board `last` left, Qin to move
    /// again) under its rules, after its prelude, Qin to move. An error says why not.
    pub fn step_game(&self, n: usize, last: Option<&Game>) -> Result<Game, StepError> {
        let step = self.steps.get(n).ok_or(StepError::NoStep)?;
        let setup = match (&step.setup, last) {
            (Some(setup), _) => setup.clone(),
            (None, Some(game)) => Setup {
                to_move: LEARNER,
                ..game.position().to_setup()
            },
            (None, None) => return Err(StepError::NoBoard),
        };
        let start = Position::new(&setup, step.rules, self.seats)?;
        let mut game = Game::new(start);
        for &mv in &step.prelude {
            game.play(mv).map_err(|e| StepError::Prelude(mv, e))?;
        }
        if game.position().is_over() || game.position().to_move() != LEARNER {
            return Err(StepError::NotTheLearners);
        }
        Ok(game)
    }

    /// The game step `n` starts from when the steps before it were done with their first goal
    /// moves (to start a step again, or skip to it).
    pub fn start_of(&self, n: usize) -> Result<Game, StepError> {
        let mut last: Option<Game> = None;
        for (i, step) in self.steps.iter().enumerate().take(n) {
            let mut game = self.step_game(i, last.as_ref())?;
            let goal = *step.goal.first().ok_or(StepError::NoGoal)?;
            game.play(goal).map_err(|e| StepError::Goal(goal, e))?;
            last = Some(game);
        }
        self.step_game(n, last.as_ref())
    }

    /// The players of a lesson's game: people, named after their kingdoms' players.
    pub fn players(&self) -> Vec<PlayerInfo> {
        PlayerInfo::defaults(self.seats.player_count())
    }

    /// Every message id the lesson names.
    pub fn message_ids(&self) -> Vec<&str> {
        let mut ids = vec![self.title.as_str()];
        for step in &self.steps {
            ids.push(&step.text);
            ids.push(&step.done);
            ids.extend(step.wrong.iter().map(|(_, why)| why.as_str()));
        }
        ids
    }
}

impl Step {
    /// The points to mark on the board: where the goal's stones stand, and where they go.
    pub fn marks(&self) -> (Vec<Point>, Vec<Point>) {
        let mut from: Vec<Point> = self.goal.iter().filter_map(|m| m.from()).collect();
        let mut to: Vec<Point> = self.goal.iter().filter_map(|m| m.to()).collect();
        from.dedup();
        to.dedup();
        (from, to)
    }

    /// The word of its own a wrong move gets, if it has one.
    pub fn why(&self, mv: Move) -> Option<&str> {
        self.wrong
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|(_, why)| why.as_str())
    }
}

/// The board `game` has reached, as a new game with the learner to move again (after a
/// lesson's last step, so that the board stays facing the learner).
pub fn settled(game: &Game) -> Result<Game, PositionError> {
    let pos = game.position();
    let setup = Setup {
        to_move: LEARNER,
        ..pos.to_setup()
    };
    Position::new(&setup, *pos.rules(), *pos.seats()).map(Game::new)
}

/// A setup from pieces written `wQ a10` (colour and piece letters as in 7K FEN, then the
/// point), Qin to move.
fn setup_of(pieces: &[String]) -> Result<Setup, StepError> {
    let mut board = Board::empty();
    for text in pieces {
        let (piece, point) = text
            .split_once(' ')
            .ok_or_else(|| StepError::NotAPieceAndPoint(text.clone()))?;
        let piece = Piece::from_fen(piece).ok_or_else(|| StepError::NotAPiece(piece.to_owned()))?;
        let point: Point = point
            .trim()
            .parse()
            .map_err(|_| StepError::NotAPoint(point.to_owned()))?;
        if point == Point::EMPEROR || board.set(point, Some(piece)).is_some() {
            return Err(StepError::Taken(point));
        }
    }
    Ok(Setup {
        board,
        to_move: LEARNER,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_reads_and_checks() {
        let lessons = read_all();
        assert!(lessons.len() >= 14, "{} lessons", lessons.len());
        for lesson in &lessons {
            if let Err(e) = lesson {
                panic!("{e}");
            }
        }
        let ids: std::collections::BTreeSet<_> = all().iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids.len(), lessons.len(), "lesson ids are unique");
    }

    #[test]
    fn every_piece_kind_has_its_lesson() {
        use qiguo_rules::PieceKind;
        for kind in PieceKind::ALL {
            let taught = all().iter().any(|lesson| {
                lesson.steps.first().is_some_and(|step| {
                    let (from, _) = step.marks();
                    let setup = step.setup.as_ref().unwrap();
                    from.iter()
                        .any(|&p| setup.board.get(p).is_some_and(|piece| piece.kind == kind))
                })
            });
            assert!(taught, "no lesson starts with the {kind:?}");
        }
    }

    #[test]
    fn bad_lessons_are_refused_with_a_reason() {
        let refused = |text: &str| Lesson::read("test", text).unwrap_err().why;
        assert!(refused("Lesson(").contains("Unexpected"));
        let step = |pieces: &str, goal: &str| {
            format!(
                r#"Lesson(id: "t", title: "t", steps: [Step(pieces: {pieces}, text: "t",
                goal: {goal}, done: "t")])"#
            )
        };
        assert!(Lesson::read("ok", &step(r#"["wS e8", "rQ f1"]"#, r#"["e8e9"]"#)).is_ok());
        assert!(refused(&step(r#"["wS e8", "rQ f1"]"#, r#"["e8f9"]"#)).contains("goal e8f9"));
        assert!(refused(&step(r#"["wS j10"]"#, r#"["e8e9"]"#)).contains("taken"));
        assert!(refused(&step(r#"["xS e8"]"#, r#"["e8e9"]"#)).contains("not a piece"));
        assert!(refused(&step(r#"["wS e8", "rQ f1"]"#, r#"["e8"]"#)).contains("e8"));
        // Only Qin on the board: the game is already over.
        assert!(refused(&step(r#"["wS e8"]"#, r#"["e8e9"]"#)).contains("not to move"));
        assert!(refused(&step("None", r#"["e8e9"]"#)).contains("first step"));
        let topic = |topic: &str| {
            format!(
                r#"Lesson(id: "t", title: "t", puzzles: ["{topic}"], steps: [Step(
                pieces: ["wS e8", "rQ f1"], text: "t", goal: ["e8e9"], done: "t")])"#
            )
        };
        assert!(Lesson::read("ok", &topic("knight")).is_ok());
        assert!(refused(&topic("castle")).contains("`castle` is neither"));
    }

    #[test]
    fn the_lessons_offer_the_puzzles_of_their_pieces() {
        use qiguo_ai::puzzles::{Theme, Topic};
        use qiguo_rules::PieceKind;
        let lesson = |id: &str| &all()[index_of(id).unwrap()];
        assert_eq!(
            lesson("cannon").puzzles,
            [
                Topic::Piece(PieceKind::Cannon),
                Topic::Theme(Theme::CannonScreen)
            ]
        );
        let offered =
            |id: &str| crate::puzzles::about(crate::puzzles::built_in(), &lesson(id).puzzles);
        let cannons = offered("cannon");
        assert!(!cannons.is_empty());
        assert!(cannons.iter().all(|p| p.piece() == Some(PieceKind::Cannon)));
        assert!(!offered("knight").is_empty());
        assert!(!offered("fall").is_empty());
        assert!(lesson("emperor").puzzles.is_empty());
    }
}
