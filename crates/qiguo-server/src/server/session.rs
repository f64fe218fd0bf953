//! One client's WebSocket session: the hello (with its version), then requests answered in
//! order and the events of the games followed passed on, each frame in the client's version's
//! shape; refusals counted, bad frames limited, silent clients pinged, the player's slots held
//! until it ends.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, close_code};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

use super::{BAD_FRAMES_ALLOWED, REFUSALS_LOGGED, SEND_WITHIN};
use crate::admission::{Admission, Rated, Slot};
use crate::hub::Hub;
use crate::log::note;
use crate::log::{Repeats, escaped};
use crate::protocol::{Answer, Ask, ClientFrame, Event, Identity, PROTOCOL_VERSION, ServerFrame};
use crate::protocol::{LobbyView, Refusal, refused_in_old_shape, versions};
use crate::store::{GameId, PlayerId};

/// One client's connection.
pub(super) struct Session {
    hub: Arc<Hub>,
    admission: Arc<Admission>,
    peer: SocketAddr,
    socket: WebSocket,
    player: Option<(PlayerId, String)>,
    /// The player's place among their connections, held while signed in.
    player_slot: Option<Slot>,
    /// The refusals written to the log, and those only counted.
    refusals: Repeats,
    outbox: mpsc::Sender<ServerFrame>,
    /// The games followed, each with the task passing on its events and whether the player
    /// counts as present in it.
    following: HashMap<GameId, (JoinHandle<()>, bool)>,
    personal: Option<JoinHandle<()>>,
    /// Passes the lobby's changes on, while the client follows it.
    lobby: Option<JoinHandle<()>>,
    bad_frames: u32,
    /// The players whose table talk this player muted: their lines are not passed on.
    muted: Muted,
    /// The protocol version the client said hello in: frames go to it in that version's shape.
    version: u32,
}

/// Players muted by a session's player, shared with the tasks passing on its games' events.
type Muted = Arc<std::sync::RwLock<HashSet<PlayerId>>>;

/// What to do with the connection after a frame.
enum Next {
    Go,
    Close,
}

impl Session {
    pub(super) async fn run(
        hub: Arc<Hub>,
        admission: Arc<Admission>,
        peer: SocketAddr,
        socket: WebSocket,
    ) {
        let (outbox, mut out) = mpsc::channel(256);
        let mut session = Session {
            hub,
            admission,
            peer,
            socket,
            player: None,
            player_slot: None,
            refusals: Repeats::writing("refusals", REFUSALS_LOGGED),
            outbox,
            following: HashMap::new(),
            personal: None,
            lobby: None,
            bad_frames: 0,
            muted: Muted::default(),
            version: PROTOCOL_VERSION,
        };
        let limits = session.admission.limits();
        let (hello_within, ping_after) = (limits.hello_within, limits.ping_after);
        let hello_by = tokio::time::Instant::now() + hello_within;
        let mut closing = session.hub.closing();
        // Heard from last; pinged when silent for `ping_after`, closed when silent for twice.
        let mut heard = tokio::time::Instant::now();
        let mut pinged = false;
        loop {
            if *closing.borrow_and_update() {
                session.going_away().await;
                break;
            }
            let quiet_until = heard + if pinged { 2 * ping_after } else { ping_after };
            let next = tokio::select! {
                frame = session.socket.recv() => {
                    heard = tokio::time::Instant::now();
                    pinged = false;
                    match frame {
                    Some(Ok(Message::Text(text))) => session.read(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => {
                        session.refuse_frame("frames are JSON text".into()).await
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Next::Go,
                    Some(Ok(Message::Close(_))) | None => Next::Close,
                    Some(Err(e)) => {
                        note!(session.hub.log(), INFO, "connection lost", why = e);
                        Next::Close
                    }
                }},
                Some(frame) = out.recv() => session.send(frame).await,
                () = tokio::time::sleep_until(hello_by), if session.player.is_none() => {
                    note!(session.hub.log(), INFO, "said no hello in time");
                    Next::Close
                }
                () = tokio::time::sleep_until(quiet_until), if session.player.is_some() => {
                    if pinged {
                        note!(session.hub.log(), INFO, "answered nothing, not even a ping; closed");
                        session.close_idle().await;
                        Next::Close
                    } else {
                        pinged = true;
                        session.ping().await
                    }
                }
                _ = closing.changed() => Next::Go,
            };
            if let Next::Close = next {
                break;
            }
        }
        session.end();
    }

    /// Closes the connection because the server shuts down (WebSocket code 1001, going away);
    /// the client may connect again to another server or later.
    async fn going_away(&mut self) {
        let close = Message::Close(Some(CloseFrame {
            code: close_code::AWAY,
            reason: "the server is shutting down".into(),
        }));
        let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(close)).await;
        note!(self.hub.log(), INFO, "closed: the server is shutting down");
    }

    /// Asks a silent client to show it is there (browsers and tungstenite answer by themselves).
    async fn ping(&mut self) -> Next {
        let ping = Message::Ping(Default::default());
        match tokio::time::timeout(SEND_WITHIN, self.socket.send(ping)).await {
            Ok(Ok(())) => Next::Go,
            _ => Next::Close,
        }
    }

    /// Closes a session that answered nothing (WebSocket code 1001: it may connect again).
    async fn close_idle(&mut self) {
        let close = Message::Close(Some(CloseFrame {
            code: close_code::AWAY,
            reason: "idle: nothing heard, not even an answer to a ping".into(),
        }));
        let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(close)).await;
    }

