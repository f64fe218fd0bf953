//! The browser's notifications for a game in a page. Browsers stop drawing frames in a
//! background tab, so the notification is raised where the server's message arrives
//! ([`heard`], called by the socket's handler), with words kept ready by a frame's system
//! ([`keep_words`]): the interface's language and the names at each game's table. Where the
//! server pushes notifications (Web Push) and the player allowed them, this device is also
//! subscribed ([`keep_subscribed`]), so that *your move* reaches it while no page is open.

use std::cell::RefCell;
use std::collections::HashMap;

use bevy::log::debug;
use bevy::prelude::*;
use qiguo_protocol::{Event, GameId, SeatPlan};

use super::{Notification, TurnsTold, your_turn};
use crate::browser::notify::{self, SubscribeError, Subscription};
use crate::game::online::push::{DeviceSubscription, OnlinePush};
use crate::game::online::shared::Online;
use crate::i18n::Tr;
use crate::tr;

/// The tag of a "your move" notification: a newer one replaces it.
const YOUR_MOVE_TAG: &str = "qiguo: your move";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, (keep_words, keep_subscribed));
}

/// In a page, only the turns told to the frames (for the game's own notice): [`heard`] has
/// raised the notification already.
#[derive(Resource, Default)]
pub(crate) struct Notifier {
    told: TurnsTold,
}

impl Notifier {
    /// Notes turn `ply` of `game`: whether it is news (see [`TurnsTold`]).
    pub(crate) fn first(&mut self, game: &GameId, ply: u32) -> bool {
        self.told.first(game, ply)
    }

    /// Another game waits for the player's move. In a page the link has said so already, where
    /// the server's message arrived ([`heard`]): a tab in the background draws no frames, so no
    /// frame's system could. Nothing more to do here.
    pub(crate) fn your_turn_elsewhere(&mut self, _words: impl FnOnce() -> Notification) {}
}

/// What the socket's handler needs to word a notification without a frame.
#[derive(Default)]
struct Words {
    tr: Tr,
    /// The online game on the board.
    board: Option<GameId>,
    /// The players at each of the player's games, as the notification names them.
    players: HashMap<GameId, String>,
}

thread_local! {
    static WORDS: RefCell<Words> = RefCell::new(Words::default());
    /// The turns [`heard`] has told.
    static TOLD: RefCell<TurnsTold> = RefCell::new(TurnsTold::default());
    /// The browser's answer to the last subscription asked.
    static SUBSCRIBED: RefCell<Option<Result<Subscription, SubscribeError>>> =
        const { RefCell::new(None) };
}

/// Keeps the words ready for [`heard`]: the language, the game on the board and the players of
/// the player's games, whenever they change.
fn keep_words(online: Res<Online>, tr: Res<Tr>) {
    if !online.is_changed() && !tr.is_changed() {
        return;
    }
    let tr = *tr;
    let mut players: HashMap<GameId, String> = online
        .games
        .iter()
        .map(|g| (g.id.clone(), g.players.join(", ")))
        .collect();
    // The game on the board as its seats stand now (the list of games is read only now and
    // then: a game joined since is not in it yet).
    if let Some(table) = &online.table {
        let names: Vec<String> = table
            .seats
            .iter()
            .map(|seat| match (&seat.name, seat.plan) {
                (Some(name), _) => name.clone(),
                (None, SeatPlan::Computer(level)) => {
                    tr!(tr, "computer-level", level = tr.level(level))
                }
                (None, _) => tr.text("seat-open"),
            })
            .collect();
        players.insert(table.id.clone(), names.join(", "));
    }
    WORDS.set(Words {
        tr,
        board: online.table.as_ref().map(|t| t.id.clone()),
        players,
    });
}

/// An event just arrived from the server: a turn of the player's that they are not looking at
/// is told through a notification (if the player allowed them), once. A turn told again at
/// sign-in began before this connection: it is news only to a player not looking at the page
/// (one looking sees it in their list of games).
pub(crate) fn heard(event: &Event) {
    let Event::YourTurn {
        game,
        kingdom,
        ply,
        again,
    } = event
    else {
        return;
    };
    if !TOLD.with_borrow_mut(|told| told.first(game, *ply)) {
        debug!(ply, "a turn told before: no notification");
        return;
    }
    let hidden = notify::hidden();
    let words = WORDS.with_borrow(|words| {
        let on_board = words.board.as_ref() == Some(game);
        let unseen = if *again { hidden } else { hidden || !on_board };
        unseen.then(|| {
            let players = words.players.get(game).map_or("", String::as_str);
            your_turn(words.tr, *kingdom, players)
        })
    });
    match words {
        Some(words) => {
            info!(hidden, again, "your move elsewhere: a notification");
            notify::show(&words.summary, &words.body, YOUR_MOVE_TAG);
        }
        None => debug!("your move on the board: no notification"),
    }
}

/// Keeps this device subscribed to the server's notifications while the player allows them:
/// once the server has said it pushes (and with which key), the browser's subscription for
/// that key is made (or found) and given to the server, once a key.
fn keep_subscribed(
    push: Res<OnlinePush>,
    time: Res<Time>,
    mut devices: MessageWriter<DeviceSubscription>,
    mut subscribed_for: Local<Option<String>>,
    mut look_again: Local<Option<Timer>>,
) {
    let Some(key) = push.offered_key() else {
        return;
    };
    if subscribed_for.as_deref() == Some(key) {
        match SUBSCRIBED.take() {
            Some(Ok(device)) => {
                devices.write(DeviceSubscription::Subscribe {
                    endpoint: device.endpoint,
                    p256dh: device.keys.p256dh,
                    auth: device.keys.auth,
                });
            }
            Some(Err(why)) => debug!("no push subscription: {why}"),
            None => {}
        }
        return;
    }
    // Whether the player allowed notifications is asked of the browser once a second, not
    // every frame (they allow them with a click in *Online…*, or in the browser's settings).
    let timer = look_again.get_or_insert_with(|| Timer::from_seconds(1.0, TimerMode::Repeating));
    if !timer.tick(time.delta()).just_finished() && !push.is_changed() {
        return;
    }
    if !notify::allowed() || !notify::pushable() {
        return;
    }
    if notify::subscribe(key, |answer| SUBSCRIBED.set(Some(answer))) {
        *subscribed_for = Some(key.to_owned());
    }
}
