//! A search as a message: what to search ([`SearchJob`]) and what was found ([`SearchDone`]),
//! both plain JSON, for a searcher that shares no memory with whoever asks — in a page, the
//! Web Worker that keeps the search off the thread that draws. A game's review goes the same
//! way ([`ReviewJob`], [`ReviewDone`]), and a move tried in place of a mistake ([`JudgeJob`],
//! [`JudgeDone`]).
//!
//! The game travels as its record (start position and moves), so the searcher sees the same
//! position the game has, repetitions included.
//!
//! ```
//! use qiguo_ai::{Engine, TableSize};
//! use qiguo_ai::job::SearchJob;
//! use qiguo_rules::{Game, Level, PlayerInfo, Record, Rules, Seats};
//!
//! let game = Game::start(Rules::default(), Seats::default());
//! let record = Record::from_game(&game, PlayerInfo::defaults(7));
//! let job = SearchJob { id: 1, record, level: Level::Medium, movetime_ms: None,
//!     nodes: Some(2_000), seed: 7 };
//! let text = job.to_json();
//! let done = SearchJob::from_json(&text).unwrap().run(&mut Engine::new(TableSize::entries_log2(16)));
//! let mv = qiguo_rules::notation::parse_move(done.best.as_deref().unwrap()).unwrap();
//! assert!(game.position().is_legal(mv));
//! ```

use std::time::Duration;

use qiguo_rules::{Level, Record};
use serde::{Deserialize, Serialize};

use crate::{Engine, Limits};

/// A search asked for: the game so far, the level and the limits.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchJob {
    /// Chosen by the asker; the answer carries it back.
    pub id: u64,
    /// The game to move in, as its record.
    pub record: Record,
    /// The level searching.
    pub level: Level,
    /// Time for the move in milliseconds (the level's own when neither limit is given).
    pub movetime_ms: Option<u64>,
    /// Positions to visit at most.
    pub nodes: Option<u64>,
    /// Seed for the level's variety.
    pub seed: u64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchDone {
    /// The job's id.
    pub id: u64,
    /// The move to play in the game's notation; `None` when there is none (a finished game) or
    /// the job could not be read.
    pub best: Option<String>,
    /// Why there is no move, when the job could not be read or replayed.
    pub error: Option<String>,
    /// The move's score for the player to move, in centipawns.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent, in microseconds.
    pub elapsed_us: u64,
}

impl SearchJob {
    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a search job is always written")
    }

    /// A job from JSON.
    pub fn from_json(text: &str) -> Result<SearchJob, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Replays the record and searches its position with `engine`.
    pub fn run(&self, engine: &mut Engine) -> SearchDone {
        let mut done = SearchDone::failed(self.id, String::new());
        let game = match self.record.replay() {
            Ok(game) => game,
            Err(e) => {
                done.error = Some(e.to_string());
                return done;
            }
        };
        let limits = Limits {
            movetime: self.movetime_ms.map(Duration::from_millis),
            nodes: self.nodes,
            ..Limits::default()
        };
        done.error = None;
        if let Some(result) = engine.search(game.position(), self.level, &limits, self.seed) {
            done.best = Some(result.best.to_string());
            done.score = result.score;
            done.depth = result.depth;
            done.nodes = result.nodes;
            done.elapsed_us = u64::try_from(result.elapsed.as_micros()).unwrap_or(u64::MAX);
        }
        done
    }
}

impl SearchDone {
    /// The answer to a job that could not be read or run.
    pub fn failed(id: u64, why: String) -> SearchDone {
        SearchDone {
            id,
            best: None,
            error: Some(why),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed_us: 0,
        }
    }

    /// The answer as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a search's answer is always written")
    }

    /// An answer from JSON.
    pub fn from_json(text: &str) -> Result<SearchDone, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Why a review or a move's judgement made off the thread that draws (on a thread of its own,
