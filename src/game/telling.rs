//! The game told in words, for a player who does not see the board (a screen reader reads what
//! is written here) and for anyone who would rather ask than look: the commands typed in the
//! move box (`last`, `where Chu`, `attacks k4`, …) and their answers, in the interface's
//! language. Plain functions of the game and the language; the move box and the page's document
//! say what they return.
//!
//! A command is a word and what it is about: a point (`k4`), a kingdom (`Chu`, `楚`) or a piece
//! (`general`, `general Chu`). The words are the interface language's (`command-words-*` in the
//! translations) and always also the English ones, so that a command learned once keeps working.

use bevy::prelude::*;
use qiguo_rules::{Game, Kingdom, Move, Piece, PieceKind, Point, Position};

use crate::game::hint::HintRequested;
use crate::game::keyboard;
use crate::game::state::{Match, SeatAuthority, TurnPhase, UndoRequested};
use crate::game::ui::describe::MoveDescription;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CommandTyped>()
        .add_systems(
            Last,
            crate::game::frames::one_more_frame_when_written::<CommandTyped>
                .in_set(crate::game::frames::AskFrames),
        )
        .add_message::<Told>()
        .add_message::<ConcedeAsked>()
        .add_message::<Announced>()
        .add_systems(
            Update,
            (
                carry_out_commands.in_set(crate::game::schedule::AppSystems::ApplyRules),
                announce_the_game.in_set(crate::game::schedule::AppSystems::UpdateHud),
            ),
        );
}

/// Something the game says as it happens, for a screen reader (the page's live regions): every
/// move of every kingdom, a move taken back, a new game, and — `urgent`, to interrupt — the
/// turn of a person at this screen and the game's end.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Announced {
    /// The words.
    pub words: String,
    /// Said at once, interrupting (a person's turn, the end), rather than after what is being
    /// said.
    pub urgent: bool,
}

/// Announces what changed in the game since the last frame: the moves played (each in words),
/// a move taken back, a new game; then the end, or whose turn it is if it is a person's here —
/// said once the game takes that person's input (after the last move is shown), so that a
/// move typed as soon as it is said is not refused.
fn announce_the_game(
    the_match: Res<Match>,
    authority: Res<SeatAuthority>,
    phase: Res<State<TurnPhase>>,
    guide: Res<crate::game::selection::Guide>,
    tr: Res<Tr>,
    mut seen: Local<Option<crate::game::state::Turn>>,
    mut turn_told: Local<Option<crate::game::state::Turn>>,
    mut out: MessageWriter<Announced>,
) {
    let turn = the_match.turn();
    let tr = *tr;
    let game = the_match.game();
    let mut say = |words: String, urgent: bool| {
        out.write(Announced { words, urgent });
    };
    if *seen != Some(turn) {
        match *seen {
            Some(before) if before.generation == turn.generation && before.ply < turn.ply => {
                for words in told_moves(game, before.ply, tr) {
                    say(words, false);
                }
            }
            Some(before) if before.generation == turn.generation => {
                say(tr!(tr, "told-taken-back", ply = turn.ply + 1), false);
            }
            // A practice's question (asked again) is said by the practice.
            _ if guide.tells_the_turn => {}
            // The first frame, or another game on the board.
            _ => say(tr.text("told-new-game"), false),
        }
        *seen = Some(turn);
    }
    if *turn_told == Some(turn) {
        return;
    }
    let pos = game.position();
    if let Some(outcome) = pos.outcome() {
        say(
            tr!(
                tr,
                "told-won",
                kingdom = tr.kingdom(outcome.winner),
                how = tr.victory(outcome.victory)
            ),
            true,
        );
        *turn_told = Some(turn);
    } else if *phase.get() == TurnPhase::AwaitingInput {
        // A board that takes no move (a lesson's step or a question answered) asks nobody's:
        // what the lesson or the practice says last stays what is heard.
        // The practice says its question itself, and a miss just said is not cut off.
        if guide.takes_moves()
            && !guide.tells_the_turn
            && person_here(&the_match, &authority, pos.to_move())
        {
            say(
                tr!(
                    tr,
                    "told-your-turn",
                    kingdom = tr.kingdom(pos.to_move()),
                    ply = turn.ply + 1
                ),
                true,
            );
        }
        *turn_told = Some(turn);
    }
}

