//! What a link reports: a client that runs beside a program that cannot wait (a game window,
//! drawing a frame at a time) turns requests into tagged answers and whatever the server says
//! into [`News`], polled once a frame. The desktop's link runs on a thread of its own; the
//! page's on the browser's WebSocket; both report the same news.

use crate::client::ClientError;
use crate::{Answer, Event, PlayerId};

/// What the link reports.
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    /// The link's own server listens here.
    Serving {
        /// Its URL on this machine.
        url: String,
    },
    /// The own server could not start (the link stops).
    NotServing(String),
    /// Signed in (again, after a lost connection: open the game again).
    Connected {
        /// The player's id.
        player: PlayerId,
        /// Their name.
        name: String,
    },
    /// The server speaks a newer protocol version than this client: it still answers it (for
    /// one release), and an update waits — the page reloads to take up the server's own, the
    /// window says so.
    Behind {
        /// The server's version.
        server: u32,
    },
    /// The answer to the request tagged `tag`, or why it failed.
    Answer {
        /// The tag the link's `ask` gave.
        tag: u64,
        /// The answer, or why not: refused (a code to word), or the connection lost.
        result: Result<Answer, ClientError>,
    },
    /// Something happened in a followed game, or to the player.
    Event(Event),
    /// The connection is lost (or could not be made); the link tries again.
    Lost(String),
    /// The server will not have this client (a wrong key, another version), or it is no
    /// server's address: the link stops.
    Refused(ClientError),
    /// The player's keys could not be read or kept: the link stops.
    NoKeys(String),
}
