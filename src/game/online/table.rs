//! The online game on the board: put there whole, the person's moves sent to the server, the
//! server's moves handed to the rules system in order, the seats' authority published, and the
//! moves since the player's last turn marked when a game is opened.

use bevy::prelude::*;
use qiguo_protocol::{Ask, GameView};
use qiguo_protocol::{MadeBy, SeatPlan};
use qiguo_rules::PlayerInfo;

use super::shared::*;
use crate::game::recap::Recap;
use crate::game::state::{
    GameFromServer, Match, MatchReset, MoveRequested, Mover, Notice, SeatAuthority, Turn, TurnGate,
    UndoRequested,
};
use crate::i18n::Tr;
use crate::tr;

/// The game the server sent goes on the board, whole.
pub(super) fn put_on_board(
    online: &mut Online,
    view: &GameView,
    watching: bool,
    games: &mut MessageWriter<GameFromServer>,
    notices: &mut MessageWriter<Notice>,
    tr: &Tr,
) {
    match view.record.replay() {
        Ok(game) => {
            games.write(GameFromServer {
                game,
                players: players_of(view),
            });
            online.inbox.clear();
            online.table = Some(OnlineTable {
                id: view.id.clone(),
                code: view.code.clone(),
                seats: view.seats.clone(),
                watching,
                take_back: view.take_back.clone(),
                deadline_ms: view.deadline_ms,
                record_seats: view.record.seats,
                talk: Vec::new(),
                muted: Vec::new(),
            });
            online.read_talk();
        }
        Err(e) => {
            notices.write(Notice::error(tr!(
                tr,
                "online-server-says",
                why = e.to_string()
            )));
        }
    }
}

/// The players as the server has them: the names of who took each seat.
pub(super) fn players_of(view: &GameView) -> Vec<PlayerInfo> {
    view.record
        .players
        .iter()
        .zip(&view.seats)
        .map(|(info, seat)| PlayerInfo {
            name: seat.name.clone().unwrap_or_else(|| info.name.clone()),
            computer: match seat.plan {
                SeatPlan::Computer(level) => Some(level),
                _ => None,
            },
        })
        .collect()
}

/// A person's move goes to the server instead of being played here, and a take-back is asked
/// of the other people; the rules system leaves both alone (the seat authority says so), and
/// the server's answer comes back as moves.
pub(super) fn forward_person_requests(
    mut requests: MessageReader<MoveRequested>,
    mut undos: MessageReader<UndoRequested>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    if requests.is_empty() && undos.is_empty() {
        return;
    }
    let Some(table) = online.table.clone() else {
        requests.clear();
        undos.clear();
        return;
    };
    for request in requests.read() {
        if request.by == Mover::Person {
            let ask = Ask::Move {
                game: table.id.clone(),
                ply: request.made_for.ply as u32,
                mv: request.mv.to_string(),
            };
            online.ask(ask, Asked::Move);
        }
    }
    if undos.read().count() > 0 {
        // The last move one of this window's kingdoms made, and everything after it.
        let game = the_match.game();
        let last_own = game
            .reports()
            .enumerate()
            .filter(|(n, r)| table.holds(game.position_at(*n).player_of(r.mover)))
            .map(|(n, _)| n)
            .last();
        match last_own {
            Some(ply) if !table.watching => {
                let ask = Ask::TakeBack {
                    game: table.id.clone(),
                    ply: ply as u32,
                };
                online.ask(ask, Asked::TakeBack);
            }
            _ => {
                notices.write(Notice::error(tr.text("online-nothing-to-take-back")));
            }
        }
    }
}

/// Hands the next move from the server to the rules system once the turn can take it (the
/// move before has been shown, no one is looking back, no question is open).
pub(super) fn feed_moves(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    gate: TurnGate,
    mut requests: MessageWriter<MoveRequested>,
) {
    let turn = the_match.turn();
    let Some(&(ply, mv, by)) = online.inbox.front() else {
        return;
    };
    let ply = ply as usize;
    if ply < turn.ply {
        // Already in the game (it was read whole since).
        online.inbox.pop_front();
        return;
    }
    if ply > turn.ply {
        warn!("a move from the server was missed: reading the game again");
        reopen(&mut online);
        return;
    }
    let seats = online.authority(the_match.players().len());
    let ready = gate
        .refusal_under(&the_match, Mover::Remote, &seats)
        .is_none();
    if ready {
        online.inbox.pop_front();
        // A seat's own move: its player has the game open now, whatever they had before.
        let mover = the_match
            .position()
            .player_of(the_match.position().to_move());
        if by == MadeBy::Seat
            && let Some(seat) = online.seat_mut(mover)
        {
            seat.present = true;
        }
        requests.write(MoveRequested {
            mv,
            made_for: Turn {
                generation: turn.generation,
                ply,
            },
            by: Mover::Remote,
        });
    }
}

/// Tells the rules system who decides each seat now (it knows nothing of networking).
pub(super) fn publish_seat_authority(
    online: Res<Online>,
    the_match: Res<Match>,
    mut authority: ResMut<SeatAuthority>,
) {
    if online.is_changed() || the_match.is_changed() {
        authority.set_if_neq(online.authority(the_match.players().len()));
    }
}

/// An online game put on the board (opened, joined, or read again) shows what happened since
/// this window's player last moved: the recap's arrows and marks, until the next move. (When
/// the game waits for them, their turn's own recap says the same.)
pub(super) fn recap_on_open(
    mut resets: MessageReader<MatchReset>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut recap: ResMut<Recap>,
) {
    if resets.read().count() == 0 {
        return;
    }
    let Some(table) = online.table.as_ref().filter(|t| !t.watching) else {
        return;
    };
    let game = the_match.game();
    let since = (0..table.seats.len() as u8)
        .filter(|&p| table.holds(p))
        .map(|p| Recap::since_last_turn(game, p).start)
        .max();
    if let Some(start) = since {
        recap.set_if_neq(Recap {
            turn: Some(the_match.turn()),
            moves: start..game.len(),
        });
    }
}
