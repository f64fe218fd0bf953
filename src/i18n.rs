//! The interface's words in English, traditional Chinese and Swedish.
//!
//! Every string a player reads in the window is a [Project Fluent](https://projectfluent.org)
//! message in `assets/i18n/<language>.ftl`, compiled into the binary. A [`Tr`] names the
//! language in force and looks messages up: `tr.text("menu-new-game")`, or with variables
//! through [`tr!`](crate::tr). A message missing from a translation falls back to English, and
//! one missing from English shows its id (the tests make sure neither happens). The command-line
//! tools stay English and do not use this module.

use std::fmt;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use qiguo_ai::Level;
use qiguo_rules::{Kingdom, PieceKind, Preset, Standing, Victory};
use serde::{Deserialize, Serialize};

/// The interface language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// English.
    #[serde(rename = "en")]
    English,
    /// Traditional Chinese (繁體中文), the game's own script.
    #[serde(rename = "zh")]
    Chinese,
    /// Swedish (Svenska).
    #[serde(rename = "sv")]
    Swedish,
}

/// A language code the game does not speak.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a language of the game: en, zh or sv")]
pub struct ParseLanguageError(String);

impl std::str::FromStr for Language {
    type Err = ParseLanguageError;

    /// A language from its code (`en`, `zh`, `sv`; any case, spaces around ignored).
    fn from_str(text: &str) -> Result<Language, ParseLanguageError> {
        Language::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseLanguageError(text.to_owned()))
    }
}

impl Language {
    /// All languages, in the order the Settings window lists them.
    pub const ALL: [Language; 3] = [Language::English, Language::Chinese, Language::Swedish];

    /// The language's code: `en`, `zh`, `sv`.
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Chinese => "zh",
            Language::Swedish => "sv",
        }
    }

    /// The language's name in itself.
    pub const fn native_name(self) -> &'static str {
        match self {
            Language::English => "English",
            Language::Chinese => "繁體中文",
            Language::Swedish => "Svenska",
        }
    }

    /// The language for a locale such as `sv_SE.UTF-8`, `zh-Hant-TW` or `en-GB`, if the game
    /// speaks it (any Chinese locale gets the traditional script the game is written in).
    pub fn from_locale(locale: &str) -> Option<Language> {
        let primary = locale
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The message files, by language: the language, its tag for Fluent's plural rules, the text.
pub const SOURCES: [(Language, &str, &str); 3] = [
    (
        Language::English,
        "en",
        include_str!("../assets/i18n/en.ftl"),
    ),
    (
        Language::Chinese,
        "zh-Hant",
        include_str!("../assets/i18n/zh-Hant.ftl"),
    ),
    (
        Language::Swedish,
        "sv",
        include_str!("../assets/i18n/sv.ftl"),
    ),
];

/// The three languages' messages, parsed once.
static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> = LazyLock::new(|| {
    SOURCES
        .iter()
        .map(|(_, tag, text)| {
            let resource = FluentResource::try_new((*text).to_owned()).unwrap_or_else(|(r, e)| {
                // The tests parse every file cleanly; a broken line loses only its message.
                bevy::log::error!("messages for {tag}: {} syntax errors", e.len());
                r
            });
            let langid = tag.parse().unwrap_or_default();
            let mut bundle = FluentBundle::new_concurrent(vec![langid]);
            // Placeables are not wrapped in bidi isolation marks: every language here is
            // written left to right, and the interface font has no glyphs for the marks.
            bundle.set_use_isolating(false);
            if let Err(errors) = bundle.add_resource(resource) {
                bevy::log::error!("messages for {tag}: {} duplicate ids", errors.len());
            }
            bundle
        })
        .collect()
});

fn bundle(language: Language) -> &'static FluentBundle<FluentResource> {
    let index = SOURCES
        .iter()
        .position(|(l, _, _)| *l == language)
        .unwrap_or(0);
    &BUNDLES[index]
}

/// The language the interface speaks, and the way to its words. Cheap to copy; one is a Bevy
/// resource, replaced when the player picks another language.
#[derive(bevy::prelude::Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tr {
    language: Language,
}

