//! Saving and loading: named saves, the autosave after every change, the offer to resume an
//! unfinished game at start, and imports of positions and game text. Files are read and
//! checked completely before anything changes; a refused file leaves the game in progress
//! untouched and says why (in the interface and the log).

use std::sync::{Arc, Mutex, PoisonError};

use bevy::prelude::*;
use bevy::tasks::{IoTaskPool, Task, block_on, futures::check_ready};
use qiguo_rules::Record;

use crate::game::schedule::AppSystems;
use crate::game::state::{Dialog, Match, NewGameRequested, Notice};
use crate::game_text;
use crate::game_text::GameTextError;
use crate::i18n::Tr;
use crate::saves::{Loaded, SaveDir, SaveEntry, SaveError};
use crate::storage::SystemTime;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveStore>()
        .init_resource::<ResumeOffer>()
        .add_message::<SaveRequested>()
        .add_message::<DeleteRequested>()
        .add_message::<LoadRequested>()
        .add_message::<ResumeAnswered>()
        .add_systems(Startup, offer_resume)
        .init_resource::<FileTasks>()
        .add_systems(
            Update,
            (
                save_named,
                delete_saves,
                answer_resume,
                load_games,
                start_listing,
                finish_file_tasks,
            )
                .chain()
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(Update, autosave.in_set(AppSystems::SyncView))
        .add_systems(Last, finish_autosaves_on_exit);
}

/// File work under way on Bevy's IO task pool, so that no frame waits for the disk: the
/// autosaves being written and the saves being read for the load dialog.
#[derive(Resource, Default)]
pub struct FileTasks {
    listing: Option<Task<Result<Vec<SaveEntry>, SaveError>>>,
    autosaves: Vec<Task<Result<(), SaveError>>>,
    /// The number of the last autosave started.
    autosave_count: u64,
    /// The number of the newest autosave on disk; held while one is written, so that an older
    /// autosave finishing late never replaces a newer one.
    newest_written: Arc<Mutex<u64>>,
}

impl FileTasks {
    /// Whether no file work is under way.
    pub fn is_idle(&self) -> bool {
        self.listing.is_none() && self.autosaves.is_empty()
    }
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
    /// Whether the list of saves is being read.
    pub listing: bool,
    /// Whether a new list was asked for.
    listing_wanted: bool,
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