/// Whether `kingdom` is played by a person at this screen (not a computer, not someone
/// elsewhere in an online game).
fn person_here(the_match: &Match, authority: &SeatAuthority, kingdom: Kingdom) -> bool {
    the_match.computer(kingdom).is_none()
        && (!authority.follows_server() || authority.plays_online(the_match.position(), kingdom))
}

/// A command typed in the move box, or why it could not be read.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CommandTyped(pub Result<Command, Unread>);

/// The player asked to concede by typing it: the interface asks first, as its button does.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcedeAsked;

/// Words told to the player in answer to what they asked (a command's answer), for whatever
/// says them (the move box shows them; the page's document reads them out).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Told(pub String);

/// Answers the questions typed, and does what `hint`, `undo` and `concede` ask (through the
/// same messages as their buttons).
fn carry_out_commands(
    mut typed: MessageReader<CommandTyped>,
    the_match: Res<Match>,
    authority: Res<SeatAuthority>,
    tr: Res<Tr>,
    mut told: MessageWriter<Told>,
    mut hints: MessageWriter<HintRequested>,
    mut undo: MessageWriter<UndoRequested>,
    mut concede: MessageWriter<ConcedeAsked>,
) {
    for CommandTyped(command) in typed.read() {
        let words = match command {
            Err(unread) => unread.text(*tr),
            Ok(Command::Hint) => {
                hints.write(HintRequested);
                continue;
            }
            Ok(Command::Undo) => {
                undo.write(UndoRequested);
                continue;
            }
            Ok(Command::Concede) => {
                concede.write(ConcedeAsked);
                continue;
            }
            Ok(command) => answer(
                *command,
                the_match.game(),
                asker(&the_match, &authority),
                *tr,
            ),
        };
        told.write(Told(words));
    }
}

/// The kingdom whose pieces "my pieces" are: in an online game the first this window holds,
/// else the one to move (at one screen, the player typing is the one whose turn it is).
fn asker(the_match: &Match, authority: &SeatAuthority) -> Kingdom {
    let pos = the_match.position();
    Kingdom::ALL
        .into_iter()
        .find(|&k| authority.plays_online(pos, k))
        .unwrap_or(pos.to_move())
}

/// Moves told by `last` without a number: one round of seven kingdoms.
pub(crate) const ROUND: usize = 7;

/// Moves `last` tells at most.
const LAST_AT_MOST: usize = 49;

/// What a command is about when it names a kingdom or a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A kingdom's army.
    Kingdom(Kingdom),
    /// A kind of piece, of the kingdom named or else of the one asking.
    Piece(PieceKind, Option<Kingdom>),
}

/// A command typed in the move box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The last moves, a round's without a number.
    Last(usize),
    /// Where a kingdom's pieces or a kind of piece stand.
    Where(Subject),
    /// What stands on a point.
    What(Point),
    /// What attacks the piece on a point (or would attack one of the asker's there).
    Attacks(Point),
    /// What guards a point for its piece's kingdom (or for the one asking, where it is empty).
    Defends(Point),
    /// Which of the asking kingdom's pieces are attacked.
    Attacked,
    /// Where the piece on a point can go.
    Moves(Point),
    /// Every kingdom's standing, army and captures.
    Standings,
    /// Whose turn it is.
    Turn,
    /// A hint for the move to make (done by the game, not answered here).
    Hint,
    /// Take back the last move (done by the game).
    Undo,
    /// Concede (the game asks first).
    Concede,
    /// What can be typed.
    Help,
}

