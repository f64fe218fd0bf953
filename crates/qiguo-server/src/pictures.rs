//! Pictures of games for their links: a game's card (`/games/CODE/card.png`, 1200×630, the
//! board from above beside who plays and where the game stands), which chat programs and
//! social sites show for a link to the game — the page's `/watch/CODE` and `/join/CODE` name it
//! in their Open Graph tags —, and a finished game's moves as an animated GIF
//! (`/games/CODE/moves.gif`).
//!
//! A game is named by its invitation code, as its links name it: whoever has the link may
//! watch the game, and so may see its picture. Pictures are drawn from the database (every
//! acknowledged move is there) on the blocking threads, a few at once.

use std::sync::Arc;

use qiguo_picture::card::{CardText, KingdomLine, card};
use qiguo_picture::{Face, animation, encode};
use qiguo_rules::{Kingdom, Standing};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::model::StoredGame;
use crate::store::{Store, StoreError};

/// Pictures drawn at once; more wait for a turn.
pub const PICTURES_AT_ONCE: usize = 2;
/// Pictures asked for and not yet drawn, those being drawn included; beyond, a request is
/// answered 503 at once.
pub const PICTURES_WAITING: usize = 32;
/// The side of an animation, in pixels.
pub const ANIMATION_SIDE: usize = 608;
/// The most moves an animation shows (a frame each); a longer game's animation stops there.
pub const ANIMATION_MOST_MOVES: usize = 3_000;

/// Why a picture was not drawn.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// No game has this code.
    #[error("no game has this code")]
    NoGame,
    /// The game goes on: its moves are drawn once it has ended.
    #[error("the game is not over: its moves are drawn once it has ended")]
    NotOver,
    /// Too many pictures are being drawn.
    #[error("too many pictures are being drawn: ask again in a moment")]
    Busy,
    /// The database failed.
    #[error("the game could not be read: {0}")]
    Store(StoreError),
    /// The picture could not be drawn or written.
    #[error("the picture could not be drawn: {0}")]
    Draw(String),
}

/// A drawn picture.
pub struct Drawn {
    /// The picture's bytes (PNG or GIF).
    pub bytes: Vec<u8>,
    /// Whether the game is over: the picture no longer changes.
    pub finished: bool,
}

/// What a link to a game says of it (Open Graph's description; its title is [`TITLE`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// A sentence on where the game stands.
    pub description: String,
}

/// Draws the pictures of games, from the database.
pub struct Pictures {
    store: Store,
    /// Turns to draw: [`PICTURES_AT_ONCE`].
    drawing: Arc<Semaphore>,
    /// Places in the queue, the drawing included: [`PICTURES_WAITING`].
    waiting: Arc<Semaphore>,
    face: Face<'static>,
    /// Where players reach the server (`--public-url`), if the operator said.
    public_url: Option<String>,
    /// Whether this server serves TLS itself (the scheme of a link made from a request's host).
    secure: bool,
}

impl Pictures {
    /// Pictures of the games in `store`, their links on the site at `public_url` (else the
    /// host each request names, over https when `secure`).
    pub fn new(store: Store, public_url: Option<String>, secure: bool) -> Pictures {
        Pictures {
            store,
            drawing: Arc::new(Semaphore::new(PICTURES_AT_ONCE)),
            waiting: Arc::new(Semaphore::new(PICTURES_WAITING)),
            face: qiguo_picture::words_face(),
            public_url,
            secure,
        }
    }

    /// The site's address, `https://HOST[:PORT]`: the operator's `--public-url`, else made of
    /// the request's `Host` (when it is a host name or address and a port, nothing else).
    pub fn site(&self, headers: &http::HeaderMap) -> String {
        if let Some(url) = &self.public_url {
            return url.trim_end_matches('/').to_owned();
        }
        let scheme = if self.secure { "https" } else { "http" };
        format!("{scheme}://{}", self.host(headers))
    }