    async fn send(&mut self, frame: ServerFrame) -> Next {
        // In the shape of the client's version; nothing of what it does not know.
        let Some(text) = versions::frame_for(self.version, &frame) else {
            return Next::Go;
        };
        match tokio::time::timeout(SEND_WITHIN, self.socket.send(Message::Text(text.into()))).await
        {
            Ok(Ok(())) => Next::Go,
            Ok(Err(_)) => Next::Close,
            Err(_) => {
                note!(
                    self.hub.log(),
                    INFO,
                    "does not read what it is sent; closed"
                );
                Next::Close
            }
        }
    }

    async fn refuse(&mut self, req: u64, refusal: Refusal, closing: bool) -> Next {
        // What a refusal says may hold what the client sent: escaped, and counted in floods.
        self.hub.metrics().refused(&refusal);
        if self.refusals.admit(self.hub.log()) {
            let why = escaped(&refusal.to_string());
            note!(
                self.hub.log(),
                INFO,
                "refused",
                code = refusal.code(),
                why = why
            );
        }
        let sent = self.send(ServerFrame::refused(req, refusal, closing)).await;
        if closing { Next::Close } else { sent }
    }

    async fn refuse_frame(&mut self, why: String) -> Next {
        self.bad_frames += 1;
        let closing = self.bad_frames > BAD_FRAMES_ALLOWED || self.player.is_none();
        self.refuse(0, Refusal::BadFrame { why }, closing).await
    }

    /// Refuses a client of another protocol version and closes: in the shape of a refusal its
    /// version reads (versions before 3 know no refusal codes).
    async fn refuse_version(&mut self, req: u64, client: u64) -> Next {
        let refusal = Refusal::Version {
            server: PROTOCOL_VERSION,
            client,
        };
        if client >= 3 {
            return self.refuse(req, refusal, true).await;
        }
        note!(
            self.hub.log(),
            INFO,
            "refused",
            code = refusal.code(),
            why = escaped(&refusal.to_string())
        );
        let text = refused_in_old_shape(req, &refusal.to_string(), true);
        let _ =
            tokio::time::timeout(SEND_WITHIN, self.socket.send(Message::Text(text.into()))).await;
        Next::Close
    }