/// The command words, each with the message that lists a language's words for it.
const WORDS: [(&str, CommandWord); 13] = [
    ("command-words-last", CommandWord::Last),
    ("command-words-where", CommandWord::Where),
    ("command-words-what", CommandWord::What),
    ("command-words-attacks", CommandWord::Attacks),
    ("command-words-defends", CommandWord::Defends),
    ("command-words-attacked", CommandWord::Attacked),
    ("command-words-moves", CommandWord::Moves),
    ("command-words-standings", CommandWord::Standings),
    ("command-words-turn", CommandWord::Turn),
    ("command-words-hint", CommandWord::Hint),
    ("command-words-undo", CommandWord::Undo),
    ("command-words-concede", CommandWord::Concede),
    ("command-words-help", CommandWord::Help),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CommandWord {
    Last,
    Where,
    What,
    Attacks,
    Defends,
    Attacked,
    Moves,
    Standings,
    Turn,
    Hint,
    Undo,
    Concede,
    Help,
}

/// Why a typed command could not be read: what to say back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// The command wants a point and has none (or not one of the board's).
    NeedsPoint(String),
    /// `where` names neither a kingdom nor a piece.
    NeedsSubject(String),
    /// A key that asks about the cursor's point was pressed with no cursor shown.
    NeedsCursor,
}

impl Unread {
    /// What is said back, in the interface's language.
    pub(crate) fn text(&self, tr: Tr) -> String {
        match self {
            Unread::NeedsPoint(word) => tr!(tr, "told-needs-point", command = word.as_str()),
            Unread::NeedsSubject(word) => tr!(tr, "told-needs-subject", command = word.as_str()),
            Unread::NeedsCursor => tr!(tr, "told-needs-cursor", key = keyboard::CURSOR.label()),
        }
    }
}

/// Reads `text` as a command: `None` where its first word is no command's (it is a move, or
/// nothing), else the command or why it cannot be read.
pub(crate) fn read(text: &str, tr: Tr) -> Option<Result<Command, Unread>> {
    let text = text.trim().to_lowercase();
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    let word = command_word(first, tr)?;
    let point = || {
        rest.iter()
            .find_map(|w| w.parse::<Point>().ok())
            .ok_or_else(|| Unread::NeedsPoint(first.to_owned()))
    };
    Some(match word {
        CommandWord::Last => Ok(Command::Last(
            rest.iter()
                .find_map(|w| w.parse::<usize>().ok())
                .unwrap_or(ROUND)
                .clamp(1, LAST_AT_MOST),
        )),
        CommandWord::Where => subject(&rest, tr)
            .map(Command::Where)
            .ok_or_else(|| Unread::NeedsSubject(first.to_owned())),
        CommandWord::What => point().map(Command::What),
        CommandWord::Attacks => point().map(Command::Attacks),
        CommandWord::Defends => point().map(Command::Defends),
        CommandWord::Attacked => Ok(Command::Attacked),
        CommandWord::Moves => point().map(Command::Moves),
        CommandWord::Standings => Ok(Command::Standings),
        CommandWord::Turn => Ok(Command::Turn),
        CommandWord::Hint => Ok(Command::Hint),
        CommandWord::Undo => Ok(Command::Undo),
        CommandWord::Concede => Ok(Command::Concede),
        CommandWord::Help => Ok(Command::Help),
    })
}

/// The command a word is, in the interface's language or in English.
fn command_word(word: &str, tr: Tr) -> Option<CommandWord> {
    let english = Tr::default();
    WORDS.iter().find_map(|(id, command)| {
        let listed = |tr: Tr| {
            tr.text(id)
                .to_lowercase()
                .split_whitespace()
                .any(|w| w == word)
        };
        (listed(tr) || listed(english)).then_some(*command)
    })
}

/// A kingdom or a piece named by the words (either order: `general chu`, `chu general`).
fn subject(words: &[&str], tr: Tr) -> Option<Subject> {
    let kingdom = words.iter().find_map(|w| kingdom_named(w, tr));
    let piece = piece_named(&words.join(" "), tr);
    match (piece, kingdom) {
        (Some(kind), kingdom) => Some(Subject::Piece(kind, kingdom)),
        (None, Some(kingdom)) => Some(Subject::Kingdom(kingdom)),
        (None, None) => None,
    }
}

/// The kingdom a word names: its name in the language or in English, or its character
/// (`chu`, `chu's`, `楚`).
fn kingdom_named(word: &str, tr: Tr) -> Option<Kingdom> {
    let bare = word.trim_end_matches("'s").trim_end_matches("’s");
    Kingdom::ALL.into_iter().find(|&k| {
        [
            tr.kingdom(k),
            Tr::default().kingdom(k),
            k.character().to_string(),
        ]
        .iter()
        .any(|name| {
            let name = name.to_lowercase();
            name == word || name == bare
        })
    })
}

