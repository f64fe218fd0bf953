//! The core's second file: the requests that change a game — games created and joined, moves
//! checked on the game's core, stored and told, take-backs asked, answered and carried out.

use std::sync::Arc;

use qiguo_protocol::RatingFamily;
use qiguo_rating::Rating;
use qiguo_rules::{Kingdom, notation};
use tokio::sync::broadcast;

use super::core::Core;
use super::{Live, Shared, shown_name};
use crate::live::Mover;
use crate::log::{escaped, note};
use crate::protocol::{Answer, Event, GameSummary, GameView, MAX_MOVE_BYTES, NewGame, Refusal};
use crate::store::{GameId, PlayerId, SeatPlan, StoreError};

impl Core {
    // ----- Games -----

    /// Creates a game by `player`.
    pub(crate) async fn create(
        self: &Arc<Self>,
        player: &PlayerId,
        new: NewGame,
    ) -> Result<Answer, Refusal> {
        let new = new.cleaned()?;
        self.room_for_a_game(player).await?;
        let created = self.store.create_game(player, &new).await?;
        let stored = self.store.load_game(&created.id).await?;
        self.insert(stored, 0);
        note!(
            self.log,
            INFO,
            "game created",
            game = created.id.0,
            by = player.0
        );
        self.wake(&created.id);
        Ok(Answer::Created {
            game: created.id,
            code: created.code,
        })
    }

    /// Takes the seat of `kingdom` in the game of `code` for `player` (or opens it, if theirs).
    pub(crate) async fn join(
        self: &Arc<Self>,
        player: &PlayerId,
        code: &str,
        kingdom: Kingdom,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let id = self.by_code(code).await?;
        let live = self.live(&id).await?;
        let mut g = live.lock().await;
        let seat = g
            .game
            .game()
            .start_position()
            .seats()
            .player(kingdom)
            .ok_or(Refusal::NoSuchSeat { kingdom })?;
        let held = g.game.seats()[usize::from(seat)].clone();
        if held.holder.as_ref() != Some(player) {
            if g.game.is_over() {
                return Err(Refusal::InvitationExpired);
            }
            if held.holder.is_some() || held.plan != SeatPlan::Open {
                return Err(Refusal::SeatNotOpen { kingdom });
            }
            if g.game.seats_of(player).is_empty() {
                self.room_for_a_game(player).await?;
            }
            let name = shown_name(&self.store.take_seat(&id, seat, player).await?);
            let rating = self.rating_held(player, g.game.family()).await?;
            let seated = g.game.seat(seat, player, &name, rating);
            g.tell(seated);
            note!(
                self.log,
                INFO,
                "seat taken",
                game = id.0,
                seat = seat,
                by = player.0,
                name = escaped(&name)
            );
        }
        self.follow(&id, player, true);
        let view = g
            .game
            .view(Some(player), &self.present(&g.game), self.store.now());
        let rx = g.subscribe();
        drop(g);
        self.wake(&id);
        Ok((view, rx))
    }

    /// Opens a game in which `player` holds a seat.
    pub(crate) async fn open(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let live = self.game_of_yours(id).await?;
        let mut g = live.lock().await;
        if g.game.seats_of(player).is_empty() {
            return Err(Refusal::NoGame);
        }
        self.follow(id, player, true);
        let view = g
            .game
            .view(Some(player), &self.present(&g.game), self.store.now());
        Ok((view, g.subscribe()))
    }

    /// `player` follows the game of `code` read-only (their own seats in it marked as theirs,
    /// so that a link to a game they play in opens it as theirs).
    pub(crate) async fn watch(
        &self,
        player: &PlayerId,
        code: &str,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let id = self.by_code(code).await?;
        let live = self.live(&id).await?;
        let mut g = live.lock().await;
        let view = g
            .game
            .view(Some(player), &self.present(&g.game), self.store.now());
        Ok((view, g.subscribe()))
    }