    async fn read(&mut self, text: &str) -> Next {
        let frame: ClientFrame = match serde_json::from_str(text) {
            Ok(frame) => frame,
            Err(e) => {
                // A client of another version says hello differently: tell it so.
                if let Some(version) = hello_version(text)
                    && !u32::try_from(version).is_ok_and(versions::served)
                {
                    return self.refuse_version(0, version).await;
                }
                return self.refuse_frame(e.to_string()).await;
            }
        };
        self.bad_frames = 0;
        let req = frame.req;
        let answer = match (&self.player, frame.ask) {
            (
                None,
                Ask::Hello {
                    version,
                    identity,
                    language,
                },
            ) => {
                if !versions::served(version) {
                    return self.refuse_version(req, u64::from(version)).await;
                }
                self.version = version;
                if let Identity::New { .. } = identity
                    && let Err(e) = self.admission.rate(Rated::NewPlayer, self.peer.ip())
                {
                    return self.refuse(req, e, true).await;
                }
                match self.hub.sign_in.check(&identity).await {
                    Ok((id, name, key)) => {
                        match self.admission.player_slot(&id) {
                            Ok(slot) => self.player_slot = Some(slot),
                            Err(e) => return self.refuse(req, e, true).await,
                        }
                        // The connection's lines carry the player from here on.
                        tracing::Span::current().record("player", tracing::field::display(&id.0));
                        note!(
                            self.hub.log(),
                            INFO,
                            "signed in",
                            player = id.0,
                            name = escaped(&name),
                            protocol = version
                        );
                        self.hub.metrics().session(true);
                        self.player = Some((id.clone(), name.clone()));
                        *write(&self.muted) = self.hub.talk.muted_by(&id).await;
                        if let Some(language) = &language {
                            self.hub.note_language(&id, language).await;
                        }
                        self.listen_personal(&id);
                        Ok(Answer::Welcome {
                            version: PROTOCOL_VERSION,
                            player: id,
                            name,
                            key,
                        })
                    }
                    Err(e) => return self.refuse(req, e, true).await,
                }
            }
            (None, _) => {
                return self.refuse(req, Refusal::HelloFirst, true).await;
            }
            (Some(_), Ask::Hello { .. }) => Err(Refusal::AlreadySignedIn),
            (Some((player, _)), ask) => {
                let player = player.clone();
                let hub = self.hub.clone();
                // Held while the answer commits; a shutdown waits for it.
                let Some(_open) = hub.hold().await else {
                    return self.refuse(req, Refusal::ShuttingDown, true).await;
                };
                self.answer(&player, ask).await
            }
        };
        match answer {
            Ok(answer) => self.send(ServerFrame::Reply { req, answer }).await,
            Err(e) => self.refuse(req, e, false).await,
        }
    }

