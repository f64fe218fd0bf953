//! The connection: the link started on request (to the window's own server or one elsewhere)
//! or let go, the player's requests sent, and what the link reports read and answered.

use bevy::prelude::*;
use qiguo_protocol::link::News;

use super::link;
use qiguo_protocol::client::ClientError;
use qiguo_protocol::{Answer, Ask, Refusal};

use super::events::on_event;
use super::shared::*;
use super::table::put_on_board;
use super::words;
use crate::game::online::notify::Notifier;
use crate::game::state::{GameFromServer, Match, Notice, PlayersFromServer};
use crate::i18n::Tr;
use crate::tr;

/// Starts the link on request, or lets it go.
pub(super) fn connect_or_leave(
    mut requests: MessageReader<OnlineRequested>,
    mut online: ResMut<Online>,
    store: Option<Res<crate::game::saving::SaveStore>>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
    waker: Res<crate::game::frames::Waker>,
) {
    for request in requests.read() {
        // The data directory the game saves in (each test window has its own).
        let dir = match store.as_ref().and_then(|s| s.dir.clone()) {
            Some(dir) => Ok(dir),
            None => crate::saves::SaveDir::locate(),
        };
        let keys = match dir {
            Ok(dir) => dir.root().to_path_buf(),
            Err(e) => {
                notices.write(Notice::error(tr!(tr, "online-failed", why = e.to_string())));
                continue;
            }
        };
        let (link, address) = match request {
            OnlineRequested::Leave => {
                if online.link.is_some() {
                    *online = Online::default();
                    notices.write(Notice::done(tr.text("online-left")));
                }
                continue;
            }
            #[cfg(all(feature = "host", not(target_arch = "wasm32")))]
            OnlineRequested::OwnServer { lan, port, name } => link::own_server(
                *lan,
                *port,
                name.clone(),
                tr.language().code(),
                keys,
                waker.as_fn(),
            ),
            #[cfg(not(all(feature = "host", not(target_arch = "wasm32"))))]
            OnlineRequested::OwnServer { .. } => {
                notices.write(Notice::error(tr.text("online-no-host-in-page")));
                continue;
            }
            OnlineRequested::Remote {
                url,
                name,
                insecure_lan,
            } => (
                link::remote(
                    url,
                    name.clone(),
                    tr.language().code(),
                    keys,
                    *insecure_lan,
                    waker.as_fn(),
                ),
                url.clone(),
            ),
        };
        *online = Online {
            link: Some(link),
            status: Status::Connecting,
            address: Some(address),
            ..Online::default()
        };
    }
}

/// The window's requests, asked of the server.
pub(super) fn send_commands(
    mut commands: MessageReader<OnlineCommand>,
    mut online: ResMut<Online>,
) {
    for command in commands.read() {
        match command.clone() {
            // (The page of finished games shown is read again by its plugin.)
            OnlineCommand::RefreshGames => online.ask(Ask::Games {}, Asked::Games),
            OnlineCommand::Open(game) => {
                online.ask(Ask::Open { game }, Asked::Board { watching: false })
            }
            OnlineCommand::Create(game) => online.ask(Ask::Create { game }, Asked::Created),
            OnlineCommand::Quick(pace) => online.ask(Ask::Quick { pace }, Asked::Quick),
            OnlineCommand::Join { code, kingdom } => {
                online.ask(
                    Ask::Join { code, kingdom },
                    Asked::Board { watching: false },
                );
            }
            OnlineCommand::Watch(code) => {
                online.ask(Ask::Watch { code }, Asked::Board { watching: true })
            }
            OnlineCommand::LeaveGame => {
                if let Some(table) = online.table.take() {
                    online.inbox.clear();
                    online.ask(Ask::Close { game: table.id }, Asked::Other);
                }
            }
            OnlineCommand::Say(text) => {
                let Some(table) = &online.table else {
                    continue;
                };
                let ask = Ask::Say {
                    game: table.id.clone(),
                    text,
                };
                online.ask(ask, Asked::Other);
            }
            OnlineCommand::Mute { seat, mute } => {
                let Some(table) = &online.table else {
                    continue;
                };
                let ask = Ask::Mute {
                    game: table.id.clone(),
                    seat,
                    mute,
                };
                online.ask(ask, Asked::Muted);
            }
            OnlineCommand::Rematch(game) => online.ask(Ask::Rematch { game }, Asked::Created),
            OnlineCommand::AnswerTakeBack(agree) => {
                let Some(table) = &mut online.table else {
                    continue;
                };
                table.take_back = None;
                let ask = Ask::AnswerTakeBack {
                    game: table.id.clone(),
                    agree,
                };
                online.ask(ask, Asked::Other);
            }
        }
    }
}