    /// `player`'s rating in `family`, as kept (`None`: no rated game yet).
    pub(super) async fn rating_held(
        &self,
        player: &PlayerId,
        family: RatingFamily,
    ) -> Result<Option<(Rating, u32)>, StoreError> {
        Ok(self.store.rating(player, family).await?.rating)
    }

    /// Refused when `player` already holds seats in as many unfinished games as allowed.
    pub(super) async fn room_for_a_game(&self, player: &PlayerId) -> Result<(), Refusal> {
        if self.store.games_in_progress(player).await? >= self.games_per_player {
            return Err(Refusal::TooManyGames {
                max: self.games_per_player,
            });
        }
        Ok(())
    }

    async fn by_code(&self, code: &str) -> Result<GameId, Refusal> {
        match self.store.game_by_code(code).await {
            Ok(id) => Ok(id),
            Err(StoreError::Refused(Refusal::NoGame)) => Err(Refusal::NoCode),
            Err(e) => Err(e.into()),
        }
    }

    /// `player`'s games: those waiting for their move first, then by their last move. Games
    /// held here are summed up as held; the others as the database has them, without being
    /// held.
    pub(crate) async fn games(&self, player: &PlayerId) -> Result<Vec<GameSummary>, Refusal> {
        let ids = self.store.games_of(player).await?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            let held = self.held.get(&id);
            let summary = match held {
                Some(live) => {
                    let g = live.lock().await;
                    g.game.summary(player, &self.present(&g.game))
                }
                None => {
                    let game = self.read_unheld(&id).await?;
                    game.summary(player, &self.present(&game))
                }
            };
            games.push(summary);
        }
        games.sort_by_key(|g| (!g.your_turn, g.finished, -g.since_ms));
        Ok(games)
    }

    /// The turns of `player`'s games that wait for them, told again when they sign in: a turn
    /// told while they had no connection here (a phone's page asleep, a network lost between
    /// two connections) is not lost. Each names its ply, so that a client tells it once.
    pub(crate) async fn turns_waiting(&self, player: &PlayerId) -> Result<Vec<Event>, Refusal> {
        Ok(self
            .games(player)
            .await?
            .into_iter()
            .filter(|g| g.your_turn)
            .filter_map(|g| {
                Some(Event::YourTurn {
                    kingdom: g.to_move?,
                    game: g.id,
                    ply: g.moves,
                    again: true,
                })
            })
            .collect())
    }

    // ----- Moves -----

    /// A move by `player`, as typed: refused unless it is legal, for `ply`, and theirs.
    pub(crate) async fn play(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        ply: u32,
        text: &str,
    ) -> Result<u32, Refusal> {
        if text.len() > MAX_MOVE_BYTES {
            return Err(Refusal::NotAMove {
                why: format!("longer than {MAX_MOVE_BYTES} bytes"),
            });
        }
        let mv =
            notation::parse_move(text).map_err(|e| Refusal::NotAMove { why: e.to_string() })?;
        let live = self.game_of_yours(id).await?;
        self.make(&live, Mover::Player(player), ply, mv).await
    }

    /// Makes `mv` as move `ply` of the game, for `mover`: checked, stored, applied, told.
    pub(super) async fn make(
        self: &Arc<Self>,
        live: &Shared,
        mover: Mover<'_>,
        ply: u32,
        mv: qiguo_rules::Move,
    ) -> Result<u32, Refusal> {
        let mut g = live.lock().await;
        let id = g.game.id.clone();
        let mut checked = g.game.check(mover, ply, mv, self.store.now())?;
        let mail = self.notices_due(std::mem::take(&mut checked.mail));
        let asked = std::time::Instant::now();
        match self
            .store
            .append_move(
                &id,
                ply,
                mv,
                checked.seat,
                checked.by,
                checked.ends,
                checked.due_in,
                mail,
            )
            .await
        {
            Ok(()) => {}
            Err(e @ StoreError::Refused(Refusal::MovedOn { .. } | Refusal::GameOver)) => {
                // Another server on the database got there first: read the game again.
                drop(g);
                self.refresh(&id).await;
                return Err(e.into());
            }
            Err(e) => return Err(e.into()),
        }
        self.metrics.stored(asked.elapsed());
        let now = self.store.now();
        let presence = self.present(&g.game);
        let foreseen = checked.ends;
        let events = g.game.apply(checked, now, &presence);
        let over = g.game.is_over();
        if over && !foreseen {
            // The check foresaw no end: mark it now rather than leave a game that cannot move.
            note!(
                self.log,
                ERROR,
                "game ended unforeseen by its move's check",
                game = id.0
            );
            self.store.finish(&id).await?;
        }
        for event in events {
            g.tell(event);
        }
        for player in g.game.put_out() {
            self.put_out(&id, player);
        }
        note!(
            self.log,
            INFO,
            "move",
            game = id.0,
            ply = ply + 1,
            mv = mv,
            by = match mover {
                Mover::Player(p) => p.0.as_str(),
                Mover::Computer => "computer",
                Mover::StandIn => "stand-in",
                Mover::Overdue => "overdue, passed",
            }
        );
        if over {
            note!(self.log, INFO, "game over", game = id.0);
            self.ended(&id);
        } else {
            self.tell_next(&g);
        }
        drop(g);
        self.wake(&id);
        Ok(ply)
    }

    // ----- Take-backs -----

    /// `player` asks to take back the moves from `ply` on: the other people must agree.
    pub(crate) async fn ask_take_back(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        ply: u32,
    ) -> Result<Answer, Refusal> {
        let live = self.game_of_yours(id).await?;
        let mut g = live.lock().await;
        // Checked on a copy, kept in the database for every server, then held.
        let mut next = g.game.clone();
        let asked = next.ask_take_back(player, ply)?;
        if next.take_back_agreed().is_none()
            && let Some(view) = next.take_back()
        {
            let has = next.game().len() as u32;
            self.store.keep_take_back(id, view, has, true).await?;
        }
        g.game = next;
        g.tell(asked);
        note!(
            self.log,
            INFO,
            "take-back asked",
            game = id.0,
            to_move = ply + 1,
            by = player.0
        );
        self.settle_take_back(&mut g).await?;
        Ok(Answer::Done)
    }

    /// `player` agrees to, or refuses, the take-back asked in `id`.
    pub(crate) async fn answer_take_back(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        agree: bool,
    ) -> Result<Answer, Refusal> {
        let live = self.game_of_yours(id).await?;
        let mut g = live.lock().await;
        let mut next = g.game.clone();
        if let Some(refused) = next.answer_take_back(player, agree)? {
            self.store.drop_take_back(id).await?;
            g.game = next;
            g.tell(refused);
            note!(
                self.log,
                INFO,
                "take-back refused",
                game = id.0,
                by = player.0
            );
            return Ok(Answer::Done);
        }
        if next.take_back_agreed().is_none()
            && let Some(view) = next.take_back()
        {
            let has = next.game().len() as u32;
            self.store.keep_take_back(id, view, has, false).await?;
        }
        g.game = next;
        self.settle_take_back(&mut g).await?;
        Ok(Answer::Done)
    }

    /// Takes the moves back once every person in the game agreed.
    async fn settle_take_back(&self, g: &mut Live) -> Result<(), Refusal> {
        let Some((ply, has)) = g.game.take_back_agreed() else {
            return Ok(());
        };
        let id = g.game.id.clone();
        // When the game is due once the moves are taken back, for the database.
        let mut after = g.game.clone();
        after.take_back_to(ply, self.store.now(), &[]);
        self.store.take_back(&id, ply, has, after.due_in()).await?;
        let now = self.store.now();
        let presence = self.present(&g.game);
        let taken = g.game.take_back_to(ply, now, &presence);
        g.tell(taken);
        note!(
            self.log,
            INFO,
            "moves taken back",
            game = id.0,
            from_move = ply + 1
        );
        Ok(())
    }
}
