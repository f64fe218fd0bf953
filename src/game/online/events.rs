//! What the server tells of the games followed and of the player: moves, seats taken, presence,
//! take-backs, games to read again, another game waiting for the player's move.

use bevy::prelude::*;
use qiguo_protocol::{Ask, Event};
use qiguo_protocol::{GameId, MadeBy};
use qiguo_rules::notation;

use super::shared::*;
use crate::game::online::notify::{self, Notifier};
use crate::game::state::{Match, Notice, PlayersFromServer};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn on_event(
    online: &mut Online,
    event: Event,
    the_match: &Match,
    players: &mut MessageWriter<PlayersFromServer>,
    notices: &mut MessageWriter<Notice>,
    notifier: &mut Notifier,
    tr: &Tr,
) {
    let on_board = |game: &GameId| online.table.as_ref().is_some_and(|t| t.id == *game);
    match event {
        Event::Moved {
            game,
            ply,
            mv,
            by,
            deadline_ms,
            ..
        } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.deadline_ms = deadline_ms;
                table.take_back = None;
            }
            match (by, notation::parse_move(&mv)) {
                (MadeBy::OverduePass, _) | (_, Err(_)) => reopen(online),
                (by, Ok(mv)) => online.inbox.push_back((ply, mv, by)),
            }
        }
        Event::Seated {
            game,
            seat,
            name,
            rating,
        } if on_board(&game) => {
            if let Some(s) = online.seat_mut(seat) {
                s.name = Some(name.clone());
                s.rating = rating;
                // A computer's seat taken over by a person (quick play) is a person's now.
                if matches!(s.plan, qiguo_protocol::SeatPlan::Computer(_)) {
                    s.plan = qiguo_protocol::SeatPlan::Open;
                }
                let mut named = the_match.players().to_vec();
                if let Some(p) = named.get_mut(usize::from(seat)) {
                    p.name = name.clone();
                    p.computer = None;
                    players.write(PlayersFromServer(named));
                }
            }
            notices.write(Notice::done(tr!(tr, "online-seated", name = name)));
        }
        Event::Replaced {
            game,
            seat,
            level,
            name,
        } if on_board(&game) => {
            if let Some(s) = online.seat_mut(seat) {
                s.plan = qiguo_protocol::SeatPlan::Computer(level);
                s.name = None;
                s.rating = None;
            }
            let mut named = the_match.players().to_vec();
            if let Some(p) = named.get_mut(usize::from(seat)) {
                p.computer = Some(level);
                players.write(PlayersFromServer(named));
            }
            let kingdom = the_match
                .game()
                .start_position()
                .seats()
                .kingdoms_of(seat)
                .iter()
                .next();
            if let Some(kingdom) = kingdom {
                notices.write(Notice::done(tr!(
                    tr,
                    "online-replaced",
                    name = name,
                    kingdom = tr.kingdom(kingdom)
                )));
            }
        }
        Event::Presence {
            game,
            seat,
            present,
        } if on_board(&game) => {
            if let Some(s) = online.seat_mut(seat) {
                s.present = present;
            }
        }
        Event::TakeBackAsked { game, take_back } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.take_back = Some(take_back);
            }
        }
        Event::TakeBackRefused { game } if on_board(&game) => {
            if let Some(table) = &mut online.table
                && table.take_back.take().is_some()
            {
                notices.write(Notice::error(tr.text("online-take-back-refused")));
            }
        }
        Event::TakenBack { game, .. } | Event::Stale { game } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.take_back = None;
            }
            reopen(online);
        }
        Event::Said { game, line } if on_board(&game) => {
            if let Some(table) = &mut online.table
                && table.talk.last().is_none_or(|last| last.n < line.n)
            {
                table.talk.push(line);
            }
        }
        Event::Away {
            game,
            seat,
            until,
            deadline_ms,
        } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.deadline_ms = deadline_ms;
            }
            if let Some(s) = online.seat_mut(seat) {
                s.away_until = until;
            }
        }
        Event::Rematch { by, .. } => {
            notices.write(Notice::done(tr!(tr, "online-rematch-offered", name = by)));
            online.ask(Ask::Games {}, Asked::Games);
        }
        Event::YourTurn {
            game,
            kingdom,
            ply,
            again,
        } => {
            // Each turn is told once. One told again at sign-in is in the list of games, asked
            // at every sign-in (a page in a hidden tab has had its notification from the link
            // already); one told as it comes lists the games again.
            let news = notifier.first(&game, ply);
            if again {
                return;
            }
            if news && !on_board(&game) {
                notices.write(Notice::done(tr.text("online-your-turn-elsewhere")));
                notifier.your_turn_elsewhere(|| {
                    let players = online
                        .games
                        .iter()
                        .find(|g| g.id == game)
                        .map(|g| g.players.join(", "))
                        .unwrap_or_default();
                    notify::your_turn(*tr, kingdom, &players)
                });
            }
            online.ask(Ask::Games {}, Asked::Games);
        }
        _ => {}
    }
}