    /// The site's host (and port) as a link names it.
    pub fn host(&self, headers: &http::HeaderMap) -> String {
        if let Some(url) = &self.public_url {
            let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
            return rest.trim_end_matches('/').to_owned();
        }
        headers
            .get(http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.len() <= 255
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
            })
            .unwrap_or("localhost")
            .to_owned()
    }

    /// The game whose invitation code is `code`.
    async fn game(&self, code: &str) -> Result<StoredGame, PictureError> {
        let id = self.store.game_by_code(code).await.map_err(not_found)?;
        self.store.load_game(&id).await.map_err(not_found)
    }

    /// A place in the queue of pictures (held until the picture is drawn), then the game whose
    /// code is `code`; busy when the queue is full.
    async fn queued(&self, code: &str) -> Result<(OwnedSemaphorePermit, StoredGame), PictureError> {
        let place = self
            .waiting
            .clone()
            .try_acquire_owned()
            .map_err(|_| PictureError::Busy)?;
        Ok((place, self.game(code).await?))
    }

    /// What a link to the game with code `code` says of it; `None` when there is no such game.
    pub async fn preview(&self, code: &str) -> Option<Preview> {
        let game = self.game(code).await.ok()?;
        Some(Preview {
            description: summary(&game),
        })
    }

    /// The card of the game with code `code`; `host` is named at its foot.
    pub async fn card(&self, code: &str, host: &str) -> Result<Drawn, PictureError> {
        let (_place, game) = self.queued(code).await?;
        let text = card_text(&game, host);
        let face = self.face.clone();
        let finished = game.finished;
        self.draw(move || {
            let last = game.game.last_report().map(|r| (r.mv, r.mover));
            let canvas = card(&face, game.game.position(), last, &text);
            encode::png(&canvas).map_err(|e| PictureError::Draw(e.to_string()))
        })
        .await
        .map(|bytes| Drawn { bytes, finished })
    }

    /// The moves of the finished game with code `code` as an animated GIF.
    pub async fn animation(&self, code: &str) -> Result<Drawn, PictureError> {
        let (_place, game) = self.queued(code).await?;
        if !game.finished {
            return Err(PictureError::NotOver);
        }
        let face = self.face.clone();
        self.draw(move || {
            let mut played = game.game;
            while played.len() > ANIMATION_MOST_MOVES {
                played.undo();
            }
            animation::animation(&face, &played, ANIMATION_SIDE)
                .map_err(|e| PictureError::Draw(e.to_string()))
        })
        .await
        .map(|bytes| Drawn {
            bytes,
            finished: true,
        })
    }

    /// Runs `work` on a blocking thread when a turn to draw comes.
    async fn draw(
        &self,
        work: impl FnOnce() -> Result<Vec<u8>, PictureError> + Send + 'static,
    ) -> Result<Vec<u8>, PictureError> {
        let _turn = self
            .drawing
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| PictureError::Busy)?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| PictureError::Draw(e.to_string()))?
    }
}

/// The title of every game's link.
pub const TITLE: &str = "A game of Qiguo, the seven kingdoms";

fn not_found(e: StoreError) -> PictureError {
    match e {
        StoreError::Refused(_) => PictureError::NoGame,
        e => PictureError::Store(e),
    }
}

/// Who holds `kingdom` in `game`.
fn holder(game: &StoredGame, kingdom: Kingdom) -> String {
    let seat = game
        .game
        .position()
        .seats()
        .player(kingdom)
        .and_then(|player| game.seats.get(usize::from(player)));
    match seat {
        Some(seat) => seat.label(),
        None => "nobody".to_owned(),
    }
}

/// Where the game stands, in a sentence: whose move, or who won and how.
fn summary(game: &StoredGame) -> String {
    let position = game.game.position();
    let moves = game.game.len();
    match game.game.outcome() {
        Some(outcome) => format!(
            "{} · {} won: {}, after {moves} moves.",
            outcome.winner.title(),
            holder(game, outcome.winner),
            outcome.victory.describe()
        ),
        None => format!(
            "Move {}: {} · {} to move.",
            moves + 1,
            position.to_move().title(),
            holder(game, position.to_move())
        ),
    }
}

/// What the card of `game` says beside its board.
fn card_text(game: &StoredGame, host: &str) -> CardText {
    let position = game.game.position();
    let outcome = game.game.outcome();
    let kingdoms = Kingdom::ALL
        .into_iter()
        .map(|kingdom| {
            let standing = position.standing(kingdom);
            let state = match standing {
                _ if outcome.is_some_and(|o| o.winner == kingdom) => "won",
                Standing::InGame if outcome.is_none() && position.to_move() == kingdom => "to move",
                Standing::InGame => "",
                Standing::Absent => "absent",
                Standing::Beaten { .. } => "beaten",
                Standing::Forfeited { .. } => "forfeited",
                Standing::Conceded { .. } => "conceded",
            };
            KingdomLine {
                kingdom,
                who: if standing == Standing::Absent {
                    "nobody".to_owned()
                } else {
                    holder(game, kingdom)
                },
                state: state.to_owned(),
                out: !matches!(standing, Standing::InGame),
            }
        })
        .collect();
    let summary = summary(game);
    CardText {
        title: "Qiguo 七國象棋".to_owned(),
        summary,
        kingdoms,
        footer: host.to_owned(),
    }
}
