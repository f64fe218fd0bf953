//! What Qiguo's online clients and servers agree on, and nothing else: the things of an online
//! game ([`model`]: ids, paces, seat plans, a new game and its one check), the frames they send
//! ([`frames`], versioned by [`PROTOCOL_VERSION`]), why a request is refused ([`Refusal`], a
//! code each client words in its player's language), the versions a server answers and its
//! frames as an older client reads them ([`versions`]), and a client's bookkeeping over any
//! transport ([`client`]). No I/O, no server, no database: it builds for the browser
//! (`wasm32-unknown-unknown`) as for the desktop. `docs/protocol.md` describes the same for
//! people.

pub mod calendar;
pub mod client;
pub mod clubs;
pub mod evenings;
pub mod frames;
pub mod keys;
pub mod link;
pub mod lobby;
pub mod model;
pub mod refusal;
pub mod tournaments;
pub mod versions;

pub use frames::*;
pub use lobby::{LobbyView, TableId, TableSpec, TableView};
pub use model::{
    GameId, MAX_DAYS, MAX_NAME_CHARS, MAX_TALK_CHARS, MIN_DAYS, MadeBy, NewGame, Pace, PlayerId,
    QuickPace, RatingFamily, RatingShown, SeatPlan, WhenOverdue, clean_name, clean_talk,
};
pub use refusal::Refusal;
