//! Saving and loading: named saves, the autosave after every change, the offer to resume an
//! unfinished game at start, and imports of positions and game text. Files are read and
//! checked completely before anything changes; a refused file leaves the game in progress
//! untouched and says why (in the interface and the log).

use std::time::SystemTime;

use bevy::prelude::*;
use qiguo_rules::Record;

use super::AppSystems;
use super::state::{Match, NewGameRequested, Notice};
use crate::game_text;
use crate::saves::{Loaded, SaveDir, SaveEntry};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveStore>()
        .init_resource::<ResumeOffer>()
        .add_message::<SaveRequested>()
        .add_message::<DeleteRequested>()
        .add_message::<LoadRequested>()
        .add_message::<ResumeAnswered>()
        .add_systems(Startup, offer_resume)
        .add_systems(
            Update,
            (save_named, delete_saves, answer_resume, load_games)
                .chain()
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(Update, autosave.in_set(AppSystems::SyncView));
}

/// Where games are saved, and what the load dialog lists.
#[derive(Resource, Debug, Default)]
pub struct SaveStore {
    /// The data directory; `None` turns saving off (tests, screenshots).
    pub dir: Option<SaveDir>,
    /// Whether to look for an unfinished game to resume at start.
    pub offer_resume: bool,
    /// The named saves, newest first, as last listed.
    pub entries: Vec<SaveEntry>,
    /// The last thing that went wrong with files, for the dialogs.
    pub last_error: Option<String>,
    /// Whether the autosave is failing (so that the message is not repeated every move).
    autosave_failing: bool,
}

impl SaveStore {
    /// Saving into `dir`.
    pub fn at(dir: SaveDir) -> SaveStore {
        SaveStore {
            dir: Some(dir),
            ..SaveStore::default()
        }
    }

    /// Lists the named saves again.
    pub fn refresh(&mut self) {
        let Some(dir) = &self.dir else { return };
        match dir.list() {
            Ok(entries) => self.entries = entries,
            Err(e) => {
                self.entries.clear();
                self.last_error = Some(e);
            }
        }
    }
}

/// An unfinished game found in the autosave at start, waiting for the players' answer.
#[derive(Resource, Debug, Default)]
pub struct ResumeOffer {
    /// The game and when it was saved.
    pub offer: Option<(Loaded, Option<SystemTime>)>,
}

/// Save the match under a name (replacing a save of that name).
#[derive(Message, Clone, Debug)]
pub struct SaveRequested(pub String);

/// Delete the named save.
#[derive(Message, Clone, Debug)]
pub struct DeleteRequested(pub String);

/// Replace the match with a game from elsewhere, once it has been read and checked.
#[derive(Message, Clone, Debug)]
pub enum LoadRequested {
    /// A named save.
    Save(String),
    /// A position in 7K FEN, under the current rules and seats.
    Fen(String),
    /// A game as text (see [`crate::game_text`]), under the current seats.
    GameText(String),
}

/// The players' answer to the offer to resume: `true` to resume.
#[derive(Message, Clone, Copy, Debug)]
pub struct ResumeAnswered(pub bool);

impl Match {
    /// The match as a game record: rules, seats, players, start and moves.
    pub fn record(&self) -> Record {
        Record::from_game(self.game(), self.players().to_vec())
    }
}

fn offer_resume(
    mut store: ResMut<SaveStore>,
    mut offer: ResMut<ResumeOffer>,
    mut notices: MessageWriter<Notice>,
) {
    if !store.offer_resume {
        return;
    }
    let Some(dir) = store.dir.clone() else { return };
    match dir.load_autosave() {
        None => {}
        Some(Ok(loaded)) if loaded.game.outcome().is_none() && !loaded.game.is_empty() => {
            let when = std::fs::metadata(dir.autosave_path())
                .and_then(|m| m.modified())
                .ok();
            offer.offer = Some((loaded, when));
        }
        Some(Ok(_)) => {}
        Some(Err(e)) => {
            // Kept aside for the curious; the next autosave starts afresh.
            let kept = dir.root().join("autosave-unreadable.json");
            let _ = std::fs::rename(dir.autosave_path(), &kept);
            let text = format!(
                "the last game could not be restored ({e}); the file is kept as {}",
                kept.display()
            );
            error!("{text}");
            store.last_error = Some(text.clone());
            notices.write(Notice::error(text));
        }
    }
}