/// or in a page's Web Worker) brought no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobError {
    /// The searcher refused the job: its game could not be replayed, or the move judged cannot
    /// be read or played there (what it said).
    Refused(String),
    /// The searcher's answer could not be read (what the reader said).
    Unreadable(String),
    /// No thread or worker could be started for it.
    NoRoom,
    /// The thread or worker ended without an answer.
    Ended,
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::Refused(why) => f.write_str(why),
            JobError::Unreadable(why) => write!(f, "the answer could not be read: {why}"),
            JobError::NoRoom => f.write_str("no thread or worker could be started for it"),
            JobError::Ended => f.write_str("the search ended without an answer"),
        }
    }
}

impl std::error::Error for JobError {}

/// A game's review asked for (a page's worker reviews a game played at its screen): the game
/// as its record, and the positions searched for each position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReviewJob {
    /// Chosen by the asker; the answer carries it back.
    pub id: u64,
    /// The game, as its record.
    pub record: Record,
    /// Positions searched for each position ([`crate::review::REVIEW_NODES`]).
    pub nodes: u64,
}

/// A review made, or why not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewDone {
    /// The job's id.
    pub id: u64,
    /// The review; `None` when the job could not be read or replayed.
    pub review: Option<crate::review::GameReview>,
    /// Why there is no review.
    pub error: Option<String>,
}

impl ReviewJob {
    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a review job is always written")
    }

    /// A job from JSON.
    pub fn from_json(text: &str) -> Result<ReviewJob, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Replays the record and reviews the game.
    pub fn run(&self) -> ReviewDone {
        match self.record.replay() {
            Ok(game) => ReviewDone {
                id: self.id,
                review: Some(crate::review::review(&game, self.nodes)),
                error: None,
            },
            Err(e) => ReviewDone::failed(self.id, format!("the game cannot be replayed: {e}")),
        }
    }
}

impl ReviewDone {
    /// No review, and why.
    pub fn failed(id: u64, why: String) -> ReviewDone {
        ReviewDone {
            id,
            review: None,
            error: Some(why),
        }
    }

    /// The answer as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a review's answer is always written")
    }

    /// An answer from JSON.
    pub fn from_json(text: &str) -> Result<ReviewDone, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The review an answer (as JSON) carries, or why there is none.
    pub fn read(text: &str) -> Result<crate::review::GameReview, JobError> {
        let done = ReviewDone::from_json(text).map_err(|e| JobError::Unreadable(e.to_string()))?;
        done.review
            .ok_or_else(|| JobError::Refused(done.error.unwrap_or_default()))
    }
}

/// A move tried in place of a mistake, to be judged (*Learn from your mistakes* in a page): the
/// game up to the mistake as its record, the move, and the positions searched.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JudgeJob {
    /// Chosen by the asker; the answer carries it back.
    pub id: u64,
    /// The game before the move, as its record.
    pub record: Record,
    /// The move tried, as `qiguo moves` writes it.
    pub mv: String,
    /// Positions searched ([`crate::review::REVIEW_NODES`], as the review's).
    pub nodes: u64,
}

/// A move judged: the mover's chance after it ([`crate::review::chance_after`]), or why not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgeDone {
    /// The job's id.
    pub id: u64,
    /// The chance, from 0 to 1; `None` when the job could not be read, replayed or played.
    pub chance: Option<f64>,
    /// Why there is no chance.
    pub error: Option<String>,
}

impl JudgeJob {
    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a judge job is always written")
    }

    /// A job from JSON.
    pub fn from_json(text: &str) -> Result<JudgeJob, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Replays the record and judges the move.
    pub fn run(&self) -> JudgeDone {
        let failed = |why: String| JudgeDone {
            id: self.id,
            chance: None,
            error: Some(why),
        };
        let game = match self.record.replay() {
            Ok(game) => game,
            Err(e) => return failed(format!("the game cannot be replayed: {e}")),
        };
        let mv = match qiguo_rules::notation::parse_move(&self.mv) {
            Ok(mv) => mv,
            Err(e) => return failed(format!("the move cannot be read: {e}")),
        };
        match crate::review::chance_after(game.position(), mv, self.nodes) {
            Some(chance) => JudgeDone {
                id: self.id,
                chance: Some(chance),
                error: None,
            },
            None => failed(format!("{} cannot be played there", self.mv)),
        }
    }
}

