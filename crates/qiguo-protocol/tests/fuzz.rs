//! Property-based fuzzing of the frames a server reads from strangers and a client reads from
//! a server: from arbitrary bytes and from valid frames with bytes flipped, inserted and
//! removed, reading answers with a frame or an error, never a panic; a frame that reads is
//! written back and reads the same. A new game read from a frame is checked without a panic.

use proptest::prelude::*;
use qiguo_protocol::client::Conversation;
use qiguo_protocol::{Ask, ClientFrame, NewGame, Pace, SeatPlan, ServerFrame};
use qiguo_rules::{Game, Level, Preset, Rules, Seats};
use qiguo_testkit::mutate;

const CLIENT_FRAMES: &[&str] = &[
    r#"{"req":1,"ask":{"type":"hello","version":3,"identity":{"as":"new","name":"Ann"}}}"#,
    r#"{"req":2,"ask":{"type":"hello","version":3,"identity":{"as":"player","id":"ab12","key":"00ff"}}}"#,
    r#"{"req":3,"ask":{"type":"move","game":"g","ply":3,"mv":"f3a8"}}"#,
    r#"{"req":4,"ask":{"type":"join","code":"ABCD-EFGH","kingdom":"chu"}}"#,
    r#"{"req":5,"ask":{"type":"games"}}"#,
    r#"{"req":6,"ask":{"type":"take_back","game":"g","ply":2}}"#,
    r#"{"req":7,"ask":{"type":"create","game":{"start":{"format":"qiguo-record","version":1,"preset":"classic","seats":[0,1,2,3,4,5,6],"players":[{"name":"A"},{"name":"B"},{"name":"C"},{"name":"D"},{"name":"E"},{"name":"F"},{"name":"G"}],"start":"x","moves":[]},"seats":["creator","open","open","open","open","open",{"computer":"easy"}],"pace":{"live":{"wait_seconds":60}}}}}"#,
];

const SERVER_FRAMES: &[&str] = &[
    r#"{"type":"reply","req":1,"answer":{"type":"welcome","version":3,"player":"p","name":"Ann","key":null}}"#,
    r#"{"type":"refused","req":4,"refusal":{"code":"not_your_turn","kingdom":"han"},"why":"it is Han's turn","closing":false}"#,
    r#"{"type":"event","event":{"type":"moved","game":"g","ply":0,"mv":"f3a8","by":"seat","since_ms":5,"deadline_ms":null}}"#,
    r#"{"type":"event","event":{"type":"presence","game":"g","seat":2,"present":true}}"#,
    r#"{"type":"reply","req":9,"answer":{"type":"games","games":[]}}"#,
];

/// The frames to mutate: those above, and a real new game of seven.
fn client_frames() -> Vec<String> {
    let start = Game::start(Rules::preset(Preset::Leventhal), Seats::seven());
    let mut plans = vec![SeatPlan::Open; 7];
    plans[0] = SeatPlan::Creator;
    plans[6] = SeatPlan::Computer(Level::Easy);
    let game = NewGame::build(&start, plans, Pace::Live { wait_seconds: 60 }, |i, _| {
        format!("P{i}")
    })
    .unwrap();
    let create = ClientFrame {
        req: 8,
        ask: Ask::Create { game },
    };
    let mut frames: Vec<String> = CLIENT_FRAMES.iter().map(|f| f.to_string()).collect();
    frames.push(serde_json::to_string(&create).unwrap());
    frames
}

/// What the server does first with a frame: reads it, and checks a new game in it.
fn server_reads(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(frame) = serde_json::from_str::<ClientFrame>(&text) {
        if let Ask::Create { game } = &frame.ask {
            let _ = game.check();
        }
        let again = serde_json::to_string(&frame).unwrap();
        assert_eq!(serde_json::from_str::<ClientFrame>(&again).unwrap(), frame);
    }
}

/// What a client does with a frame from the server, awaiting an answer or not.
fn client_reads(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let _ = Conversation::new().hear(&text, Some(1));
    let _ = Conversation::new().hear(&text, None);
    if let Ok(frame) = serde_json::from_str::<ServerFrame>(&text) {
        let again = serde_json::to_string(&frame).unwrap();
        assert_eq!(serde_json::from_str::<ServerFrame>(&again).unwrap(), frame);
    }
}

#[test]
fn the_valid_frames_read() {
    for text in &client_frames() {
        serde_json::from_str::<ClientFrame>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    for text in SERVER_FRAMES {
        serde_json::from_str::<ServerFrame>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn client_frames_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        server_reads(&bytes);
    }

    #[test]
    fn client_frames_mutated(
        which in 0usize..CLIENT_FRAMES.len() + 1,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        server_reads(&mutate(&client_frames()[which], &edits));
    }

    #[test]
    fn server_frames_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        client_reads(&bytes);
    }

    #[test]
    fn server_frames_mutated(
        which in 0usize..SERVER_FRAMES.len(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        client_reads(&mutate(SERVER_FRAMES[which], &edits));
    }
}