    async fn answer(&mut self, player: &PlayerId, ask: Ask) -> Result<Answer, Refusal> {
        let hub = self.hub.clone();
        // A request of a later version than the client's: it could not read the answer.
        if !versions::knows(self.version, &ask) {
            return Err(Refusal::BadFrame {
                why: format!("not a request of protocol version {}", self.version),
            });
        }
        let rated = match &ask {
            Ask::Create { .. }
            | Ask::Rematch { .. }
            | Ask::Quick { .. }
            | Ask::CreateTable { .. } => Some(Rated::NewGame),
            // Tables are found by id in the lobby, as games by code: rated alike.
            Ask::Join { .. }
            | Ask::Watch { .. }
            | Ask::JoinTable { .. }
            | Ask::LeaveTable { .. } => Some(Rated::Code),
            _ => None,
        };
        if let Some(kind) = rated {
            self.admission.rate(kind, self.peer.ip())?;
        }
        if let Ask::Say { .. } | Ask::Report { .. } = ask {
            self.admission.rate_talk(player)?;
        }
        match ask {
            Ask::Hello { .. } => Err(Refusal::AlreadySignedIn),
            Ask::Create { game } => hub.core.create(player, game).await,
            Ask::Quick { pace } => {
                let seat = hub.quick.quick(player, pace).await?;
                self.follow(&seat.view.id, seat.events, true);
                Ok(Answer::Seated {
                    kingdom: seat.kingdom,
                    took_over: seat.took_over,
                    game: Box::new(seat.view),
                })
            }
            Ask::Join { code, kingdom } => {
                let (view, events) = hub.core.join(player, &code, kingdom).await?;
                self.follow(&view.id, events, true);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Open { game } => {
                let (view, events) = hub.core.open(player, &game).await?;
                self.follow(&view.id, events, true);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Watch { code } => {
                let (view, events) = hub.core.watch(player, &code).await?;
                self.follow(&view.id, events, false);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Close { game } => {
                self.unfollow(&game);
                Ok(Answer::Done)
            }
            Ask::Games {} => Ok(Answer::Games {
                games: hub.core.games(player).await?,
            }),
            Ask::Finished { page } => hub.after.finished(player, page).await,
            Ask::Ratings { family, of } => hub.ratings.ratings(player, family, of.as_deref()).await,
            Ask::Review { game } => hub.reviews.review(player, game).await,
            Ask::Puzzle { which } => hub.puzzles.puzzle(player, which).await,
            Ask::PuzzleTried { id, solved } => hub.puzzles.tried(player, &id, solved).await,
            Ask::ClubCreate { spec } => hub.clubs.create(player, &spec).await,
            Ask::ClubJoin { name } => hub.clubs.join(player, &name).await,
            Ask::ClubLeave { name } => hub.clubs.leave(player, &name).await,
            Ask::Club { name } => hub.clubs.show(player, &name).await,
            Ask::Clubs { search } => hub.clubs.list(player, search.as_deref()).await,
            Ask::ClubMember {
                name,
                player: who,
                action,
            } => hub.clubs.member(player, &name, &who, action).await,
            Ask::ClubPost { name, text } => hub.clubs.post(player, &name, &text).await,
            Ask::ClubNewsWanted { name, wanted } => {
                hub.clubs.news_wanted(player, &name, wanted).await
            }
            Ask::EveningCreate { spec } => hub.evenings.create(player, &spec).await,
            Ask::EveningCome { evening, coming } => {
                hub.evenings.come(player, &evening, coming).await
            }
            Ask::EveningCancel { evening } => hub.evenings.cancel(player, &evening).await,
            Ask::Evenings { club } => hub.evenings.list(player, club.as_deref()).await,
            Ask::TournamentCreate { spec } => hub.tournaments.create(player, &spec).await,
            Ask::TournamentJoin { name } => hub.tournaments.join(player, &name).await,
            Ask::TournamentLeave { name } => hub.tournaments.leave(player, &name).await,
            Ask::Tournament { name } => hub.tournaments.show(player, &name).await,
            Ask::Tournaments { club } => hub.tournaments.list(player, club.as_deref()).await,
            Ask::Block { name, block } => {
                let other = hub.conduct.block(player, &name, block).await?;
                // Their table talk is hidden from now on, as for a mute.
                let mut set = write(&self.muted);
                if block {
                    set.insert(other);
                } else {
                    set.remove(&other);
                }
                Ok(Answer::Done)
            }
            Ask::Report { name, game, reason } => {
                hub.conduct
                    .report(player, &name, game.as_ref(), &reason)
                    .await?;
                Ok(Answer::Done)
            }
            Ask::Lobby { follow } => {
                let (view, changes) = hub.lobby.follow();
                self.follow_lobby(follow.then_some(changes));
                Ok(Answer::Lobby(Box::new(view)))
            }
            Ask::CreateTable { table, club } => Ok(Answer::Table(Box::new(
                hub.lobby
                    .create_table(player, &table, club.as_deref())
                    .await?,
            ))),
            Ask::JoinTable { table } => Ok(Answer::Table(Box::new(
                hub.lobby.join_table(player, &table).await?,
            ))),
            Ask::LeaveTable { table } => {
                hub.lobby.leave_table(player, &table).await?;
                Ok(Answer::Done)
            }
            Ask::Rematch { game } => hub.after.rematch(player, &game).await,
            Ask::Move { game, ply, mv } => {
                let ply = hub.core.play(player, &game, ply, &mv).await?;
                Ok(Answer::Moved { ply })
            }
            Ask::TakeBack { game, ply } => hub.core.ask_take_back(player, &game, ply).await,
            Ask::AnswerTakeBack { game, agree } => {
                hub.core.answer_take_back(player, &game, agree).await
            }
            Ask::Say { game, text } => hub.talk.say(player, &game, &text).await,
            Ask::Away { until } => hub.holidays.away(player, until.as_deref()).await,
            Ask::Holidays {} => hub.holidays.holidays(player).await,
            Ask::Mail {} => Ok(Answer::Mail(hub.mail.mail_view(player).await?)),
            Ask::SetMail { address, digest } => {
                hub.mail.set_mail(player, address.as_deref(), digest).await
            }
            Ask::Push {} => Ok(Answer::Push(hub.push.push_view(player).await?)),
            Ask::Subscribe {
                endpoint,
                p256dh,
                auth,
            } => {
                let device = crate::push::Subscription {
                    endpoint,
                    p256dh,
                    auth,
                };
                hub.push.subscribe(player, device).await
            }
            Ask::Unsubscribe { endpoint } => hub.push.unsubscribe(player, &endpoint).await,
            Ask::Talk { game, before } => {
                let follows = self.following.contains_key(&game);
                hub.talk.talk(player, &game, before, follows).await
            }
            Ask::Mute { game, seat, mute } => {
                let follows = self.following.contains_key(&game);
                let muted = hub.talk.mute(player, &game, seat, mute, follows).await?;
                let mut set = write(&self.muted);
                if mute {
                    set.insert(muted);
                } else {
                    set.remove(&muted);
                }
                Ok(Answer::Done)
            }
        }
    }

    /// Passes a game's events to the client from now on; `present` when the hub counts the
    /// player as having it open (joined or opened, not watched).
    fn follow(&mut self, game: &GameId, events: broadcast::Receiver<Event>, present: bool) {
        self.unfollow(game);
        let task = tokio::spawn(forward(
            game.clone(),
            events,
            self.outbox.clone(),
            self.muted.clone(),
        ));
        self.following.insert(game.clone(), (task, present));
    }

    fn unfollow(&mut self, game: &GameId) {
        if let Some((task, present)) = self.following.remove(game) {
            task.abort();
            if present && let Some((player, _)) = &self.player {
                self.hub.core.follow(game, player, false);
            }
        }
    }

    /// Passes the lobby on as it changes (the latest view only, however slowly the client
    /// reads), or (`changes: None`) no more.
    fn follow_lobby(&mut self, changes: Option<tokio::sync::watch::Receiver<LobbyView>>) {
        if let Some(task) = self.lobby.take() {
            task.abort();
        }
        let Some(mut changes) = changes else {
            return;
        };
        let outbox = self.outbox.clone();
        self.lobby = Some(tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                let view = Box::new(changes.borrow_and_update().clone());
                let event = Event::Lobby(view);
                if outbox.send(ServerFrame::Event { event }).await.is_err() {
                    return;
                }
            }
        }));
    }