/// What the server said: answers to the window's requests, and events.
pub(super) fn read_news(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut games: MessageWriter<GameFromServer>,
    mut players: MessageWriter<PlayersFromServer>,
    mut notices: MessageWriter<Notice>,
    mut notifier: ResMut<Notifier>,
    (mut answered, mut told, mut signed_in): (
        MessageWriter<Answered>,
        MessageWriter<Told>,
        MessageWriter<SignedIn>,
    ),
    tr: Res<Tr>,
) {
    let Some(link) = &online.link else {
        return;
    };
    let news = link.poll();
    if news.is_empty() {
        return;
    }
    let online = &mut *online;
    for item in news {
        match item {
            News::Serving { url } => {
                info!("the window's server listens on {url}");
                online.served = Some(url);
            }
            News::NotServing(why) => {
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-failed", why = why)));
            }
            News::Connected { name, .. } => {
                online.status = Status::Connected;
                online.name = Some(name);
                online.ask(Ask::Games {}, Asked::Games);
                signed_in.write(SignedIn);
                // Back after a lost connection: the game on the board is read again.
                reopen(online);
            }
            News::Behind { server } => {
                if !reload_for_update(server, online.table.as_ref()) {
                    notices.write(Notice::error(tr!(
                        tr,
                        "online-behind",
                        server = server,
                        client = qiguo_protocol::PROTOCOL_VERSION
                    )));
                }
            }
            News::Lost(why) => online.status = Status::Lost(why),
            News::Refused(failure) => {
                // Refused for being too old: a page takes up the server's own version.
                if let ClientError::Refused {
                    refusal: Refusal::Version { server, client },
                    ..
                } = &failure
                    && u64::from(*server) > *client
                    && reload_for_update(*server, online.table.as_ref())
                {
                    continue;
                }
                let why = words::failure_words(*tr, &failure);
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-refused", why = why)));
            }
            News::NoKeys(why) => {
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-failed", why = why)));
            }
            News::Answer { tag, result } => {
                // Not the game's own: a concern's, for its plugin.
                let Some(asked) = online.asked.remove(&tag) else {
                    answered.write(Answered { tag, result });
                    continue;
                };
                match (asked, result) {
                    (Asked::Games, Ok(Answer::Games { games })) => online.games = games,
                    (Asked::Board { watching }, Ok(Answer::Game(view))) => {
                        put_on_board(online, &view, watching, &mut games, &mut notices, &tr);
                    }
                    (
                        Asked::Quick,
                        Ok(Answer::Seated {
                            kingdom,
                            took_over,
                            game,
                        }),
                    ) => {
                        put_on_board(online, &game, false, &mut games, &mut notices, &tr);
                        notices.write(Notice::done(words::seated_words(
                            *tr,
                            kingdom,
                            took_over.as_ref(),
                        )));
                        online.ask(Ask::Games {}, Asked::Games);
                    }
                    (Asked::Created, Ok(Answer::Created { game, code })) => {
                        notices.write(Notice::done(tr!(tr, "online-created", code = code)));
                        online.ask(Ask::Open { game }, Asked::Board { watching: false });
                        online.ask(Ask::Games {}, Asked::Games);
                    }
                    (Asked::Talk, Ok(Answer::Talk { game, lines, muted })) => {
                        if let Some(table) = online.table.as_mut().filter(|t| t.id == game) {
                            table.talk = lines;
                            table.muted = muted;
                        }
                    }
                    (Asked::Muted, Ok(_)) => online.read_talk(),
                    (Asked::TakeBack, Ok(_)) => {
                        notices.write(Notice::done(tr.text("online-take-back-asked")));
                    }
                    (_, Ok(_)) => {}
                    (Asked::Move, Err(failure)) => {
                        // The move did not count: the game is read again, so the board agrees.
                        let why = words::failure_words(*tr, &failure);
                        notices.write(Notice::error(tr!(tr, "online-server-says", why = why)));
                        reopen(online);
                    }
                    (_, Err(failure)) => {
                        let why = words::failure_words(*tr, &failure);
                        notices.write(Notice::error(tr!(tr, "online-server-says", why = why)));
                    }
                }
            }
            News::Event(event) => {
                told.write(Told(event.clone()));
                on_event(
                    online,
                    event,
                    &the_match,
                    &mut players,
                    &mut notices,
                    &mut notifier,
                    &tr,
                );
            }
        }
    }
}

/// A page takes up the server's newer version by reloading, once per version, at the game it
/// showed (its key ring stays in the browser's storage); whether it does. A window cannot: it
/// says an update waits.
fn reload_for_update(server: u32, table: Option<&OnlineTable>) -> bool {
    #[cfg(target_arch = "wasm32")]
    return {
        // `/join/CODE` opens a game one plays in as one's own.
        let path = table.map(|t| {
            let path = if t.watching { "watch" } else { "join" };
            format!("/{path}/{}", t.code)
        });
        crate::browser::reload_for_update(server, path.as_deref())
    };
    #[cfg(not(target_arch = "wasm32"))]
    return {
        let _ = (server, table);
        false
    };
}