    /// Asks for the named saves to be listed again (read off the main thread; `listing` is
    /// set until they are).
    pub fn refresh(&mut self) {
        if self.dir.is_some() {
            self.listing_wanted = true;
            self.listing = true;
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
pub(crate) struct DeleteRequested(pub String);

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

fn offer_resume(
    mut store: ResMut<SaveStore>,
    mut offer: ResMut<ResumeOffer>,
    mut dialog: ResMut<NextState<Dialog>>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    if !store.offer_resume {
        return;
    }
    let Some(dir) = store.dir.clone() else { return };
    match dir.load_autosave() {
        None => {}
        Some(Ok(loaded)) if loaded.game.outcome().is_none() && !loaded.game.is_empty() => {
            let when = crate::storage::modified(&dir.autosave_path()).ok();
            offer.offer = Some((loaded, when));
            dialog.set(Dialog::Resume);
        }
        Some(Ok(_)) => {}
        Some(Err(e)) => {
            // Kept aside for the curious; the next autosave starts afresh.
            let kept = dir.root().join("autosave-unreadable.json");
            let _ = crate::storage::rename(&dir.autosave_path(), &kept);
            error!(
                "the last game could not be restored ({e}); the file is kept as {}",
                kept.display()
            );
            let text = tr!(
                tr,
                "resume-unreadable",
                why = e.text(*tr),
                path = kept.display().to_string()
            );
            store.last_error = Some(text.clone());
            notices.write(Notice::error(text));
        }
    }
}

fn answer_resume(
    mut answers: MessageReader<ResumeAnswered>,
    mut offer: ResMut<ResumeOffer>,
    mut dialog: ResMut<NextState<Dialog>>,
    mut games: MessageWriter<NewGameRequested>,
) {
    let Some(&ResumeAnswered(resume)) = answers.read().last() else {
        return;
    };
    dialog.set(Dialog::None);
    if let Some((loaded, _)) = offer.offer.take()
        && resume
    {
        games.write(NewGameRequested::from(loaded));
    }
}

fn save_named(
    mut requests: MessageReader<SaveRequested>,
    the_match: Res<Match>,
    mut store: ResMut<SaveStore>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    for SaveRequested(name) in requests.read() {
        let Some(dir) = &store.dir else { continue };
        let notice = match dir.save(name, &the_match.record()) {
            Ok(path) => {
                info!("saved to {}", path.display());
                store.last_error = None;
                Notice::done(tr!(tr, "saved-as", name = name.trim()))
            }
            Err(e) => {
                error!("{e}");
                store.last_error = Some(e.text(tr));
                Notice::error(e.text(tr))
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
    tr: Res<Tr>,
) {
    let tr = *tr;
    for DeleteRequested(name) in requests.read() {
        let Some(dir) = &store.dir else { continue };
        match dir.delete(name) {
            Ok(()) => {
                store.last_error = None;
                notices.write(Notice::done(tr!(tr, "save-deleted", name = name.as_str())));
            }
            Err(e) => {
                error!("{e}");
                store.last_error = Some(e.text(tr));
                notices.write(Notice::error(e.text(tr)));
            }
        }
        store.refresh();
    }
}

/// Why a load request could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LoadError {
    /// The save could not be read.
    Save(SaveError),
    /// The pasted position was refused.
    Position(GameTextError),
    /// The pasted game was refused.
    Game(GameTextError),
}

crate::i18n::display_in_english!(LoadError);

impl From<SaveError> for LoadError {
    fn from(e: SaveError) -> LoadError {
        LoadError::Save(e)
    }
}

impl LoadError {
    /// The error in the interface's language.
    pub fn text(&self, tr: Tr) -> String {
        match self {
            LoadError::Save(e) => e.text(tr),
            LoadError::Position(e) => tr!(tr, "import-position-refused", why = e.text(tr)),
            LoadError::Game(e) => tr!(tr, "import-game-refused", why = e.text(tr)),
        }
    }
}

/// Reads what a load request names into a game, or says why it cannot be played.
fn read_request(
    request: &LoadRequested,
    the_match: &Match,
    store: &SaveStore,
) -> Result<Loaded, LoadError> {
    let start = the_match.game().start_position();
    let (rules, seats) = (*start.rules(), *start.seats());
    let keep_players = |game| Loaded {
        record: Record::from_game(&game, the_match.players().to_vec()),
        game,
    };
    match request {
        LoadRequested::Save(name) => match &store.dir {
            Some(dir) => Ok(dir.load(name)?),
            None => Err(SaveError::Off.into()),
        },
        LoadRequested::Fen(text) => game_text::read_position(text, rules, seats)
            .map(keep_players)
            .map_err(LoadError::Position),
        LoadRequested::GameText(text) => game_text::read_game(text, rules, seats)
            .map(keep_players)
            .map_err(LoadError::Game),
    }
}

fn load_games(
    mut requests: MessageReader<LoadRequested>,
    the_match: Res<Match>,
    mut store: ResMut<SaveStore>,
    mut games: MessageWriter<NewGameRequested>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    let Some(request) = requests.read().last() else {
        return;
    };
    match read_request(request, &the_match, &store) {
        Ok(loaded) => {
            store.last_error = None;
            let moves = loaded.game.len();
            let text = match request {
                LoadRequested::Save(name) => {
                    tr!(tr, "save-loaded", name = name.as_str(), count = moves)
                }
                LoadRequested::Fen(_) => tr.text("position-imported"),
                LoadRequested::GameText(_) => tr!(tr, "game-imported", count = moves),
            };
            info!("loaded {request:?}: {moves} moves");
            notices.write(Notice::done(text));
            games.write(NewGameRequested::from(loaded));
        }
        Err(e) => {
            warn!("{e}");
            store.last_error = Some(e.text(tr));
            notices.write(Notice::error(e.text(tr)));
        }
    }
}

/// Writes the autosave whenever the match changes (after the first frame, so that opening
/// the game never overwrites the previous game before the players choose), once it has a
/// move, and not while the offer to resume the previous game is open.
/// Never a lesson's board: leaving the lessons brings back the game kept aside, which is
/// written again then.
fn autosave(
    the_match: Res<Match>,
    lesson: Res<crate::game::lessons::LessonRun>,
    offer: Res<ResumeOffer>,
    store: Res<SaveStore>,
    mut tasks: ResMut<FileTasks>,
    mut seen_first: Local<bool>,
) {
    if !the_match.is_changed() {
        return;
    }
    if !*seen_first {
        *seen_first = true;
        return;
    }
    if offer.offer.is_some() || the_match.game().is_empty() || lesson.is_active() {
        return;
    }
    let Some(dir) = store.dir.clone() else { return };
    let record = the_match.record();
    tasks.autosave_count += 1;
    let number = tasks.autosave_count;
    let newest = tasks.newest_written.clone();
    let task = IoTaskPool::get().spawn(async move {
        let mut newest = newest.lock().unwrap_or_else(PoisonError::into_inner);
        if *newest > number {
            return Ok(()); // a newer game is already on disk
        }
        dir.autosave(&record)?;
        *newest = number;
        Ok(())
    });
    tasks.autosaves.push(task);
}

/// Starts reading the list of saves when one is asked for.
fn start_listing(mut store: ResMut<SaveStore>, mut tasks: ResMut<FileTasks>) {
    if !store.listing_wanted {
        return;
    }
    store.listing_wanted = false;
    let Some(dir) = store.dir.clone() else {
        store.listing = false;
        return;
    };
    // A listing still under way is dropped, which cancels it.
    tasks.listing = Some(IoTaskPool::get().spawn(async move { dir.list() }));
}

/// Takes in the file work that has finished: the list of saves, and autosave failures.
fn finish_file_tasks(
    mut store: ResMut<SaveStore>,
    mut tasks: ResMut<FileTasks>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    if let Some(task) = tasks.listing.as_mut()
        && let Some(listed) = check_ready(task)
    {
        tasks.listing = None;
        store.listing = false;
        match listed {
            Ok(entries) => store.entries = entries,
            Err(e) => {
                store.entries.clear();
                store.last_error = Some(e.text(*tr));
            }
        }
    }
    let mut results = Vec::new();
    tasks.autosaves.retain_mut(|task| match check_ready(task) {
        Some(result) => {
            results.push(result);
            false
        }
        None => true,
    });
    for result in results {
        match result {
            Ok(()) => store.autosave_failing = false,
            Err(e) => {
                if !store.autosave_failing {
                    error!("{e}");
                    notices.write(Notice::error(e.text(*tr)));
                }
                store.autosave_failing = true;
            }
        }
    }
}

/// When the app closes, the autosaves under way are finished first.
fn finish_autosaves_on_exit(mut exit: MessageReader<AppExit>, mut tasks: ResMut<FileTasks>) {
    if exit.read().count() == 0 {
        return;
    }
    for task in tasks.autosaves.drain(..) {
        if let Err(e) = block_on(task) {
            error!("{e}");
        }
    }
}
