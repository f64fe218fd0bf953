//! Which versions of the protocol a server answers, and its frames as an older client reads
//! them.
//!
//! A server answers its own version, [`PROTOCOL_VERSION`], and the one before it
//! ([`OLDEST_SERVED`]): for one release, a page still open on a phone, a window not yet updated
//! and a script keep playing while the server is upgraded under them. Each is told, in a frame
//! it already reads, that it is behind: the welcome carries the server's own `version`, which a
//! client compares with its own ([`behind`]) to reload (a page) or to say that an update is
//! waiting (the window, `qiguo online`). A client older than that is refused with the code
//! `version` (naming both versions), and the page reloads itself to get the server's own.
//!
//! Frames go to an older client in the shape of its version ([`frame_for`]): the fields its
//! types do not know are taken out (they deny unknown fields), and the events and answers it
//! does not know are not sent. Each version's step down is written once, below, when the next
//! version is made.

use serde_json::Value;

use crate::frames::{Ask, PROTOCOL_VERSION, ServerFrame};

/// The oldest version a server of [`PROTOCOL_VERSION`] answers: the one before it.
pub const OLDEST_SERVED: u32 = PROTOCOL_VERSION - 1;

/// Whether a server of this version answers a client of `version`.
pub fn served(version: u32) -> bool {
    (OLDEST_SERVED..=PROTOCOL_VERSION).contains(&version)
}

/// Whether a client of this version is behind the server that welcomed it with
/// `server_version`: the page reloads, the window and `qiguo online` say an update waits.
pub fn behind(server_version: u32) -> bool {
    server_version > PROTOCOL_VERSION
}

/// Whether a client of `version` could have asked `ask`: a request of a later version (read
/// because the request types are today's) is refused as a bad frame, since that client could
/// not read its answer.
pub fn knows(version: u32, ask: &Ask) -> bool {
    match ask {
        Ask::Quick { .. } => version >= 6,
        // A club's own table is version 12's.
        Ask::CreateTable { club: Some(_), .. } => version >= 12,
        Ask::Ratings { .. }
        | Ask::Lobby { .. }
        | Ask::CreateTable { .. }
        | Ask::JoinTable { .. }
        | Ask::LeaveTable { .. }
        | Ask::Block { .. }
        | Ask::Report { .. } => version >= 7,
        Ask::Push { .. } | Ask::Subscribe { .. } | Ask::Unsubscribe { .. } => version >= 8,
        Ask::Review { .. } => version >= 9,
        Ask::Puzzle { .. } | Ask::PuzzleTried { .. } => version >= 10,
        Ask::ClubCreate { .. }
        | Ask::ClubJoin { .. }
        | Ask::ClubLeave { .. }
        | Ask::Club { .. }
        | Ask::Clubs { .. }
        | Ask::ClubMember { .. }
        | Ask::ClubPost { .. }
        | Ask::ClubNewsWanted { .. } => version >= 11,
        Ask::EveningCreate { .. }
        | Ask::EveningCome { .. }
        | Ask::EveningCancel { .. }
        | Ask::Evenings { .. } => version >= 12,
        Ask::TournamentCreate { .. }
        | Ask::TournamentJoin { .. }
        | Ask::TournamentLeave { .. }
        | Ask::Tournament { .. }
        | Ask::Tournaments { .. } => version >= 13,
        _ => true,
    }
}

/// `frame` as JSON text for a client of `version` (one that is [`served`]); `None` when that
/// client knows nothing of it (an event or answer of a later version), so it is not sent.
pub fn frame_for(version: u32, frame: &ServerFrame) -> Option<String> {
    if version >= PROTOCOL_VERSION {
        return serde_json::to_string(frame).ok();
    }
    let mut value = serde_json::to_value(frame).ok()?;
    let mut at = PROTOCOL_VERSION;
    while at > version {
        value = step_down(at, value)?;
        at -= 1;
    }
    serde_json::to_string(&value).ok()
}

/// A frame of version `from` as version `from - 1` reads it.
fn step_down(from: u32, value: Value) -> Option<Value> {
    match from {
        14 => fourteen_to_thirteen(value),
        13 => thirteen_to_twelve(value),
        12 => twelve_to_eleven(value),
        11 => eleven_to_ten(value),
        10 => ten_to_nine(value),
        9 => nine_to_eight(value),
        8 => eight_to_seven(value),
        7 => seven_to_six(value),
        6 => six_to_five(value),
        5 => five_to_four(value),
        // Versions before 4 are not served.
        _ => Some(value),
    }
}

