//! Online games from the window, through a Qiguo server: the window's own (started on a thread
//! of its own, its games in the data directory, for a LAN evening) or one elsewhere. The
//! connection is a [`Link`] (a client on its own thread); this module turns what it reports
//! into the game: *My games*, the game on the board, its moves as they come.
//!
//! The server is the authority. A game opened from *My games* (or joined, or watched) is handed
//! to the rules system whole ([`GameFromServer`]); the person's moves on their own kingdoms go to
//! the server instead of being played here, and every move the server tells of (theirs among
//! them) is handed to the rules system as a [`Mover::Remote`] request once the move before has
//! been shown. A take-back (*Take back*) is asked of the other people; an overdue pass, a
//! take-back made or a game that fell behind sends for the whole game again. Connection state
//! lives in the [`Online`] resource, which only this module changes; the game stays in `Match`.
//!
//! Its rooms: the connection (the link, requests sent, news read), the events the server tells,
//! the table (the game on the board and its moves both ways), the notifications, the window and
//! the words for the server's refusals.
//!
//! The concerns beside the game on the board are plugins of their own, each owning its view,
//! its requests and their answers, and its section of the *Online…* window: holidays
//! ([`holidays`]), e-mail ([`mail`]), finished games ([`after`]), conduct ([`conduct`]), the lobby and its tables ([`lobby`]), ratings
//! ([`ratings`]), the server's puzzles ([`puzzles`]), clubs ([`clubs`]). A concern asks through
//! [`Pending::ask`], hears its answers as [`Answered`] and the server's events as [`Told`], asks
//! what it shows once [`SignedIn`], and adds its section with
//! [`ui::OnlineSectionApp::add_online_section`].

pub mod after;
pub mod clubs;
pub mod conduct;
mod connect_view;
mod connection;
pub mod evenings;
mod events;
pub mod holidays;
pub mod invite;
pub(crate) mod link;
pub mod lobby;
pub mod mail;
mod my_games;
mod new_game;
pub(crate) mod notify;
pub mod push;
pub mod puzzles;
pub(crate) mod quick;
pub mod ratings;
mod review;
mod shared;
mod table;
pub(crate) mod table_view;
mod talk;
pub mod tournaments;
pub(crate) mod ui;

pub(crate) use talk::TALK_PANEL;
pub(crate) mod words;

use bevy::prelude::*;
use connection::{connect_or_leave, read_news, send_commands};
use table::{feed_moves, forward_person_requests, publish_seat_authority, recap_on_open};

pub(crate) use shared::{Answered, OnlineSystems, SignedIn, Told};
pub use shared::{Online, OnlineCommand, OnlineRequested, OnlineTable, Status};

use crate::game::frames::{AskFrames, one_more_frame_when_changed};
use crate::game::schedule::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Online>()
        .add_plugins((invite::plugin, talk::plugin, notify::plugin))
        .add_message::<OnlineRequested>()
        .add_message::<OnlineCommand>()
        .add_message::<Answered>()
        .add_message::<Told>()
        .add_message::<SignedIn>()
        .configure_sets(
            Update,
            (OnlineSystems::Link, OnlineSystems::Concerns)
                .chain()
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (
                connect_or_leave,
                read_news,
                send_commands,
                forward_person_requests,
                feed_moves,
                publish_seat_authority,
            )
                .chain()
                .in_set(OnlineSystems::Link),
        )
        .add_plugins((
            after::plugin,
            clubs::plugin,
            evenings::plugin,
            tournaments::plugin,
            conduct::plugin,
            holidays::plugin,
            lobby::plugin,
            mail::plugin,
            push::plugin,
            puzzles::plugin,
            ratings::plugin,
            review::plugin,
        ))
        .add_systems(Update, recap_on_open.in_set(AppSystems::SyncView))
        // What the link brings is drawn at once.
        .add_systems(
            Last,
            one_more_frame_when_changed::<Online>.in_set(AskFrames),
        );
}

/// The *Online…* window: its frame, and the sections of the concerns that only the window has
/// (connecting, *Play now*, my games, a new game and codes, invitations, the table's seats).
pub(crate) fn view_plugin(app: &mut App) {
    app.add_plugins((
        ui::plugin,
        invite::view_plugin,
        table_view::plugin,
        connect_view::plugin,
        quick::plugin,
        my_games::plugin,
        new_game::plugin,
    ));
}