    /// Passes the player's own events on: first their games' turns waiting for them, told
    /// again (the channel is listened to before they are read, so that a turn made meanwhile is
    /// told, if twice, then with the same ply), then whatever comes.
    fn listen_personal(&mut self, player: &PlayerId) {
        let mut events = self.hub.personal(player);
        let outbox = self.outbox.clone();
        let (hub, player) = (self.hub.clone(), player.clone());
        self.personal = Some(tokio::spawn(async move {
            match hub.core.turns_waiting(&player).await {
                Ok(turns) => {
                    for event in turns {
                        if outbox.send(ServerFrame::Event { event }).await.is_err() {
                            return;
                        }
                    }
                }
                Err(e) => note!(hub.log(), WARN, "turns waiting not told again", why = e),
            }
            loop {
                match events.recv().await {
                    Ok(event) => {
                        if outbox.send(ServerFrame::Event { event }).await.is_err() {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        }));
    }

    fn end(mut self) {
        let games: Vec<GameId> = self.following.keys().cloned().collect();
        for game in games {
            self.unfollow(&game);
        }
        if let Some(task) = self.personal.take() {
            task.abort();
        }
        if let Some(task) = self.lobby.take() {
            task.abort();
        }
        self.refusals.flush(self.hub.log());
        if self.player.is_some() {
            self.hub.metrics().session(false);
        }
        note!(self.hub.log(), INFO, "left");
    }
}

/// The set of muted players, to read or change (one a panic left behind is as good as any).
fn write(muted: &Muted) -> std::sync::RwLockWriteGuard<'_, HashSet<PlayerId>> {
    muted
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Passes a game's events to a session's outbox, but for the table talk of players it
/// `muted`; a follower that fell behind is told to read the game afresh.
async fn forward(
    game: GameId,
    mut events: broadcast::Receiver<Event>,
    outbox: mpsc::Sender<ServerFrame>,
    muted: Muted,
) {
    loop {
        let event = match events.recv().await {
            Ok(Event::Said { line, .. })
                if line.author.as_ref().is_some_and(|author| {
                    muted
                        .read()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .contains(author)
                }) =>
            {
                continue;
            }
            Ok(event) => event,
            Err(broadcast::error::RecvError::Lagged(_)) => Event::Stale { game: game.clone() },
            Err(broadcast::error::RecvError::Closed) => return,
        };
        if outbox.send(ServerFrame::Event { event }).await.is_err() {
            return;
        }
    }
}

/// The version in a hello that does not read as this version's hello.
fn hello_version(text: &str) -> Option<u64> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let ask = value.get("ask")?;
    (ask.get("type")?.as_str()? == "hello").then_some(())?;
    ask.get("version")?.as_u64()
}