fn answer_resume(
    mut answers: MessageReader<ResumeAnswered>,
    mut offer: ResMut<ResumeOffer>,
    mut games: MessageWriter<NewGameRequested>,
) {
    let Some(&ResumeAnswered(resume)) = answers.read().last() else {
        return;
    };
    if let Some((loaded, _)) = offer.offer.take()
        && resume
    {
        games.write(NewGameRequested {
            players: loaded.players(),
            game: loaded.game,
        });
    }
}

fn save_named(
    mut requests: MessageReader<SaveRequested>,
    the_match: Res<Match>,
    mut store: ResMut<SaveStore>,
    mut notices: MessageWriter<Notice>,
) {
    for SaveRequested(name) in requests.read() {
        let Some(dir) = &store.dir else { continue };
        let notice = match dir.save(name, &the_match.record()) {
            Ok(path) => {
                info!("saved to {}", path.display());
                store.last_error = None;
                Notice::done(format!("Saved as “{}”", name.trim()))
            }
            Err(e) => {
                error!("{e}");
                store.last_error = Some(e.clone());
                Notice::error(e)
            }
        };
        notices.write(notice);
        store.refresh();
    }
}

fn delete_saves(
    mut requests: MessageReader<DeleteRequested>,
    mut store: ResMut<SaveStore>,
    mut notices: MessageWriter<Notice>,
) {
    for DeleteRequested(name) in requests.read() {
        let Some(dir) = &store.dir else { continue };
        match dir.delete(name) {
            Ok(()) => {
                store.last_error = None;
                notices.write(Notice::done(format!("Deleted “{name}”")));
            }
            Err(e) => {
                error!("{e}");
                store.last_error = Some(e.clone());
                notices.write(Notice::error(e));
            }
        }
        store.refresh();
    }
}

/// Reads what a load request names into a game, or says why it cannot be played.
fn read_request(
    request: &LoadRequested,
    the_match: &Match,
    store: &SaveStore,
) -> Result<Loaded, String> {
    let start = the_match.game().start_position();
    let (rules, seats) = (*start.rules(), *start.seats());
    let keep_players = |game| Loaded {
        record: Record::from_game(&game, the_match.players().to_vec()),
        game,
    };
    match request {
        LoadRequested::Save(name) => match &store.dir {
            Some(dir) => dir.load(name),
            None => Err("saving is off in this session".into()),
        },
        LoadRequested::Fen(text) => game_text::read_position(text, rules, seats)
            .map(keep_players)
            .map_err(|e| format!("position not imported: {e}")),
        LoadRequested::GameText(text) => game_text::read_game(text, rules, seats)
            .map(keep_players)
            .map_err(|e| format!("game not imported: {e}")),
    }
}

fn load_games(
    mut requests: MessageReader<LoadRequested>,
    the_match: Res<Match>,
    mut store: ResMut<SaveStore>,
    mut games: MessageWriter<NewGameRequested>,
    mut notices: MessageWriter<Notice>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    match read_request(request, &the_match, &store) {
        Ok(loaded) => {
            store.last_error = None;
            let what = match request {
                LoadRequested::Save(name) => format!("Loaded “{name}”"),
                LoadRequested::Fen(_) => "Position imported".to_owned(),
                LoadRequested::GameText(_) => "Game imported".to_owned(),
            };
            info!("{what}: {} moves", loaded.game.len());
            notices.write(Notice::done(format!("{what}: {} moves", loaded.game.len())));
            games.write(NewGameRequested {
                players: loaded.players(),
                game: loaded.game,
            });
        }
        Err(e) => {
            error!("{e}");
            store.last_error = Some(e.clone());
            notices.write(Notice::error(e));
        }
    }
}

/// Writes the autosave whenever the match changes (after the first frame, so that opening
/// the game never overwrites the previous game before the players choose), once it has a
/// move, and not while the offer to resume the previous game is open.
fn autosave(
    the_match: Res<Match>,
    offer: Res<ResumeOffer>,
    mut store: ResMut<SaveStore>,
    mut notices: MessageWriter<Notice>,
    mut seen_first: Local<bool>,
) {
    if !the_match.is_changed() {
        return;
    }
    if !*seen_first {
        *seen_first = true;
        return;
    }
    if offer.offer.is_some() || the_match.game().is_empty() {
        return;
    }
    let Some(dir) = &store.dir else { return };
    match dir.autosave(&the_match.record()) {
        Ok(()) => store.autosave_failing = false,
        Err(e) => {
            if !store.autosave_failing {
                error!("{e}");
                notices.write(Notice::error(e));
            }
            store.autosave_failing = true;
        }
    }
}