impl JudgeDone {
    /// The answer as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a judgement is always written")
    }

    /// An answer from JSON.
    pub fn from_json(text: &str) -> Result<JudgeDone, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The chance an answer (as JSON) carries, or why there is none.
    pub fn read(text: &str) -> Result<f64, JobError> {
        let done = JudgeDone::from_json(text).map_err(|e| JobError::Unreadable(e.to_string()))?;
        done.chance
            .ok_or_else(|| JobError::Refused(done.error.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use qiguo_rules::{Game, PlayerInfo, Rules, Seats};

    use super::*;

    fn job_after(moves: usize) -> (Game, SearchJob) {
        let mut game = Game::start(Rules::default(), Seats::default());
        let mut engine = Engine::new(crate::TableSize::entries_log2(14));
        for seed in 0..moves as u64 {
            let limits = Limits {
                nodes: Some(300),
                ..Limits::default()
            };
            let best = engine
                .search(game.position(), Level::Easy, &limits, seed)
                .unwrap()
                .best;
            game.play(best).unwrap();
        }
        let record = Record::from_game(&game, PlayerInfo::defaults(7));
        let job = SearchJob {
            id: 42,
            record,
            level: Level::Hard,
            movetime_ms: None,
            nodes: Some(3_000),
            seed: 9,
        };
        (game, job)
    }

    #[test]
    fn a_job_through_json_finds_the_move_the_engine_finds_directly() {
        let (game, job) = job_after(10);
        let done = SearchJob::from_json(&job.to_json())
            .unwrap()
            .run(&mut Engine::new(crate::TableSize::entries_log2(16)));
        let done = SearchDone::from_json(&done.to_json()).unwrap();
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let direct = Engine::new(crate::TableSize::entries_log2(16))
            .search(game.position(), Level::Hard, &limits, 9)
            .unwrap();
        assert_eq!(done.id, 42);
        assert_eq!(done.error, None);
        assert_eq!(done.best, Some(direct.best.to_string()));
        assert_eq!((done.score, done.depth), (direct.score, direct.depth));
        assert_eq!(done.nodes, direct.nodes);
    }

    #[test]
    fn a_judged_move_through_json_keeps_its_chance_and_a_bad_one_says_why() {
        let (game, _) = job_after(4);
        let mv = game.position().legal_moves()[3];
        let job = JudgeJob {
            id: 8,
            record: Record::from_game(&game, PlayerInfo::defaults(7)),
            mv: mv.to_string(),
            nodes: 1_000,
        };
        let done =
            JudgeDone::from_json(&JudgeJob::from_json(&job.to_json()).unwrap().run().to_json())
                .unwrap();
        assert_eq!(done.id, 8);
        assert_eq!(
            done.chance,
            crate::review::chance_after(game.position(), mv, 1_000)
        );
        assert!(done.chance.is_some());
        let unplayable = JudgeJob {
            mv: "j10j11".to_owned(),
            ..job.clone()
        }
        .run();
        assert_eq!(unplayable.chance, None);
        assert!(unplayable.error.as_ref().unwrap().contains("j10j11"));
        // Read by the asker: the chance, or why not, as an error it can match.
        assert_eq!(JudgeDone::read(&done.to_json()), Ok(done.chance.unwrap()));
        match JudgeDone::read(&unplayable.to_json()) {
            Err(JobError::Refused(why)) => assert!(why.contains("j10j11"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            JudgeDone::read("{\"id\": 8"),
            Err(JobError::Unreadable(_))
        ));
        let unreadable = JudgeJob {
            mv: "nonsense".to_owned(),
            ..job
        }
        .run();
        assert!(unreadable.error.unwrap().contains("cannot be read"));
    }

    #[test]
    fn a_job_that_cannot_be_replayed_says_why_and_has_no_move() {
        let (_, mut job) = job_after(2);
        job.record.moves.push("a1a1".to_owned());
        let done = job.run(&mut Engine::new(crate::TableSize::entries_log2(14)));
        assert_eq!(done.best, None);
        assert!(
            done.error.as_deref().is_some_and(|e| !e.is_empty()),
            "{done:?}"
        );
        assert!(SearchJob::from_json("{\"id\":").is_err());
    }
}