/// The kind of piece the words name, in the language or in English (a name may be more than
/// one word, or a character).
fn piece_named(words: &str, tr: Tr) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&kind| {
        [tr.piece_in_text(kind), Tr::default().piece_in_text(kind)]
            .iter()
            .any(|name| words.contains(name.as_str()))
    })
}

/// The answer to a command that asks (not [`Command::Hint`], [`Command::Undo`] or
/// [`Command::Concede`], which the game does), about `game` as `asker` sees it (the kingdom
/// whose "my pieces" are meant: the person's, or the one to move).
pub(crate) fn answer(command: Command, game: &Game, asker: Kingdom, tr: Tr) -> String {
    let pos = game.position();
    match command {
        Command::Last(count) => last_moves(game, count, tr),
        Command::Where(Subject::Kingdom(kingdom)) => where_kingdom(pos, kingdom, tr),
        Command::Where(Subject::Piece(kind, kingdom)) => {
            where_piece(pos, kind, kingdom.unwrap_or(asker), tr)
        }
        Command::What(point) => what_stands(pos, point, tr),
        Command::Attacks(point) => attackers(pos, point, asker, tr),
        Command::Defends(point) => defenders(pos, point, asker, tr),
        Command::Attacked => attacked(pos, asker, tr),
        Command::Moves(point) => moves_of(pos, point, tr),
        Command::Standings => standings(pos, tr),
        Command::Turn => turn(game, tr),
        Command::Help => format!("{} {}", tr.text("told-help"), keys_told(tr)),
        Command::Hint | Command::Undo | Command::Concede => String::new(),
    }
}

/// The keys that do what the commands do, named as the keyboard writes them.
fn keys_told(tr: Tr) -> String {
    use crate::game::keyboard;
    tr!(
        tr,
        "told-help-keys",
        cursor = keyboard::CURSOR.label(),
        next = keyboard::CURSOR_NEXT.label(),
        previous = keyboard::CURSOR_PREVIOUS.label(),
        last = keyboard::TELL_LAST.label(),
        standings = keyboard::TELL_STANDINGS.label(),
        turn = keyboard::TELL_TURN.label(),
        where = keyboard::TELL_WHERE.label(),
        attacks = keyboard::TELL_ATTACKS.label(),
        defends = keyboard::TELL_DEFENDS.label(),
        moves = keyboard::TELL_MOVES.label(),
        hint = keyboard::HINT.label(),
        undo = keyboard::UNDO.label(),
        concede = keyboard::CONCEDE.label(),
        help = keyboard::TELL_HELP.label(),
        typing = keyboard::MOVE_BOX.label()
    )
}

/// A move as a screen reader says it: "Chu's archer from j3 takes Han's swordsman on k4; Han
/// has lost 4", with what became of a kingdom that fell. `after` is the position after it (for
/// the losses counted).
pub(crate) fn told_move(description: &MoveDescription, after: &Position, tr: Tr) -> String {
    let kingdom = tr.kingdom(description.mover);
    let Some((piece, from, to)) = &description.piece else {
        let id = if description.conceded {
            "told-concedes"
        } else {
            "told-passes"
        };
        return tr!(tr, id, kingdom = kingdom) + &description.fall_text(tr).unwrap_or_default();
    };
    let text = match description.captured {
        Some(taken) => tr!(
            tr,
            "told-move-takes",
            kingdom = kingdom,
            piece = tr.piece_in_text(piece.kind),
            from = from.as_str(),
            to = to.as_str(),
            owner = tr.kingdom(taken.kingdom),
            taken = tr.piece_in_text(taken.kind),
            lost = after.losses(taken.kingdom)
        ),
        None => tr!(
            tr,
            "told-move",
            kingdom = kingdom,
            piece = tr.piece_in_text(piece.kind),
            from = from.as_str(),
            to = to.as_str()
        ),
    };
    text + &description.fall_text(tr).unwrap_or_default()
}