impl Default for Tr {
    fn default() -> Tr {
        Tr::new(Language::English)
    }
}

impl Tr {
    /// The words of `language`.
    pub const fn new(language: Language) -> Tr {
        Tr { language }
    }

    /// The language in force.
    pub const fn language(self) -> Language {
        self.language
    }

    /// The message `id`, without variables.
    pub fn text(self, id: &str) -> String {
        self.format(id, None)
    }

    /// The message `id` with its variables.
    pub fn with(self, id: &str, args: &FluentArgs) -> String {
        self.format(id, Some(args))
    }

    fn format(self, id: &str, args: Option<&FluentArgs>) -> String {
        for language in [self.language, Language::English] {
            let bundle = bundle(language);
            if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, args, &mut errors);
                if !errors.is_empty() {
                    bevy::log::warn!("message {id} ({language}): {errors:?}");
                }
                return text.into_owned();
            }
        }
        bevy::log::warn!("no message {id}");
        id.to_owned()
    }

    /// A kingdom's name: Qin, 秦.
    pub fn kingdom(self, kingdom: Kingdom) -> String {
        self.text(&format!("kingdom-{}", kingdom.name()))
    }

    /// A kingdom's name with its character before it where the language does not already
    /// write it so: "秦 Qin" in English and Swedish, "秦" in Chinese.
    pub fn kingdom_titled(self, kingdom: Kingdom) -> String {
        match self.language {
            Language::Chinese => self.kingdom(kingdom),
            _ => format!("{} {}", kingdom.character(), self.kingdom(kingdom)),
        }
    }

    /// A piece's name as a title: General, 將, General.
    pub fn piece(self, kind: PieceKind) -> String {
        self.text(&format!("piece-{}", piece_key(kind)))
    }

    /// A piece's name inside a sentence (lower case where the language writes it so).
    pub fn piece_in_text(self, kind: PieceKind) -> String {
        self.piece(kind).to_lowercase()
    }

    /// A computer level's name: Easy, 易, Lätt.
    pub fn level(self, level: Level) -> String {
        self.text(&format!("level-{}", level.name()))
    }

    /// What a rules preset follows, in a sentence.
    pub fn preset_summary(self, preset: Preset) -> String {
        self.text(&format!("preset-{}", preset.name()))
    }

    /// How a kingdom stands, in a few words ("beaten by Qin", "conceded").
    pub fn standing(self, standing: Standing) -> String {
        match standing {
            Standing::InGame => self.text("standing-in-game"),
            Standing::Absent => self.text("standing-empty"),
            Standing::Beaten {
                victor,
                general_captured: true,
            } => crate::tr!(
                self,
                "standing-general-taken",
                victor = self.kingdom(victor)
            ),
            Standing::Beaten { victor, .. } => {
                crate::tr!(self, "standing-beaten", victor = self.kingdom(victor))
            }
            Standing::Forfeited { by } => {
                crate::tr!(self, "standing-forfeited", ally = self.kingdom(by))
            }
            Standing::Conceded { victor: Some(v) } => {
                crate::tr!(self, "standing-conceded-to", victor = self.kingdom(v))
            }
            Standing::Conceded { victor: None } => self.text("standing-conceded"),
        }
    }

    /// How a game was won, as the end of a sentence whose subject is the winner.
    pub fn victory(self, victory: Victory) -> String {
        self.text(match victory {
            Victory::Generals => "victory-generals",
            Victory::Kingdoms => "victory-kingdoms",
            Victory::Captures => "victory-captures",
            Victory::LastKingdom => "victory-last",
            Victory::EarlyEnd => "victory-early-end",
            Victory::MostCaptures => "victory-most-captures",
        })
    }

    /// A list of names joined as the language joins them: "a, b and c".
    pub fn list(self, items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => crate::tr!(
                self,
                "list-and",
                first = rest.join(&self.text("list-separator")),
                last = last.as_str()
            ),
        }
    }
}

