//! Puzzles: those mined from this server's reviewed games (by its reviewers or a worker's, in
//! the review's commit: `crate::reviewing`), served to players — the day's, one by name, or the
//! untried one nearest the player's puzzle rating — and each player's first try at each rated
//! against the puzzle. Nothing here but the store.

use crate::log::{Log, escaped, note};
use crate::protocol::{Answer, MAX_PUZZLE_ID_BYTES, PuzzleWanted, Refusal};
use crate::store::{PlayerId, Store};

/// The puzzles slice.
pub(crate) struct Puzzles {
    store: Store,
    log: Log,
}

/// Whether `id` could be a puzzle's name: letters and digits, not too long (anything else is
/// no puzzle's, and is not looked up).
fn readable(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_PUZZLE_ID_BYTES
        && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Puzzles {
    /// Puzzles on `store`.
    pub(crate) fn new(store: Store, log: Log) -> Puzzles {
        Puzzles { store, log }
    }

    /// The puzzle `player` asks for.
    pub(crate) async fn puzzle(
        &self,
        player: &PlayerId,
        which: PuzzleWanted,
    ) -> Result<Answer, Refusal> {
        if let PuzzleWanted::Named { id } = &which
            && !readable(id)
        {
            return Err(Refusal::NoSuchPuzzle {
                id: id.chars().take(MAX_PUZZLE_ID_BYTES).collect(),
            });
        }
        let day = self.store.now().div_euclid(86_400_000);
        let view = self.store.puzzle_for(player, &which, day).await?;
        Ok(Answer::Puzzle(Box::new(view)))
    }

    /// `player`'s try at puzzle `id`: the first moves both ratings.
    pub(crate) async fn tried(
        &self,
        player: &PlayerId,
        id: &str,
        solved: bool,
    ) -> Result<Answer, Refusal> {
        if !readable(id) {
            return Err(Refusal::NoSuchPuzzle {
                id: id.chars().take(MAX_PUZZLE_ID_BYTES).collect(),
            });
        }
        let rated = self.store.puzzle_tried(player, id, solved).await?;
        if rated.counted {
            note!(
                self.log,
                INFO,
                "puzzle tried",
                player = player.0,
                puzzle = escaped(id),
                solved = solved,
                before = rated.before,
                after = rated.after,
                rating = rated.puzzle
            );
        }
        Ok(Answer::PuzzleRated(rated))
    }
}
