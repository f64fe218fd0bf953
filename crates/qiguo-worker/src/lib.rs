//! The computer players in a page: a Web Worker's search. The page's game posts a
//! [`SearchJob`](qiguo_ai::job::SearchJob) as JSON; `web/worker.js` hands it to [`think`], which
//! searches with one engine kept for the worker's life (its transposition table carries over
//! from move to move, as on the desktop) and answers a
//! [`SearchDone`](qiguo_ai::job::SearchDone) as JSON. The search runs on the worker's thread,
//! so the page keeps drawing; one thread only (a page has no shared memory without
//! cross-origin isolation). A worker of its own reviews a game played at the page's screen
//! ([`review`]) and judges the moves tried in place of its mistakes ([`judge`]).

use std::cell::RefCell;

use qiguo_ai::job::{SearchDone, SearchJob};
use qiguo_ai::{Engine, TableSize};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// The transposition table's size (the desktop game's: 2^17 entries, 2 MiB).
const TABLE: TableSize = TableSize::entries_log2(17);

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// Runs the search job in `job` (JSON) and gives its answer (JSON). A job that cannot be read
/// is answered with its reason and no move (id 0 when even the id cannot be read).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn think(job: &str) -> String {
    let done = match SearchJob::from_json(job) {
        Ok(job) => ENGINE
            .with_borrow_mut(|engine| job.run(engine.get_or_insert_with(|| Engine::new(TABLE)))),
        Err(e) => SearchDone::failed(id_of(job), format!("unreadable search job: {e}")),
    };
    done.to_json()
}

/// Reviews the game of the review job in `job` (JSON: `qiguo_ai::job::ReviewJob`) and gives
/// the review (JSON: `qiguo_ai::job::ReviewDone`); a job that cannot be read is answered with
/// its reason and no review. It takes as long as the game's review (a minute or more for a
/// long game): the page posts it to a worker of its own, not the computers'.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn review(job: &str) -> String {
    let done = match qiguo_ai::job::ReviewJob::from_json(job) {
        Ok(job) => job.run(),
        Err(e) => {
            qiguo_ai::job::ReviewDone::failed(id_of(job), format!("unreadable review job: {e}"))
        }
    };
    done.to_json()
}

/// Judges the move of the judge job in `job` (JSON: `qiguo_ai::job::JudgeJob`: the mover's
/// chance after a move tried in place of a mistake) and gives the answer (JSON:
/// `qiguo_ai::job::JudgeDone`); a job that cannot be read is answered with its reason. One
/// search at the review's budget: about a tenth of a second.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn judge(job: &str) -> String {
    let done = match qiguo_ai::job::JudgeJob::from_json(job) {
        Ok(job) => job.run(),
        Err(e) => qiguo_ai::job::JudgeDone {
            id: id_of(job),
            chance: None,
            error: Some(format!("unreadable judge job: {e}")),
        },
    };
    done.to_json()
}

/// The id of a job too broken to read, if its `id` field can still be found.
fn id_of(job: &str) -> u64 {
    job.split("\"id\":")
        .nth(1)
        .and_then(|rest| {
            let digits: String = rest
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use qiguo_ai::job::SearchDone;
    use qiguo_rules::{Game, Level, PlayerInfo, Record, Rules, Seats};

    use super::*;

    #[test]
    fn a_job_is_answered_with_a_legal_move() {
        let game = Game::start(Rules::default(), Seats::default());
        let job = SearchJob {
            id: 5,
            record: Record::from_game(&game, PlayerInfo::defaults(7)),
            level: Level::Medium,
            movetime_ms: None,
            nodes: Some(5_000),
            seed: 1,
        };
        let done = SearchDone::from_json(&think(&job.to_json())).unwrap();
        assert_eq!(done.id, 5);
        let best = qiguo_rules::notation::parse_move(done.best.as_deref().unwrap()).unwrap();
        assert!(game.position().is_legal(best));
        // The engine is kept: a second job is answered as well.
        let again = SearchDone::from_json(&think(&job.to_json())).unwrap();
        assert!(again.best.is_some());
    }

    #[test]
    fn a_review_job_is_answered_with_the_review() {
        use qiguo_ai::job::{ReviewDone, ReviewJob};
        let mut game = Game::start(Rules::default(), Seats::default());
        for _ in 0..2 {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        let job = ReviewJob {
            id: 9,
            record: Record::from_game(&game, PlayerInfo::defaults(7)),
            nodes: 1_000,
        };
        let done = ReviewDone::from_json(&review(&job.to_json())).unwrap();
        assert_eq!(done.id, 9);
        assert_eq!(done.review, Some(qiguo_ai::review::review(&game, 1_000)));
        let broken = ReviewDone::from_json(&review(r#"{"id": 4, "record": 1}"#)).unwrap();
        assert_eq!((broken.id, broken.review), (4, None));
        assert!(broken.error.is_some());
    }

    #[test]
    fn a_judge_job_is_answered_with_the_movers_chance() {
        use qiguo_ai::job::{JudgeDone, JudgeJob};
        let game = Game::start(Rules::default(), Seats::default());
        let mv = game.position().legal_moves()[5];
        let job = JudgeJob {
            id: 12,
            record: Record::from_game(&game, PlayerInfo::defaults(7)),
            mv: mv.to_string(),
            nodes: 1_000,
        };
        let done = JudgeDone::from_json(&judge(&job.to_json())).unwrap();
        assert_eq!(done.id, 12);
        assert_eq!(
            done.chance,
            qiguo_ai::review::chance_after(game.position(), mv, 1_000)
        );
        let broken = JudgeDone::from_json(&judge(r#"{"id": 6, "mv": 1}"#)).unwrap();
        assert_eq!((broken.id, broken.chance), (6, None));
        assert!(broken.error.is_some());
    }

    #[test]
    fn a_broken_job_is_answered_with_its_reason_and_no_move() {
        let done = SearchDone::from_json(&think(r#"{"id": 77, "record": 3}"#)).unwrap();
        assert_eq!((done.id, done.best), (77, None));
        assert!(done.error.unwrap().starts_with("unreadable search job"));
        let done = SearchDone::from_json(&think("not json")).unwrap();
        assert_eq!(done.id, 0);
    }
}