/// Version 14 named each turn told (`your_turn`'s `ply`) and told a player's waiting turns
/// again at sign-in (`again`): a client of 13 is told its turns as before, once, with neither
/// field (it would tell its player of every waiting game at each sign-in).
fn fourteen_to_thirteen(mut value: Value) -> Option<Value> {
    let is_turn = value.get("type")?.as_str()? == "event"
        && value.get("event")?.get("type")?.as_str()? == "your_turn";
    if !is_turn {
        return Some(value);
    }
    let event = value.get_mut("event")?.as_object_mut()?;
    if event.remove("again").and_then(|again| again.as_bool()) == Some(true) {
        return None;
    }
    event.remove("ply");
    Some(value)
}

/// Version 13 added tournaments: the `tournament` and `tournaments` answers (to requests an
/// older client cannot send) and the `tournament_seated` and `standings` events.
fn thirteen_to_twelve(value: Value) -> Option<Value> {
    let kind = value.get("type")?.as_str()?;
    let inner = match kind {
        "reply" => value.get("answer")?.get("type")?.as_str()?,
        "event" => value.get("event")?.get("type")?.as_str()?,
        _ => return Some(value),
    };
    match inner {
        "tournament" | "tournaments" | "tournament_seated" | "standings" => None,
        _ => Some(value),
    }
}

/// Version 12 added club evenings (the `evening` and `evenings` answers, to requests an older
/// client cannot send, and the `evening_seated` event) and a club's own tables: a club's view
/// carries its `tables` and `evenings`, and a member the code of the game they play (`watch`)
/// (taken out), and a table of a club is shown only in its
/// club's view (to a client that could not ask for one, a table has no `club`).
fn twelve_to_eleven(mut value: Value) -> Option<Value> {
    let kind = value.get("type")?.as_str()?.to_owned();
    if kind == "reply" {
        let answer = value.get_mut("answer")?;
        match answer.get("type")?.as_str()? {
            "evening" | "evenings" => return None,
            "club" => {
                let club = answer.as_object_mut()?;
                club.remove("tables");
                club.remove("evenings");
                if let Some(Value::Array(members)) = club.get_mut("members") {
                    for member in members.iter_mut().filter_map(Value::as_object_mut) {
                        member.remove("watch");
                    }
                }
            }
            _ => {}
        }
    }
    if kind == "event" && value.get("event")?.get("type")?.as_str()? == "evening_seated" {
        return None;
    }
    without_table_clubs(&mut value);
    Some(value)
}

/// Takes `club` out of every table in `value` (an object with a `fill_by_ms`).
fn without_table_clubs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("fill_by_ms") {
                map.remove("club");
            }
            for inner in map.values_mut() {
                without_table_clubs(inner);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(without_table_clubs),
        _ => {}
    }
}

/// Version 11 added clubs: the `club` and `clubs` answers (to requests an older client cannot
/// send) and the `club_news` event.
fn eleven_to_ten(value: Value) -> Option<Value> {
    let kind = value.get("type")?.as_str()?;
    if kind == "reply"
        && matches!(
            value.get("answer")?.get("type")?.as_str()?,
            "club" | "clubs"
        )
    {
        return None;
    }
    if kind == "event" && value.get("event")?.get("type")?.as_str()? == "club_news" {
        return None;
    }
    Some(value)
}

/// Version 10 added puzzles: the `puzzle` and `puzzle_rated` answers (to the `puzzle` and
/// `puzzle_tried` requests, which an older client cannot send).
fn ten_to_nine(value: Value) -> Option<Value> {
    if value.get("type")?.as_str()? == "reply"
        && matches!(
            value.get("answer")?.get("type")?.as_str()?,
            "puzzle" | "puzzle_rated"
        )
    {
        return None;
    }
    Some(value)
}

/// Version 9 added reviews: the `review` answer (to the `review` request, which an older client
/// cannot send) and the `review_ready` event.
fn nine_to_eight(value: Value) -> Option<Value> {
    let kind = value.get("type")?.as_str()?;
    if kind == "reply" && value.get("answer")?.get("type")?.as_str()? == "review" {
        return None;
    }
    if kind == "event" && value.get("event")?.get("type")?.as_str()? == "review_ready" {
        return None;
    }
    Some(value)
}