/// The id part of a piece's message: `general`, `go-between`, ….
fn piece_key(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Chancellor => "chancellor",
        PieceKind::Diplomat => "diplomat",
        PieceKind::Cannon => "cannon",
        PieceKind::GoBetween => "go-between",
        PieceKind::Archer => "archer",
        PieceKind::Crossbowman => "crossbowman",
        PieceKind::Dagger => "dagger",
        PieceKind::Swordsman => "swordsman",
        PieceKind::Knight => "knight",
    }
}

/// The first of the platform's languages (the browser's in a page, in the player's order; the
/// system's locale on the desktop) that is one of the game's.
pub fn system_language() -> Option<Language> {
    crate::locale::platform_locales()
        .iter()
        .find_map(|locale| Language::from_locale(locale))
}

/// A message with variables: `tr!(tr, "id", name = value, …)`; values are strings or numbers.
#[macro_export]
macro_rules! tr {
    ($tr:expr, $id:expr) => {
        $tr.text($id)
    };
    ($tr:expr, $id:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = fluent_bundle::FluentArgs::new();
        $(args.set(stringify!($name), $value);)+
        $tr.with($id, &args)
    }};
}

/// Gives an error type whose words are the interface's messages (`fn text(&self, Tr)`) its
/// `Display` and `Error`, in English: the log and the command line read the same words as the
/// window, from the same `.ftl` file, with no second English text beside them.
macro_rules! display_in_english {
    ($ty:ty) => {
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.text($crate::i18n::Tr::default()))
            }
        }

        impl ::std::error::Error for $ty {}
    };
}
pub(crate) use display_in_english;

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_syntax::ast;
    use std::collections::{BTreeMap, BTreeSet};

    /// Every message of a file with the variables it uses (in its value and its variants).
    fn messages(text: &str) -> BTreeMap<String, BTreeSet<String>> {
        let resource = fluent_syntax::parser::parse(text).unwrap_or_else(|(_, errors)| {
            panic!("syntax errors: {errors:?}");
        });
        let mut out = BTreeMap::new();
        for entry in resource.body {
            if let ast::Entry::Message(message) = entry {
                let mut vars = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_vars(pattern, &mut vars);
                }
                assert!(
                    out.insert(message.id.name.to_owned(), vars).is_none(),
                    "{} twice",
                    message.id.name
                );
            }
        }
        out
    }

    fn pattern_vars(pattern: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
        for element in &pattern.elements {
            if let ast::PatternElement::Placeable { expression } = element {
                expression_vars(expression, vars);
            }
        }
    }

    fn expression_vars(expression: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
        match expression {
            ast::Expression::Select { selector, variants } => {
                inline_vars(selector, vars);
                for variant in variants {
                    pattern_vars(&variant.value, vars);
                }
            }
            ast::Expression::Inline(inline) => inline_vars(inline, vars),
        }
    }

    fn inline_vars(inline: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
        match inline {
            ast::InlineExpression::VariableReference { id } => {
                vars.insert(id.name.to_owned());
            }
            ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
            _ => {}
        }
    }

    #[test]
    fn every_message_exists_in_every_language_with_the_same_variables() {
        let english = messages(SOURCES[0].2);
        assert!(english.len() > 200, "{} messages", english.len());
        for (language, _, text) in &SOURCES[1..] {
            let other = messages(text);
            let missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
            let extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
            assert!(missing.is_empty(), "{language} lacks {missing:?}");
            assert!(extra.is_empty(), "{language} has unknown {extra:?}");
            for (id, vars) in &english {
                assert_eq!(&other[id], vars, "{language}: the variables of {id}");
            }
        }
    }

    /// The string literals of the game's sources written like message ids (lower-case words
    /// joined by dashes), with the file each is in.
    fn id_like_literals() -> BTreeSet<(String, String)> {
        let mut files = Vec::new();
        let root = qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR")).join("src");
        collect_rust_files(root, &mut files);
        let mut found = BTreeSet::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for literal in text.split('"').skip(1).step_by(2) {
                let id_like = literal.contains('-')
                    && literal.split('-').all(|w| {
                        !w.is_empty()
                            && w.chars()
                                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                    });
                if id_like {
                    found.insert((literal.to_owned(), file.display().to_string()));
                }
            }
        }
        found
    }

    /// Literals shaped like ids that are not messages: egui ids, keys, command-line values and
    /// test data.
    const NOT_MESSAGES: [&str; 27] = [
        "aria-label",
        "aria-live",
        "data-board-drawn-ms",
        "data-textures-whole-ms",
        "data-frames-ms",
        "data-frames",
        "data-run-ms",
        "data-locate",
        "data-located",
        "data-sounds",
        "data-whole-font",
        "data-emoji-fonts",
        "emoji-icon-font",
        "qiguo-kai-whole",
        "qiguo-reloaded-for-protocol",
        "data-computers-searched-ms",
        "go-between",
        "two-players",
        "qiguo-kai",
        "qiguo-palette",
        "settings-grid",
        "no-such-message",
        "kebab-case",
        "round-trip",
        "stand-in",
        "by-rating",
        "at-random",
    ];

    /// Ids the code puts together from a name (`kingdom-qin`, `piece-general`, …) and the ids
    /// the lesson files name.
    fn composed_ids() -> Vec<String> {
        let mut ids = Vec::new();
        for k in Kingdom::ALL {
            ids.push(format!("kingdom-{}", k.name()));
            ids.push(format!("colour-{}", k.colour_name()));
        }
        for kind in PieceKind::ALL {
            ids.push(format!("piece-{}", piece_key(kind)));
        }
        for level in Level::ALL {
            ids.push(format!("level-{}", level.name()));
        }
        for preset in Preset::ALL {
            ids.push(format!("preset-{}", preset.name()));
        }
        for seating in crate::game::ui::dialogs::SeatingKind::ALL {
            ids.push(format!("seating-{}", seating.key()));
        }
        // The lessons name their texts in their files.
        for lesson in crate::lessons::all() {
            ids.extend(lesson.message_ids().into_iter().map(str::to_owned));
        }
        ids
    }

    #[test]
    fn every_message_the_code_names_exists_and_every_message_is_used() {
        let english = messages(SOURCES[0].2);
        let literals = id_like_literals();
        assert!(literals.len() > 200, "{} ids found", literals.len());
        for (id, file) in &literals {
            assert!(
                english.contains_key(id) || NOT_MESSAGES.contains(&id.as_str()),
                "{file} names {id}, which en.ftl lacks"
            );
        }
        let composed = composed_ids();
        for id in &composed {
            assert!(english.contains_key(id), "en.ftl lacks {id}");
        }
        for id in english.keys() {
            assert!(
                literals.iter().any(|(l, _)| l == id) || composed.contains(id),
                "{id} is never used"
            );
        }
    }

    /// Every text every language can show, with sample values for its variables.
    fn every_text() -> Vec<String> {
        let english = messages(SOURCES[0].2);
        let mut out = Vec::new();
        for (language, _, _) in SOURCES {
            let bundle = bundle(language);
            for (id, vars) in &english {
                for count in [0, 1, 2, 5] {
                    let mut args = FluentArgs::new();
                    for var in vars {
                        args.set(var.as_str(), count);
                    }
                    let pattern = bundle.get_message(id).and_then(|m| m.value()).unwrap();
                    let mut errors = Vec::new();
                    out.push(
                        bundle
                            .format_pattern(pattern, Some(&args), &mut errors)
                            .into_owned(),
                    );
                }
            }
        }
        out
    }

    fn collect_rust_files(dir: std::path::PathBuf, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                collect_rust_files(path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every character any language's messages can show has a glyph in the interface's fonts
    /// (egui's own, then the shipped kaishu, as `hud::set_up_style` installs them).
    #[test]
    fn every_character_of_every_language_has_a_glyph() {
        use ab_glyph::{Font, FontRef};
        use bevy_egui::egui;
        let definitions = egui::FontDefinitions::default();
        let mut fonts: Vec<FontRef> = definitions
            .font_data
            .values()
            .map(|data| FontRef::try_from_slice_and_index(&data.font, data.index).unwrap())
            .collect();
        fonts.push(FontRef::try_from_slice(crate::game::art::textures::KAI_FONT).unwrap());
        let texts = every_text();
        let mut checked = BTreeSet::new();
        for text in &texts {
            for c in text.chars().filter(|c| !c.is_whitespace()) {
                if checked.insert(c) {
                    assert!(
                        fonts.iter().any(|f| f.glyph_id(c).0 != 0),
                        "no glyph for {c:?} (U+{:04X}) in {text:?}",
                        c as u32
                    );
                }
            }
        }
        // Latin with Swedish letters, and Chinese.
        assert!(
            checked.contains(&'ä') && checked.contains(&'輪'),
            "{checked:?}"
        );
    }

    /// The page's first fonts (egui's Latin faces, without its emoji ones, and the Chinese
    /// core cut: `crate::browser::font`) draw every character of every language, and the move
    /// list's buttons.
    #[test]
    fn the_pages_first_fonts_draw_every_language() {
        use ab_glyph::{Font, FontRef};
        let fonts = [
            FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).unwrap(),
            FontRef::try_from_slice(epaint_default_fonts::HACK_REGULAR).unwrap(),
            FontRef::try_from_slice(crate::game::art::textures::KAI_FONT_CORE).unwrap(),
        ];
        let mut texts = every_text();
        texts.push("⇤ ◀ ▶ ⇥".to_owned());
        let missing: BTreeSet<char> = texts
            .iter()
            .flat_map(|text| text.chars())
            .filter(|c| !c.is_whitespace())
            .filter(|&c| fonts.iter().all(|f| f.glyph_id(c).0 == 0))
            .collect();
        assert!(
            missing.is_empty(),
            "no glyph in the page's first fonts for {missing:?}"
        );
    }

    #[test]
    fn every_message_formats_without_errors_in_every_language() {
        let english = messages(SOURCES[0].2);
        for (language, _, _) in SOURCES {
            let bundle = bundle(language);
            for (id, vars) in &english {
                let mut args = FluentArgs::new();
                for var in vars {
                    args.set(var.as_str(), 2);
                }
                let pattern = bundle.get_message(id).and_then(|m| m.value()).unwrap();
                let mut errors = Vec::new();
                let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
                assert!(errors.is_empty(), "{language} {id}: {errors:?}");
                assert!(!text.trim().is_empty(), "{language} {id} is empty");
            }
        }
    }

    #[test]
    fn names_and_lists_follow_the_language() {
        let en = Tr::new(Language::English);
        let zh = Tr::new(Language::Chinese);
        let sv = Tr::new(Language::Swedish);
        assert_eq!(en.kingdom(Kingdom::Qin), "Qin");
        assert_eq!(zh.kingdom(Kingdom::Qin), "秦");
        assert_eq!(en.kingdom_titled(Kingdom::Zhao), "趙 Zhao");
        assert_eq!(zh.kingdom_titled(Kingdom::Zhao), "趙");
        assert_eq!(en.piece(PieceKind::Knight), "Knight");
        assert_eq!(zh.piece(PieceKind::Knight), "騎兵");
        assert_eq!(sv.piece_in_text(PieceKind::Knight), "ryttare");
        assert_eq!(en.level(Level::Hard), "Hard");
        let items = ["a", "b", "c"].map(String::from);
        assert_eq!(en.list(&items), "a, b and c");
        assert_eq!(sv.list(&items), "a, b och c");
        assert_eq!(zh.list(&items), "a、b和c");
        assert_eq!(en.list(&items[..1]), "a");
        // Plurals follow each language's rules.
        assert_eq!(tr!(en, "moves-count", count = 1), "1 move");
        assert_eq!(tr!(en, "moves-count", count = 3), "3 moves");
        assert_eq!(tr!(sv, "moves-count", count = 1), "1 drag");
        assert_eq!(tr!(sv, "moves-count", count = 3), "3 drag");
        assert_eq!(tr!(zh, "moves-count", count = 3), "3 步");
    }

    #[test]
    fn a_missing_message_shows_its_id() {
        assert_eq!(
            Tr::new(Language::Swedish).text("no-such-message"),
            "no-such-message"
        );
    }
}
