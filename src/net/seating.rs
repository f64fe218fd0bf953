//! Who holds which seat on a host: the tokens given to players' machines, which machine holds
//! each seat now, and the checks every join and move request passes before the game sees it.
//! Shared by the host without a window ([`super::host`]) and a game window that hosts
//! ([`crate::game::online`]).

use bevy::prelude::Entity;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Move, PlayerInfo, Seats, notation};

use super::protocol::{
    Hand, Join, MAX_MOVE_BYTES, MAX_TOKEN_BYTES, Play, Table, TableSeat, clean_name, new_token,
};

/// A person seat taken over the network.
#[derive(Debug, Clone, PartialEq)]
pub struct Holder {
    /// The token that takes the seat back.
    pub token: String,
    /// The machine holding it now; `None` while it is gone.
    pub client: Option<Entity>,
    /// When it left, in seconds of app time (a seat kept from an earlier run of the host
    /// counts from the host's start).
    pub gone_since: f32,
    /// Whether a stand-in computer is playing the seat meanwhile.
    pub stood_in: bool,
}

/// The seats taken over the network, by player number.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seating {
    holders: Vec<Option<Holder>>,
}

/// The kingdoms of `player` in `seats`.
pub fn kingdoms_of(seats: &Seats, player: usize) -> Vec<Kingdom> {
    Kingdom::ALL
        .into_iter()
        .filter(|k| seats.player(*k).map(usize::from) == Some(player))
        .collect()
}

impl Seating {
    /// `count` players, with the tokens kept from an earlier run (by player number).
    pub fn new(count: usize, tokens: &[Option<String>]) -> Seating {
        let holders = (0..count)
            .map(|i| {
                tokens.get(i).cloned().flatten().map(|token| Holder {
                    token,
                    client: None,
                    gone_since: 0.0,
                    stood_in: false,
                })
            })
            .collect();
        Seating { holders }
    }

    /// The tokens, by player number (to keep beside the record).
    pub fn tokens(&self) -> Vec<Option<String>> {
        self.holders
            .iter()
            .map(|h| h.as_ref().map(|h| h.token.clone()))
            .collect()
    }

    /// Who holds `player`'s seat over the network, if anyone.
    pub fn holder(&self, player: usize) -> Option<&Holder> {
        self.holders.get(player)?.as_ref()
    }

    /// The same, to change.
    pub fn holder_mut(&mut self, player: usize) -> Option<&mut Holder> {
        self.holders.get_mut(player)?.as_mut()
    }

    /// The player numbers `client` holds.
    pub fn seats_of(&self, client: Entity) -> Vec<usize> {
        (0..self.holders.len())
            .filter(|&p| self.holder(p).is_some_and(|h| h.client == Some(client)))
            .collect()
    }

    /// Decides a join from `client`: the token and player numbers given, or why not. `open`
    /// says whether a player's seat may be taken by a new machine (a person seat, not played
    /// at the host's screen); a valid token takes its seats back whatever plays them now.
    /// A newcomer's name goes into `players`.
    pub fn admit(
        &mut self,
        client: Entity,
        join: &Join,
        seats: &Seats,
        players: &mut [PlayerInfo],
        open: impl Fn(usize) -> Result<(), String>,
    ) -> Result<(String, Vec<usize>), String> {
        let name = clean_name(&join.name).ok_or("a player needs a name")?;
        // A machine already in takes its seats again (a repeated join).
        let already = self.seats_of(client);
        if let Some(&first) = already.first() {
            let token = self.holder(first).map(|h| h.token.clone());
            return Ok((token.unwrap_or_default(), already));
        }
        if let Some(token) = join.token.as_deref().filter(|t| t.len() <= MAX_TOKEN_BYTES) {
            let back: Vec<usize> = (0..self.holders.len())
                .filter(|&p| self.holder(p).is_some_and(|h| h.token == token))
                .collect();
            if !back.is_empty() {
                for &p in &back {
                    if let Some(h) = self.holder_mut(p) {
                        h.client = Some(client);
                        h.stood_in = false;
                    }
                }
                return Ok((token.to_owned(), back));
            }
        }
        if join.seats.is_empty() || join.seats.len() > 7 {
            return Err("ask for one or more kingdoms".into());
        }
        let mut taken = Vec::new();
        for &k in &join.seats {
            let player = seats
                .player(k)
                .map(usize::from)
                .filter(|&p| p < self.holders.len())
                .ok_or_else(|| format!("{k} is empty in this game"))?;
            if players[player].computer.is_some() {
                return Err(format!("{k} is played by the computer"));
            }
            if self.holders[player].is_some() {
                return Err(format!("{k} is already taken"));
            }
            open(player).map_err(|why| format!("{k} {why}"))?;
            if !taken.contains(&player) {
                taken.push(player);
            }
        }
        let token = new_token();
        for &p in &taken {
            self.holders[p] = Some(Holder {
                token: token.clone(),
                client: Some(client),
                gone_since: 0.0,
                stood_in: false,
            });
            players[p].name = name.clone();
        }
        Ok((token, taken))
    }