/// The moves of `game` from the `from`th on, each told ([`told_move`]), the positions after
/// them played forward once from the position before the first.
pub(crate) fn told_moves(game: &Game, from: usize, tr: Tr) -> Vec<String> {
    let mut after = game.position_at(from);
    game.reports()
        .skip(from)
        .map_while(|report| {
            after.play(report.mv).ok()?;
            Some(told_move(&MoveDescription::of(report), &after, tr))
        })
        .collect()
}

/// The last `count` moves, told one after another.
fn last_moves(game: &Game, count: usize, tr: Tr) -> String {
    if game.is_empty() {
        return tr.text("told-no-moves");
    }
    let start = game.len().saturating_sub(count);
    let told: Vec<String> = told_moves(game, start, tr)
        .into_iter()
        .enumerate()
        .map(|(i, words)| format!("{}. {words}", start + i + 1))
        .collect();
    tr!(tr, "told-last", count = told.len(), moves = told.join(". "))
}

/// A piece in a list: "Chu's archer on j3".
fn piece_on(piece: Piece, point: Point, tr: Tr) -> String {
    tr!(
        tr,
        "told-piece-on",
        kingdom = tr.kingdom(piece.kingdom),
        piece = tr.piece_in_text(piece.kind),
        point = point.to_string()
    )
}

/// The pieces on `points`, each with its kingdom, as a list.
fn pieces_on(pos: &Position, points: &[Point], tr: Tr) -> String {
    let named: Vec<String> = points
        .iter()
        .filter_map(|&p| pos.piece_at(p).map(|piece| piece_on(piece, p, tr)))
        .collect();
    tr.list(&named)
}

fn where_kingdom(pos: &Position, kingdom: Kingdom, tr: Tr) -> String {
    let army: Vec<String> = pos
        .army(kingdom)
        .map(|(point, piece)| format!("{} {point}", tr.piece_in_text(piece.kind)))
        .collect();
    if army.is_empty() {
        return tr!(tr, "told-where-none", kingdom = tr.kingdom(kingdom));
    }
    tr!(
        tr,
        "told-where-kingdom",
        kingdom = tr.kingdom(kingdom),
        count = army.len(),
        pieces = army.join(", ")
    )
}

fn where_piece(pos: &Position, kind: PieceKind, kingdom: Kingdom, tr: Tr) -> String {
    let points: Vec<String> = pos
        .army(kingdom)
        .filter(|(_, piece)| piece.kind == kind)
        .map(|(point, _)| point.to_string())
        .collect();
    let (kingdom, piece) = (tr.kingdom(kingdom), tr.piece_in_text(kind));
    if points.is_empty() {
        return tr!(
            tr,
            "told-where-piece-none",
            kingdom = kingdom,
            piece = piece
        );
    }
    tr!(
        tr,
        "told-where-piece",
        kingdom = kingdom,
        piece = piece,
        count = points.len(),
        points = tr.list(&points)
    )
}

/// What stands on `point`, in a sentence ("k4: Han's swordsman.", "j9 is empty.").
pub(crate) fn point_told(pos: &Position, point: Point, tr: Tr) -> String {
    what_stands(pos, point, tr)
}

fn what_stands(pos: &Position, point: Point, tr: Tr) -> String {
    if point == Point::EMPEROR {
        return tr!(tr, "told-emperor", point = point.to_string());
    }
    match pos.piece_at(point) {
        Some(piece) => tr!(tr, "told-stands", what = piece_on(piece, point, tr)),
        None => tr!(tr, "told-empty", point = point.to_string()),
    }
}

fn attackers(pos: &Position, point: Point, asker: Kingdom, tr: Tr) -> String {
    let owner = pos.piece_at(point).map_or(asker, |p| p.kingdom);
    let found = match pos.piece_at(point) {
        Some(_) => pos.attackers_of(point, pos.enemies(owner)),
        // An empty point: what would take one of the asker's pieces there.
        None => attackers_of_empty(pos, point, owner),
    };
    let at = point.to_string();
    if found.is_empty() {
        return tr!(tr, "told-attackers-none", point = at);
    }
    tr!(
        tr,
        "told-attackers",
        point = at,
        attackers = pieces_on(pos, &found, tr)
    )
}

