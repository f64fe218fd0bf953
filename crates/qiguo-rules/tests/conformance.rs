//! Replays the 600 elephantchess.io games under the `elephantchess` preset: every move must be
//! legal, and the winner, victory type, beaten kingdoms and survivors must match.

use std::collections::BTreeMap;

use qiguo_rules::{Kingdom, Position, Preset, Rules, Standing, notation};
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    entries: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    game_id: String,
    moves: Vec<String>,
    winner: String,
    victory_type: String,
    captured_kingdoms: BTreeMap<String, Vec<String>>,
    colors_still_in_game: Vec<String>,
}

fn colour(k: Kingdom) -> &'static str {
    match k {
        Kingdom::Qin => "WHITE",
        Kingdom::Chu => "RED",
        Kingdom::Han => "ORANGE",
        Kingdom::Qi => "BLUE",
        Kingdom::Wei => "GREEN",
        Kingdom::Zhao => "PURPLE",
        Kingdom::Yan => "BLACK",
    }
}

/// The victory label elephantchess.io reports: last kingdom, else 30+ captures, else kingdoms.
fn label(pos: &Position, winner: Kingdom) -> &'static str {
    if pos.alive().len() == 1 && pos.alive().contains(winner) {
        "LAST_KINGDOM_REMAINING"
    } else if pos.captures(winner) >= 30 {
        "CAPTURED_ENOUGH_PIECES"
    } else {
        "CAPTURED_ENOUGH_KINGDOMS"
    }
}

#[test]
fn all_600_elephantchess_games_replay_identically() {
    let text = include_str!("data/elephantchess-games.json");
    let file: File = serde_json::from_str(text).expect("the conformance file is JSON");
    assert_eq!(file.entries.len(), 600);
    let rules = Rules::preset(Preset::Elephantchess);
    for entry in &file.entries {
        let id = &entry.game_id;
        let mut pos = Position::start(rules);
        let mut beaten: BTreeMap<&str, Vec<&str>> = Kingdom::ALL
            .iter()
            .map(|k| (colour(*k), Vec::new()))
            .collect();
        for (i, text) in entry.moves.iter().enumerate() {
            let mv = notation::parse_move_zero_based(text)
                .unwrap_or_else(|e| panic!("game {id}, move {i}: {e}"));
            let report = pos
                .play(mv)
                .unwrap_or_else(|e| panic!("game {id}, move {i} `{text}`: {e}\n{pos}"));
            if let Some(fallen) = report.fallen {
                let Standing::Beaten { victor, .. } = fallen.standing else {
                    panic!("game {id}: unexpected {:?}", fallen.standing);
                };
                beaten
                    .get_mut(colour(victor))
                    .unwrap()
                    .push(colour(fallen.kingdom));
            }
        }
        let outcome = pos
            .outcome()
            .unwrap_or_else(|| panic!("game {id}: not over after its last move"));
        assert_eq!(colour(outcome.winner), entry.winner, "game {id}: winner");
        assert_eq!(
            label(&pos, outcome.winner),
            entry.victory_type,
            "game {id}: victory type"
        );
        let expected: BTreeMap<&str, Vec<&str>> = entry
            .captured_kingdoms
            .iter()
            .map(|(k, v)| (k.as_str(), v.iter().map(|s| s.as_str()).collect()))
            .collect();
        assert_eq!(beaten, expected, "game {id}: beaten kingdoms");
        let alive: Vec<&str> = pos.alive().iter().map(colour).collect();
        assert_eq!(alive, entry.colors_still_in_game, "game {id}: survivors");
    }
}