    /// `client` has gone: its seats wait for it. Returns them.
    pub fn leave(&mut self, client: Entity, now: f32) -> Vec<usize> {
        let seats = self.seats_of(client);
        for &p in &seats {
            if let Some(h) = self.holder_mut(p) {
                h.client = None;
                h.gone_since = now;
            }
        }
        seats
    }

    /// Checks a move request from `client` against its seats, the turn, the move number and
    /// the rules: the move, or why not. Nothing changes either way.
    pub fn check_play(&self, client: Entity, play: &Play, game: &Game) -> Result<Move, String> {
        if game.outcome().is_some() {
            return Err("the game is over".into());
        }
        let k = game.position().to_move();
        let player = game
            .position()
            .seats()
            .player(k)
            .map(usize::from)
            .ok_or("no one holds the kingdom to move")?;
        if !self.seats_of(client).contains(&player) {
            return Err(format!("{k} is not yours to move"));
        }
        if play.ply as usize != game.len() {
            return Err(format!(
                "the move was asked for move {}, but the game is at move {}",
                play.ply + 1,
                game.len() + 1
            ));
        }
        if play.mv.len() > MAX_MOVE_BYTES {
            return Err("that is not a move".into());
        }
        let mv = notation::parse_move(&play.mv).map_err(|e| e.to_string())?;
        if !game.position().is_legal(mv) {
            let mut copy = game.position().clone();
            return Err(copy
                .play(mv)
                .err()
                .map_or_else(|| "that move is not legal".to_owned(), |e| e.to_string()));
        }
        Ok(mv)
    }

    /// The table as the host sees it: `at_host` says which unheld person seats are played at
    /// the host's screen (the others are open); `stand_in` is the level of the computer that
    /// plays for gone players, if the host has one.
    pub fn table(
        &self,
        seats: &Seats,
        players: &[PlayerInfo],
        at_host: impl Fn(usize) -> bool,
        stand_in: Option<Level>,
    ) -> Table {
        let seats = players
            .iter()
            .enumerate()
            .map(|(p, info)| {
                let holder = self.holder(p);
                let hand = match (&info.computer, holder) {
                    (Some(level), held) => Hand::Computer {
                        level: *level,
                        standing_in: held.is_some(),
                    },
                    (None, Some(h))
                        if h.stood_in
                            && let Some(level) = stand_in =>
                    {
                        Hand::Computer {
                            level,
                            standing_in: true,
                        }
                    }
                    (None, Some(h)) => Hand::Remote {
                        connected: h.client.is_some(),
                    },
                    (None, None) if at_host(p) => Hand::AtHost,
                    (None, None) => Hand::Open,
                };
                TableSeat {
                    name: info.name.clone(),
                    kingdoms: kingdoms_of(seats, p),
                    hand,
                }
            })
            .collect();
        Table { seats }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, Seats};

    fn players(remote: usize) -> Vec<PlayerInfo> {
        (0..7)
            .map(|i| PlayerInfo {
                name: format!("Player {}", i + 1),
                computer: (i >= remote).then_some(qiguo_ai::Level::Easy),
            })
            .collect()
    }

    fn join(name: &str, seats: &[Kingdom], token: Option<&str>) -> Join {
        Join {
            name: name.into(),
            seats: seats.to_vec(),
            token: token.map(str::to_owned),
        }
    }