/// The enemies of `owner` that could take one of its pieces standing on the empty `point`.
fn attackers_of_empty(pos: &Position, point: Point, owner: Kingdom) -> Vec<Point> {
    // The enemies guard the point against `owner`: each enemy kingdom's defenders of it.
    pos.enemies(owner)
        .iter()
        .flat_map(|enemy| pos.defenders_of(point, enemy))
        .collect()
}

fn defenders(pos: &Position, point: Point, asker: Kingdom, tr: Tr) -> String {
    let owner = pos.piece_at(point).map_or(asker, |p| p.kingdom);
    let found = pos.defenders_of(point, owner);
    let at = point.to_string();
    if found.is_empty() {
        return tr!(
            tr,
            "told-defenders-none",
            point = at,
            kingdom = tr.kingdom(owner)
        );
    }
    tr!(
        tr,
        "told-defenders",
        point = at,
        defenders = pieces_on(pos, &found, tr)
    )
}

fn attacked(pos: &Position, asker: Kingdom, tr: Tr) -> String {
    let enemies = pos.enemies(asker);
    let told: Vec<String> = pos
        .army(asker)
        .filter_map(|(point, piece)| {
            let by = pos.attackers_of(point, enemies);
            (!by.is_empty()).then(|| {
                tr!(
                    tr,
                    "told-attacked-piece",
                    piece = tr.piece_in_text(piece.kind),
                    point = point.to_string(),
                    by = pieces_on(pos, &by, tr)
                )
            })
        })
        .collect();
    if told.is_empty() {
        return tr!(tr, "told-attacked-none", kingdom = tr.kingdom(asker));
    }
    tr!(
        tr,
        "told-attacked",
        kingdom = tr.kingdom(asker),
        count = told.len(),
        pieces = told.join("; ")
    )
}

fn moves_of(pos: &Position, point: Point, tr: Tr) -> String {
    let at = point.to_string();
    let Some(piece) = pos.piece_at(point) else {
        return tr!(tr, "told-empty", point = at);
    };
    let who = piece_on(piece, point, tr);
    if piece.kingdom != pos.to_move() || pos.is_over() {
        return tr!(
            tr,
            "told-moves-not-now",
            what = who,
            kingdom = tr.kingdom(pos.to_move())
        );
    }
    let destinations: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|mv| mv.from() == Some(point))
        .filter_map(|mv: Move| {
            let to = mv.to()?;
            Some(match pos.piece_at(to) {
                Some(taken) => tr!(
                    tr,
                    "told-moves-takes",
                    point = to.to_string(),
                    owner = tr.kingdom(taken.kingdom),
                    piece = tr.piece_in_text(taken.kind)
                ),
                None => to.to_string(),
            })
        })
        .collect();
    if destinations.is_empty() {
        return tr!(tr, "told-moves-none", what = who);
    }
    tr!(
        tr,
        "told-moves",
        what = who,
        count = destinations.len(),
        points = tr.list(&destinations)
    )
}

fn standings(pos: &Position, tr: Tr) -> String {
    let rows: Vec<String> = Kingdom::ALL
        .into_iter()
        .map(|k| {
            tr!(
                tr,
                "told-standing",
                kingdom = tr.kingdom(k),
                standing = tr.standing(pos.standing(k)),
                army = pos.army_size(k),
                captures = pos.captures(k)
            )
        })
        .collect();
    rows.join(". ")
}

fn turn(game: &Game, tr: Tr) -> String {
    let pos = game.position();
    if pos.is_over() {
        return tr.text("told-over");
    }
    tr!(
        tr,
        "told-turn",
        ply = game.len() + 1,
        kingdom = tr.kingdom(pos.to_move())
    )
}