/// Version 8 added notifications pushed to devices: the `push` answer (to the `push`,
/// `subscribe` and `unsubscribe` requests, which an older client cannot send).
fn eight_to_seven(value: Value) -> Option<Value> {
    if value.get("type")?.as_str()? == "reply"
        && value.get("answer")?.get("type")?.as_str()? == "push"
    {
        return None;
    }
    Some(value)
}

/// Version 7 added ratings — the `ratings` answer (to the `ratings` request), a seat's `rating`
/// wherever a seat is sent (a game's view, in an answer or an event) and the `seated` event's —
/// and the lobby: the `lobby` and `table` answers, the `lobby`, `table_started` and
/// `table_closed` events; and the `replaced` event (a computer took an absent person's seat).
fn seven_to_six(mut value: Value) -> Option<Value> {
    if value.get("type")?.as_str()? == "reply"
        && matches!(
            value.get("answer")?.get("type")?.as_str()?,
            "ratings" | "lobby" | "table"
        )
    {
        return None;
    }
    if value.get("type")?.as_str()? == "event"
        && let Some(event) = value.get_mut("event")
    {
        match event.get("type").and_then(Value::as_str) {
            Some("seated") => {
                event.as_object_mut()?.remove("rating");
            }
            Some("lobby" | "table_started" | "table_closed" | "replaced") => return None,
            _ => {}
        }
    }
    without_seat_ratings(&mut value);
    Some(value)
}

/// Takes `rating` out of every seat (an object with a `plan` and `present`) within `value`.
fn without_seat_ratings(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.contains_key("plan") && object.contains_key("present") {
                object.remove("rating");
            }
            object.values_mut().for_each(without_seat_ratings);
        }
        Value::Array(items) => items.iter_mut().for_each(without_seat_ratings),
        _ => {}
    }
}

/// Version 6 added quick play (the `seated` answer, to the `quick` request).
fn six_to_five(value: Value) -> Option<Value> {
    if value.get("type")?.as_str()? == "reply"
        && value.get("answer")?.get("type")?.as_str()? == "seated"
    {
        return None;
    }
    Some(value)
}