    fn any(_: usize) -> Result<(), String> {
        Ok(())
    }

    #[test]
    fn joins_take_free_person_seats_only() {
        let seats = Seats::seven();
        let mut players = players(3);
        let mut seating = Seating::new(7, &[]);
        let a = Entity::from_raw_u32(10).unwrap();
        let b = Entity::from_raw_u32(11).unwrap();
        let (token, taken) = seating
            .admit(
                a,
                &join(" Anna ", &[Kingdom::Qin], None),
                &seats,
                &mut players,
                any,
            )
            .unwrap();
        assert_eq!(taken, vec![0]);
        assert_eq!(players[0].name, "Anna");
        // The same machine asking again gets the same seats and token.
        assert_eq!(
            seating
                .admit(
                    a,
                    &join("Anna", &[Kingdom::Chu], None),
                    &seats,
                    &mut players,
                    any
                )
                .unwrap(),
            (token.clone(), vec![0])
        );
        let refused = |j: Join| {
            seating
                .clone()
                .admit(b, &j, &seats, &mut players.clone(), |p| {
                    if p == 2 {
                        Err("is played at the host".to_owned())
                    } else {
                        Ok(())
                    }
                })
                .unwrap_err()
        };
        assert!(refused(join("Bo", &[Kingdom::Qin], None)).contains("already taken"));
        assert!(refused(join("Bo", &[Kingdom::Yan], None)).contains("computer"));
        assert!(refused(join("Bo", &[Kingdom::Han], None)).contains("at the host"));
        assert!(refused(join("Bo", &[], None)).contains("one or more"));
        assert!(refused(join(" \n ", &[Kingdom::Chu], None)).contains("name"));
        // A wrong token is no way in; the right one takes Anna's seat back on a new machine.
        assert!(refused(join("Bo", &[Kingdom::Qin], Some("0000"))).contains("taken"));
        let back = seating.admit(
            b,
            &join("Anna", &[], Some(&token)),
            &seats,
            &mut players,
            any,
        );
        assert_eq!(back.unwrap().1, vec![0]);
        assert_eq!(seating.seats_of(b), vec![0]);
        assert!(seating.seats_of(a).is_empty());
        // Gone, the seat waits; the table says so.
        assert_eq!(seating.leave(b, 3.0), vec![0]);
        let table = seating.table(&seats, &players, |p| p == 2, None);
        assert_eq!(table.seats[0].hand, Hand::Remote { connected: false });
        assert_eq!(table.seats[1].hand, Hand::Open);
        assert_eq!(table.seats[2].hand, Hand::AtHost);
        assert!(matches!(table.seats[3].hand, Hand::Computer { .. }));
        assert_eq!(table.open_kingdoms(), vec![Kingdom::Chu]);
    }

    #[test]
    fn moves_are_checked_against_the_seat_the_turn_and_the_rules() {
        let seats = Seats::seven();
        let mut players = players(2);
        let mut seating = Seating::new(7, &[]);
        let game = Game::start(Rules::default(), seats);
        let a = Entity::from_raw_u32(10).unwrap();
        let b = Entity::from_raw_u32(11).unwrap();
        let j = |n: &str, k| join(n, &[k], None);
        seating
            .admit(a, &j("Anna", Kingdom::Qin), &seats, &mut players, any)
            .unwrap();
        seating
            .admit(b, &j("Bo", Kingdom::Chu), &seats, &mut players, any)
            .unwrap();
        let play = |ply: u32, mv: &str| Play {
            ply,
            mv: mv.to_owned(),
        };
        let check = |c, p: Play| seating.check_play(c, &p, &game);
        assert!(
            check(b, play(0, "a13b15"))
                .unwrap_err()
                .contains("not yours")
        );
        assert!(check(a, play(3, "a13b15")).unwrap_err().contains("move 4"));
        assert!(check(a, play(0, "zz")).is_err());
        assert!(check(a, play(0, "a1a1")).is_err());
        let long = "x".repeat(1000);
        assert!(check(a, play(0, &long)).unwrap_err().contains("not a move"));
        assert_eq!(check(a, play(0, "a13b15")).unwrap().to_string(), "a13b15");
    }
}