/// Whose turn it is (or who won) and how the kingdoms still in the game stand, in one line:
/// `pos` after `moves` moves. What a screen reader's status says (the page's document).
pub fn status_words(pos: &Position, moves: usize, tr: Tr) -> String {
    let turn = match pos.outcome() {
        Some(outcome) => tr!(tr, "page-title-won", kingdom = tr.kingdom(outcome.winner)),
        None => tr!(
            tr,
            "page-title-turn",
            kingdom = tr.kingdom(pos.to_move()),
            number = (moves + 1).to_string()
        ),
    };
    let standings: Vec<String> = Kingdom::ALL
        .into_iter()
        .filter(|&k| pos.army_size(k) > 0)
        .map(|k| {
            tr!(
                tr,
                "reader-standing",
                kingdom = tr.kingdom(k),
                army = pos.army_size(k),
                captures = pos.captures(k)
            )
        })
        .collect();
    format!("{turn}. {}", standings.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Language;
    use qiguo_rules::{Position, Preset, Rules, Seats, fen, notation};

    fn english() -> Tr {
        Tr::default()
    }

    fn point(p: &str) -> Point {
        p.parse().unwrap()
    }

    #[test]
    fn the_status_says_whose_turn_and_how_the_kingdoms_stand() {
        let pos = Position::start_with(Rules::default(), Seats::default());
        let words = status_words(&pos, 0, english());
        assert!(
            words.starts_with("Qin to move · move 1. Qin: 17 pieces, 0 taken; Chu: 17 pieces"),
            "{words}"
        );
        assert_eq!(words.matches("17 pieces, 0 taken").count(), 7, "{words}");
    }

    #[test]
    fn commands_are_read_in_the_language_and_in_english() {
        let en = english();
        assert_eq!(read("last", en), Some(Ok(Command::Last(ROUND))));
        assert_eq!(read("  Last 3 ", en), Some(Ok(Command::Last(3))));
        assert_eq!(read("last 500", en), Some(Ok(Command::Last(LAST_AT_MOST))));
        assert_eq!(
            read("where Chu", en),
            Some(Ok(Command::Where(Subject::Kingdom(Kingdom::Chu))))
        );
        assert_eq!(
            read("where general", en),
            Some(Ok(Command::Where(Subject::Piece(PieceKind::General, None))))
        );
        assert_eq!(
            read("where Chu's go-between", en),
            Some(Ok(Command::Where(Subject::Piece(
                PieceKind::GoBetween,
                Some(Kingdom::Chu)
            ))))
        );
        assert_eq!(
            read("attacks k4", en),
            Some(Ok(Command::Attacks(point("k4"))))
        );
        assert_eq!(
            read("guards k4", en),
            Some(Ok(Command::Defends(point("k4"))))
        );
        assert_eq!(read("resign", en), Some(Ok(Command::Concede)));
        // What is no command is a move (or nothing) for the move box.
        assert_eq!(read("c10h15", en), None);
        assert_eq!(read("   ", en), None);
        // A command without what it asks about says so.
        assert_eq!(
            read("attacks", en),
            Some(Err(Unread::NeedsPoint("attacks".into())))
        );
        assert_eq!(
            read("where z99", en),
            Some(Err(Unread::NeedsSubject("where".into())))
        );
        assert!(
            Unread::NeedsPoint("moves".into())
                .text(en)
                .contains("moves k4")
        );

        // Chinese words, a kingdom by its character; and English still works.
        let zh = Tr::new(Language::Chinese);
        assert_eq!(
            read("何處 楚", zh),
            Some(Ok(Command::Where(Subject::Kingdom(Kingdom::Chu))))
        );
        assert_eq!(
            read("何處 將軍", zh),
            Some(Ok(Command::Where(Subject::Piece(PieceKind::General, None))))
        );
        assert_eq!(read("where 楚", zh), read("何處 楚", zh));
        assert_eq!(read("護 k4", zh), Some(Ok(Command::Defends(point("k4")))));
        // Swedish.
        let sv = Tr::new(Language::Swedish);
        assert_eq!(read("hotade", sv), Some(Ok(Command::Attacked)));
        assert_eq!(
            read("var bågskytt", sv),
            Some(Ok(Command::Where(Subject::Piece(PieceKind::Archer, None))))
        );
    }

    #[test]
    fn the_board_is_told_point_by_point() {
        let en = english();
        let game = Game::start(Rules::default(), Seats::seven());
        let pos = game.position();
        let ask = |text: &str| {
            let command = read(text, en).expect("a command").expect("read");
            answer(command, &game, Kingdom::Qin, en)
        };
        assert_eq!(
            ask("what j10"),
            "j10: the Emperor, who never moves and is never taken."
        );
        let (general, _) = pos
            .army(Kingdom::Qin)
            .find(|(_, p)| p.kind == PieceKind::General)
            .unwrap();
        assert_eq!(
            ask(&format!("what {general}")),
            format!("Qin's general on {general}.")
        );
        assert_eq!(ask("what j9"), "j9 is empty.");
        assert_eq!(ask("where general"), format!("Qin's general: {general}."));
        let qin = ask("where Qin");
        assert!(qin.starts_with("Qin has 17 pieces: "), "{qin}");
        assert!(qin.contains(&format!("general {general}")), "{qin}");
        // At the start the archers and crossbowmen of Chu and Yan reach Qin's front.
        let attacked = pos
            .threatened_points(Kingdom::Qin, qiguo_rules::KingdomSet::ALL)
            .into_iter()
            .filter(|p| pos.piece_at(*p).is_some())
            .count();
        assert!(attacked > 0);
        let told = ask("attacked");
        assert!(
            told.starts_with(&format!("{attacked} of Qin's pieces are attacked: the ")),
            "{told}"
        );
        assert_eq!(told.matches(", by ").count(), attacked, "{told}");
        assert_eq!(ask("last"), "No move has been made yet.");
        assert_eq!(ask("turn"), "Move 1: Qin to move.");
        // A stone's moves are its legal moves, counted and listed.
        let mv = pos.legal_moves()[0];
        let from = mv.from().unwrap();
        let count = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .count();
        let moves = ask(&format!("moves {from}"));
        assert!(
            moves.contains(&format!("can go to {count} point")),
            "{moves}"
        );
        assert!(moves.contains(&mv.to().unwrap().to_string()), "{moves}");
        // Another kingdom's stone moves on its own turn.
        let (chu, _) = pos.army(Kingdom::Chu).next().unwrap();
        assert!(ask(&format!("moves {chu}")).ends_with("it is Qin's turn."));
        let standings = ask("standings");
        assert!(
            standings.starts_with("Qin: in the game, 17 pieces, 0 taken. Chu:"),
            "{standings}"
        );
    }

    #[test]
    fn a_capture_is_told_with_the_loss_and_the_fall() {
        let en = english();
        // Qin's chancellor on a5 takes Chu's general on c5 (the describe module's position).
        let setup = fen::parse(
            "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rQ5oQ10/19/19/12oG6/5rS4rG3bGbQ3 w",
        )
        .unwrap();
        let start = Position::new(&setup, Rules::preset(Preset::Classic), Seats::seven()).unwrap();
        let mut game = Game::new(start);
        // Before: Chu's general is attacked by Qin's chancellor, and guarded by nothing.
        let ask = |game: &Game, text: &str, asker| {
            let command = read(text, en).expect("a command").expect("read");
            answer(command, game, asker, en)
        };
        assert_eq!(
            ask(&game, "attacks c5", Kingdom::Qin),
            "c5 is attacked by Qin's chancellor on a5 and Han's general on i5."
        );
        assert_eq!(
            ask(&game, "defends c5", Kingdom::Qin),
            "Nothing of Chu guards c5."
        );
        assert_eq!(
            ask(&game, "attacked", Kingdom::Chu),
            "One of Chu's pieces is attacked: the general on c5, by Qin's chancellor on a5 and \
             Han's general on i5."
        );
        game.play(notation::parse_move("a5c5").unwrap()).unwrap();
        let told = told_move(
            &MoveDescription::of(game.last_report().unwrap()),
            game.position(),
            en,
        );
        assert!(
            told.starts_with("Qin's chancellor from a5 takes Chu's general on c5; Chu has lost 1"),
            "{told}"
        );
        assert!(told.contains("Chu is beaten by Qin"), "{told}");
        let last = ask(&game, "last", Kingdom::Qin);
        assert!(
            last.starts_with("The last move: 1. Qin's chancellor"),
            "{last}"
        );
    }
}