/// Version 5 added e-mail (the `mail` answer and event), finished games and rematches (the
/// `finished` answer, the `rematch` event, a summary's `winner` and `victory`) and the seats a
/// player muted in the `talk` answer.
fn five_to_four(mut value: Value) -> Option<Value> {
    let kind = value.get("type")?.as_str()?.to_owned();
    match kind.as_str() {
        "event" => {
            let event = value.get("event")?.get("type")?.as_str()?;
            if matches!(event, "mail" | "rematch") {
                return None;
            }
        }
        "reply" => {
            let answer = value.get_mut("answer")?;
            match answer.get("type")?.as_str()? {
                "mail" | "finished" => return None,
                "games" => {
                    for game in answer.get_mut("games")?.as_array_mut()? {
                        let game = game.as_object_mut()?;
                        game.remove("winner");
                        game.remove("victory");
                    }
                }
                "talk" => {
                    answer.as_object_mut()?.remove("muted");
                }
                _ => {}
            }
        }
        _ => {}
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frames::{Answer, Event, GameSummary, MailView};
    use crate::model::GameId;
    use crate::refusal::Refusal;

    fn summary() -> GameSummary {
        GameSummary {
            id: GameId("g".into()),
            players: vec!["Ann".into()],
            yours: vec![0],
            to_move: None,
            your_turn: false,
            moves: 3,
            since_ms: 0,
            deadline_ms: None,
            finished: true,
            winner: Some(qiguo_rules::Kingdom::Qin),
            victory: Some("last".into()),
        }
    }

    #[test]
    fn the_version_before_is_served_and_no_other() {
        assert!(served(PROTOCOL_VERSION));
        assert!(served(PROTOCOL_VERSION - 1));
        assert!(!served(PROTOCOL_VERSION - 2));
        assert!(!served(PROTOCOL_VERSION + 1));
        assert!(behind(PROTOCOL_VERSION + 1));
        assert!(!behind(PROTOCOL_VERSION));
    }

    #[test]
    fn todays_clients_get_frames_as_they_are() {
        let frame = ServerFrame::Reply {
            req: 2,
            answer: Answer::Games {
                games: vec![summary()],
            },
        };
        assert_eq!(
            frame_for(PROTOCOL_VERSION, &frame).unwrap(),
            serde_json::to_string(&frame).unwrap()
        );
    }

    #[test]
    fn a_version_eight_client_asks_no_review_and_hears_of_none() {
        use crate::frames::{Event, ReviewStatus, ReviewView};
        let ask = Ask::Review {
            game: GameId("g".into()),
        };
        assert!(knows(PROTOCOL_VERSION, &ask));
        assert!(!knows(8, &ask));
        let answer = ServerFrame::Reply {
            req: 3,
            answer: Answer::Review(Box::new(ReviewView {
                game: GameId("g".into()),
                status: ReviewStatus::Waiting,
            })),
        };
        let ready = ServerFrame::Event {
            event: Event::ReviewReady {
                game: GameId("g".into()),
            },
        };
        for frame in [&answer, &ready] {
            let text = frame_for(PROTOCOL_VERSION, frame).unwrap();
            assert_eq!(&serde_json::from_str::<ServerFrame>(&text).unwrap(), frame);
            assert_eq!(frame_for(8, frame), None);
        }
        // A review done reads back whole.
        let mut game =
            qiguo_rules::Game::start(qiguo_rules::Rules::default(), qiguo_rules::Seats::seven());
        let mv = game.position().legal_moves()[0];
        game.play(mv).unwrap();
        let done = ServerFrame::Reply {
            req: 4,
            answer: Answer::Review(Box::new(ReviewView {
                game: GameId("g".into()),
                status: ReviewStatus::Done {
                    review: Box::new(qiguo_ai::review::review(&game, 500)),
                },
            })),
        };
        let text = frame_for(PROTOCOL_VERSION, &done).unwrap();
        assert!(text.contains("\"state\":\"done\""), "{text}");
        assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), done);
    }

    #[test]
    fn a_version_ten_client_asks_of_no_club_and_hears_of_none() {
        use crate::clubs::{ClubAction, ClubListed, ClubNews, ClubRole, ClubSpec, ClubView};
        use crate::frames::Event;
        let asks = [
            Ask::ClubCreate {
                spec: ClubSpec {
                    name: "Jade Hall".into(),
                    description: String::new(),
                    open: true,
                },
            },
            Ask::ClubJoin {
                name: "Jade Hall".into(),
            },
            Ask::ClubLeave {
                name: "Jade Hall".into(),
            },
            Ask::Club {
                name: "Jade Hall".into(),
            },
            Ask::Clubs { search: None },
            Ask::ClubMember {
                name: "Jade Hall".into(),
                player: "Ann".into(),
                action: ClubAction::Accept,
            },
            Ask::ClubPost {
                name: "Jade Hall".into(),
                text: "Tuesday at eight".into(),
            },
            Ask::ClubNewsWanted {
                name: "Jade Hall".into(),
                wanted: false,
            },
        ];
        for ask in &asks {
            assert!(knows(PROTOCOL_VERSION, ask));
            assert!(!knows(10, ask));
            let text = serde_json::to_string(ask).unwrap();
            assert_eq!(&serde_json::from_str::<Ask>(&text).unwrap(), ask);
        }
        let news = ClubNews {
            club: "Jade Hall".into(),
            by: "Ann".into(),
            at_ms: 1,
            text: "Tuesday at eight".into(),
        };
        let frames = [
            ServerFrame::Reply {
                req: 6,
                answer: Answer::Club(Box::new(ClubView {
                    name: "Jade Hall".into(),
                    description: String::new(),
                    open: true,
                    you: Some(ClubRole::Owner),
                    member_count: 1,
                    members: Vec::new(),
                    news: vec![news.clone()],
                    news_wanted: true,
                    tables: Vec::new(),
                    evenings: Vec::new(),
                })),
            },
            ServerFrame::Reply {
                req: 7,
                answer: Answer::Clubs {
                    clubs: vec![ClubListed {
                        name: "Jade Hall".into(),
                        description: String::new(),
                        open: false,
                        member_count: 3,
                        you: None,
                    }],
                },
            },
            ServerFrame::Event {
                event: Event::ClubNews(news),
            },
        ];
        for frame in &frames {
            let text = frame_for(PROTOCOL_VERSION, frame).unwrap();
            assert_eq!(&serde_json::from_str::<ServerFrame>(&text).unwrap(), frame);
            assert_eq!(frame_for(10, frame), None);
        }
    }

    #[test]
    fn a_version_twelve_client_asks_of_no_tournament_and_hears_of_none() {
        use crate::GameId;
        use crate::tournaments::{
            StandingsNews, TournamentFormat, TournamentPlay, TournamentSpec, TournamentState,
        };
        use qiguo_rules::{Level, Preset};
        let spec = TournamentSpec {
            name: "Winter Arena".into(),
            format: TournamentFormat::Arena,
            play: TournamentPlay {
                preset: Preset::Classic,
                pace: crate::QuickPace::Brisk,
                level: Level::Easy,
                rated: true,
            },
            starts_ms: 1,
            rounds: 0,
            minutes: 60,
            most: 700,
            club: None,
        };
        let asks = [
            Ask::TournamentCreate { spec },
            Ask::TournamentJoin {
                name: "Winter Arena".into(),
            },
            Ask::TournamentLeave {
                name: "Winter Arena".into(),
            },
            Ask::Tournament {
                name: "Winter Arena".into(),
            },
            Ask::Tournaments { club: None },
        ];
        for ask in &asks {
            assert!(!knows(12, ask), "{ask:?}");
            assert!(knows(13, ask), "{ask:?}");
        }
        let unknown = [
            ServerFrame::Reply {
                req: 1,
                answer: Answer::Tournaments {
                    tournaments: Vec::new(),
                },
            },
            ServerFrame::Event {
                event: Event::TournamentSeated {
                    tournament: "Winter Arena".into(),
                    round: 1,
                    game: GameId("g".into()),
                },
            },
            ServerFrame::Event {
                event: Event::Standings(StandingsNews {
                    tournament: "Winter Arena".into(),
                    state: TournamentState::Playing,
                    round: 0,
                    leaders: Vec::new(),
                    you: None,
                }),
            },
        ];
        for frame in &unknown {
            assert_eq!(frame_for(12, frame), None, "{frame:?}");
            assert!(frame_for(13, frame).is_some());
        }
        let known = ServerFrame::Reply {
            req: 2,
            answer: Answer::Games {
                games: vec![summary()],
            },
        };
        let as_value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        assert_eq!(
            as_value(&frame_for(12, &known).unwrap()),
            serde_json::to_value(&known).unwrap(),
            "the rest as it was"
        );
    }

    #[test]
    fn a_version_eleven_client_hears_of_no_evening_nor_a_clubs_table() {
        use crate::clubs::{ClubRole, ClubView};
        use crate::evenings::{
            EveningId, EveningPlay, EveningSpec, EveningState, EveningView, Seating,
        };
        use crate::lobby::{TableId, TableSpec, TableView, WhenUnfilled};
        use crate::model::QuickPace;
        use qiguo_rules::{Level, Preset};
        let play = EveningPlay {
            preset: Preset::Classic,
            pace: QuickPace::Brisk,
            level: Level::Easy,
            seating: Seating::AtRandom,
            rated: false,
        };
        let table_spec = TableSpec {
            preset: Preset::Classic,
            pace: crate::Pace::Live { wait_seconds: 60 },
            people: 3,
            level: Level::Easy,
            rated: false,
            ratings: None,
            wait_minutes: 30,
            unfilled: WhenUnfilled::Computers,
        };
        let asks = [
            Ask::EveningCreate {
                spec: EveningSpec {
                    club: "Jade Hall".into(),
                    at_ms: 1,
                    play,
                },
            },
            Ask::EveningCome {
                evening: EveningId("e".into()),
                coming: true,
            },
            Ask::EveningCancel {
                evening: EveningId("e".into()),
            },
            Ask::Evenings { club: None },
            Ask::CreateTable {
                table: table_spec,
                club: Some("Jade Hall".into()),
            },
        ];
        for ask in &asks {
            assert!(knows(PROTOCOL_VERSION, ask));
            assert!(!knows(11, ask), "{ask:?}");
            let text = serde_json::to_string(ask).unwrap();
            assert_eq!(&serde_json::from_str::<Ask>(&text).unwrap(), ask);
        }
        let public = Ask::CreateTable {
            table: table_spec,
            club: None,
        };
        assert!(knows(11, &public) && knows(7, &public));
        let table = TableView {
            id: TableId("t".into()),
            spec: table_spec,
            host: "Ann".into(),
            seated: Vec::new(),
            fill_by_ms: 5,
            game: None,
            club: Some("Jade Hall".into()),
        };
        let evening = EveningView {
            id: EveningId("e".into()),
            club: "Jade Hall".into(),
            by: "Ann".into(),
            at_ms: 1,
            play,
            state: EveningState::Planned,
            coming: vec!["Ann".into()],
            you_come: true,
            tables: Vec::new(),
            your_game: None,
        };
        let club = ServerFrame::Reply {
            req: 3,
            answer: Answer::Club(Box::new(ClubView {
                name: "Jade Hall".into(),
                description: String::new(),
                open: true,
                you: Some(ClubRole::Member),
                member_count: 1,
                members: vec![crate::clubs::ClubMember {
                    player: crate::PlayerId("p".into()),
                    name: "Bo".into(),
                    role: ClubRole::Member,
                    rating: None,
                    online: true,
                    playing: Some(GameId("g".into())),
                    watch: Some("K7QM-3XTD-9WFB-2HZR".into()),
                }],
                news: Vec::new(),
                news_wanted: true,
                tables: vec![table.clone()],
                evenings: vec![evening.clone()],
            })),
        };
        let text = frame_for(11, &club).unwrap();
        assert!(
            !text.contains("tables") && !text.contains("evenings"),
            "{text}"
        );
        let seated = ServerFrame::Reply {
            req: 4,
            answer: Answer::Table(Box::new(table)),
        };
        let text = frame_for(11, &seated).unwrap();
        assert!(
            text.contains("fill_by_ms") && !text.contains("club"),
            "{text}"
        );
        for frame in [
            ServerFrame::Reply {
                req: 5,
                answer: Answer::Evening(Box::new(evening.clone())),
            },
            ServerFrame::Reply {
                req: 6,
                answer: Answer::Evenings {
                    evenings: vec![evening],
                },
            },
            ServerFrame::Event {
                event: Event::EveningSeated {
                    evening: EveningId("e".into()),
                    club: "Jade Hall".into(),
                    game: GameId("g".into()),
                },
            },
        ] {
            let text = frame_for(PROTOCOL_VERSION, &frame).unwrap();
            assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), frame);
            assert_eq!(frame_for(11, &frame), None);
        }
        assert!(
            frame_for(PROTOCOL_VERSION, &club)
                .unwrap()
                .contains("evenings")
        );
    }

    #[test]
    fn a_version_nine_client_asks_no_puzzle_and_hears_of_none() {
        use crate::frames::{PuzzleRated, PuzzleView, PuzzleWanted};
        use qiguo_ai::puzzles::{Puzzle, Theme};
        let ask = Ask::Puzzle {
            which: PuzzleWanted::Named {
                id: "0123456789ab".into(),
            },
        };
        let tried = Ask::PuzzleTried {
            id: "0123456789ab".into(),
            solved: true,
        };
        for ask in [&ask, &tried] {
            assert!(knows(PROTOCOL_VERSION, ask));
            assert!(!knows(9, ask));
            let text = serde_json::to_string(ask).unwrap();
            assert_eq!(&serde_json::from_str::<Ask>(&text).unwrap(), ask);
        }
        let start = qiguo_rules::Position::start(qiguo_rules::Rules::default());
        let puzzle = Puzzle {
            fen: start.to_fen(),
            rules: "classic".into(),
            solution: start.legal_moves()[0],
            theme: Theme::QuietMove,
            rating: 1650,
            mover: start.to_move(),
            ply: 1,
            chance: 0.5,
            second: 0.3,
        };
        let answers = [
            Answer::Puzzle(Box::new(PuzzleView {
                puzzle,
                game: GameId("g".into()),
                daily: true,
                solver: 1500,
                tried: false,
                tries: 3,
                solved: 1,
            })),
            Answer::PuzzleRated(PuzzleRated {
                id: "0123456789ab".into(),
                before: 1500,
                after: 1580,
                puzzle: 1620,
                counted: true,
            }),
        ];
        for answer in answers {
            let frame = ServerFrame::Reply { req: 5, answer };
            let text = frame_for(PROTOCOL_VERSION, &frame).unwrap();
            assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), frame);
            assert_eq!(frame_for(9, &frame), None);
        }
    }

    #[test]
    fn a_version_five_client_asks_no_quick_game_and_gets_no_seat() {
        use crate::model::QuickPace;
        let quick = Ask::Quick {
            pace: QuickPace::Brisk,
        };
        assert!(knows(PROTOCOL_VERSION, &quick));
        assert!(!knows(5, &quick));
        assert!(knows(5, &Ask::Games {}));
        let seated = ServerFrame::Reply {
            req: 2,
            answer: Answer::Seated {
                kingdom: qiguo_rules::Kingdom::Chu,
                took_over: None,
                game: Box::new(crate::frames::GameView {
                    id: GameId("g".into()),
                    code: "CODE".into(),
                    record: qiguo_rules::Record::from_game(
                        &qiguo_rules::Game::new(qiguo_rules::Position::start(
                            qiguo_rules::Rules::default(),
                        )),
                        qiguo_rules::PlayerInfo::defaults(7),
                    ),
                    stand_ins: Vec::new(),
                    seats: Vec::new(),
                    pace: QuickPace::Brisk.pace(),
                    since_ms: 0,
                    deadline_ms: None,
                    finished: false,
                    take_back: None,
                }),
            },
        };
        assert!(frame_for(PROTOCOL_VERSION, &seated).is_some());
        assert_eq!(frame_for(5, &seated), None);
        // Everything else of version 5 goes as it is.
        let games = ServerFrame::Reply {
            req: 2,
            answer: Answer::Games {
                games: vec![summary()],
            },
        };
        let text = frame_for(5, &games).unwrap();
        assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), games);
    }

    #[test]
    fn a_version_four_client_gets_what_its_types_read() {
        // A summary without the fields version 5 added.
        let games = ServerFrame::Reply {
            req: 2,
            answer: Answer::Games {
                games: vec![summary()],
            },
        };
        let text = frame_for(4, &games).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let game = &value["answer"]["games"][0];
        assert_eq!(game["moves"], 3);
        assert!(
            game.get("winner").is_none() && game.get("victory").is_none(),
            "{text}"
        );
        // The talk answer without the muted seats.
        let talk = ServerFrame::Reply {
            req: 3,
            answer: Answer::Talk {
                game: GameId("g".into()),
                lines: Vec::new(),
                muted: vec![2],
            },
        };
        let text = frame_for(4, &talk).unwrap();
        assert!(!text.contains("muted"), "{text}");
        // Events and answers of version 5 are not sent.
        let mail = ServerFrame::Event {
            event: Event::Mail(MailView::default()),
        };
        assert_eq!(frame_for(4, &mail), None);
        let rematch = ServerFrame::Event {
            event: Event::Rematch {
                game: GameId("g".into()),
                rematch: GameId("h".into()),
                by: "Ann".into(),
            },
        };
        assert_eq!(frame_for(4, &rematch), None);
        // A refusal goes as it is: clients since version 3 read a code they do not know.
        let refused = ServerFrame::refused(4, Refusal::NoMail, false);
        let text = frame_for(4, &refused).unwrap();
        assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), refused);
    }

    #[test]
    fn a_version_six_client_gets_no_ratings_and_seats_without_them() {
        use crate::frames::{GameView, RatingHistory, SeatView};
        use crate::model::{RatingFamily, RatingShown, SeatPlan};
        let ratings = Ask::Ratings {
            family: RatingFamily::Live,
            of: None,
        };
        assert!(knows(PROTOCOL_VERSION, &ratings));
        assert!(!knows(6, &ratings));
        let shown = RatingShown {
            points: 1512,
            provisional: true,
            games: 1,
            left: 0,
        };
        let answer = ServerFrame::Reply {
            req: 2,
            answer: Answer::Ratings {
                family: RatingFamily::Live,
                board: Vec::new(),
                player: RatingHistory {
                    name: "Ann".into(),
                    rating: shown,
                    changes: Vec::new(),
                },
            },
        };
        assert!(frame_for(PROTOCOL_VERSION, &answer).is_some());
        assert_eq!(frame_for(6, &answer), None);
        let view = GameView {
            id: GameId("g".into()),
            code: "CODE".into(),
            record: qiguo_rules::Record::from_game(
                &qiguo_rules::Game::new(
                    qiguo_rules::Position::start(qiguo_rules::Rules::default()),
                ),
                qiguo_rules::PlayerInfo::defaults(7),
            ),
            stand_ins: Vec::new(),
            seats: vec![SeatView {
                plan: SeatPlan::Creator,
                name: Some("Ann".into()),
                yours: true,
                present: true,
                away_until: None,
                rating: Some(shown),
            }],
            pace: crate::model::QuickPace::Brisk.pace(),
            since_ms: 0,
            deadline_ms: None,
            finished: false,
            take_back: None,
        };
        let game = ServerFrame::Reply {
            req: 3,
            answer: Answer::Game(Box::new(view.clone())),
        };
        let today = frame_for(PROTOCOL_VERSION, &game).unwrap();
        assert!(today.contains("\"rating\""), "{today}");
        let six = frame_for(6, &game).unwrap();
        assert!(!six.contains("\"rating\""), "{six}");
        let value: Value = serde_json::from_str(&six).unwrap();
        assert_eq!(value["answer"]["seats"][0]["name"], "Ann");
        let seated = ServerFrame::Event {
            event: Event::Seated {
                game: GameId("g".into()),
                seat: 1,
                name: "Bo".into(),
                rating: Some(shown),
            },
        };
        let six_seated = frame_for(6, &seated).unwrap();
        assert!(!six_seated.contains("rating"), "{six_seated}");
        assert!(six_seated.contains("\"Bo\""), "{six_seated}");
        // What remains is what version 6 read: today's types read it with no rating.
        let mut unrated = view;
        unrated.seats[0].rating = None;
        assert_eq!(
            serde_json::from_str::<ServerFrame>(&six).unwrap(),
            ServerFrame::Reply {
                req: 3,
                answer: Answer::Game(Box::new(unrated)),
            }
        );
    }

    #[test]
    fn a_version_seven_client_cannot_ask_for_notifications_and_is_sent_none() {
        use crate::frames::PushView;
        let subscribe = Ask::Subscribe {
            endpoint: "https://fcm.googleapis.com/fcm/send/x".into(),
            p256dh: "k".into(),
            auth: "a".into(),
        };
        assert!(knows(8, &subscribe));
        assert!(!knows(7, &subscribe));
        assert!(!knows(7, &Ask::Push {}));
        // Versions 7 to 12 are no longer served (version 14 serves 13), but the steps down
        // still hold.
        assert!(served(13) && !served(12) && !served(10) && !served(8) && !served(7));
        let answer = ServerFrame::Reply {
            req: 5,
            answer: Answer::Push(PushView {
                offered: true,
                key: Some("BKey".into()),
                devices: 1,
            }),
        };
        assert!(frame_for(8, &answer).is_some());
        assert_eq!(frame_for(7, &answer), None);
        // Everything else goes to version 7 as it is.
        let moved = ServerFrame::Reply {
            req: 6,
            answer: Answer::Moved { ply: 3 },
        };
        let seven: ServerFrame = serde_json::from_str(&frame_for(7, &moved).unwrap()).unwrap();
        assert_eq!(seven, moved);
    }

    #[test]
    fn a_version_thirteen_client_hears_of_a_turn_once_and_as_it_did() {
        use crate::frames::Event;
        use crate::model::GameId;
        use qiguo_rules::Kingdom;
        let turn = |again| ServerFrame::Event {
            event: Event::YourTurn {
                game: GameId("g".into()),
                kingdom: Kingdom::Chu,
                ply: 8,
                again,
            },
        };
        assert!(served(13) && !served(12));
        // Told when the move before it is made: as version 13 wrote it, without the ply.
        let live = frame_for(13, &turn(false)).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&live).unwrap(),
            serde_json::json!({"type": "event", "event": {"type": "your_turn", "game": "g", "kingdom": "chu"}})
        );
        // Read by today's types, which version 13's were without the two fields.
        assert_eq!(
            serde_json::from_str::<ServerFrame>(&live).unwrap(),
            ServerFrame::Event {
                event: Event::YourTurn {
                    game: GameId("g".into()),
                    kingdom: Kingdom::Chu,
                    ply: 0,
                    again: false,
                },
            }
        );
        // Told again at sign-in: not to a client that would tell its player a second time.
        assert_eq!(frame_for(13, &turn(true)), None);
        // Today's client hears both, with both fields.
        let today = frame_for(PROTOCOL_VERSION, &turn(true)).unwrap();
        assert!(today.contains(r#""ply":8,"again":true"#), "{today}");
        // Other events go down unchanged.
        let stale = ServerFrame::Event {
            event: Event::Stale {
                game: GameId("g".into()),
            },
        };
        assert_eq!(
            serde_json::from_str::<ServerFrame>(&frame_for(13, &stale).unwrap()).unwrap(),
            stale
        );
    }
}
