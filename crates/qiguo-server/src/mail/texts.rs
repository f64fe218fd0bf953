//! The e-mails' words and their pages' in the three languages of the game, as Fluent messages
//! compiled into the server (`crates/qiguo-server/mail/*.ftl`). A player's language is the one
//! their client last said at hello (`en`, `sv`, `zh`); English otherwise.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use qiguo_rules::Kingdom;

/// A language the e-mails are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailLanguage {
    /// English.
    English,
    /// Swedish.
    Swedish,
    /// Traditional Chinese.
    Chinese,
}

impl MailLanguage {
    /// The language of a client's code (`en`, `sv`, `zh`, or a tag beginning so); English for
    /// any other or none.
    pub fn from_code(code: Option<&str>) -> MailLanguage {
        let code = code.unwrap_or("").trim().to_ascii_lowercase();
        let primary = code.split(['-', '_']).next().unwrap_or("");
        match primary {
            "sv" => MailLanguage::Swedish,
            "zh" => MailLanguage::Chinese,
            _ => MailLanguage::English,
        }
    }

    /// The code kept for the player: `en`, `sv` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            MailLanguage::English => "en",
            MailLanguage::Swedish => "sv",
            MailLanguage::Chinese => "zh",
        }
    }

    /// The language's tag in an HTML page.
    pub fn html_tag(self) -> &'static str {
        match self {
            MailLanguage::English => "en",
            MailLanguage::Swedish => "sv",
            MailLanguage::Chinese => "zh-Hant",
        }
    }

    fn source(self) -> &'static str {
        match self {
            MailLanguage::English => include_str!("../../mail/en.ftl"),
            MailLanguage::Swedish => include_str!("../../mail/sv.ftl"),
            MailLanguage::Chinese => include_str!("../../mail/zh-Hant.ftl"),
        }
    }

    fn bundle(self) -> &'static FluentBundle<FluentResource> {
        static BUNDLES: LazyLock<[FluentBundle<FluentResource>; 3]> = LazyLock::new(|| {
            [
                MailLanguage::English,
                MailLanguage::Swedish,
                MailLanguage::Chinese,
            ]
            .map(|language| {
                let tag: unic_langid::LanguageIdentifier = language
                    .html_tag()
                    .parse()
                    .expect("the languages' tags are well formed");
                let mut bundle = FluentBundle::new_concurrent(vec![tag]);
                // No isolation marks: the e-mails are plain text.
                bundle.set_use_isolating(false);
                let resource = FluentResource::try_new(language.source().to_owned())
                    .expect("the e-mails' messages parse (a test checks)");
                bundle
                    .add_resource(resource)
                    .expect("no message is written twice (a test checks)");
                bundle
            })
        });
        &BUNDLES[match self {
            MailLanguage::English => 0,
            MailLanguage::Swedish => 1,
            MailLanguage::Chinese => 2,
        }]
    }

    /// The message `id` with `args`; its id if it is missing (the tests make sure none is).
    pub fn text(self, id: &str, args: &[(&str, String)]) -> String {
        let bundle = self.bundle();
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_owned();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            // Counts go as numbers, so that plurals choose their form.
            match value.parse::<i64>() {
                Ok(n) if *name == "count" => fluent_args.set(*name, n),
                _ => fluent_args.set(*name, value.clone()),
            }
        }
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// A kingdom's name.
    pub fn kingdom(self, kingdom: Kingdom) -> String {
        self.text(&format!("kingdom-{}", kingdom.name().to_lowercase()), &[])
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use fluent_syntax::ast::Entry;

    use super::*;

    fn ids(language: MailLanguage) -> BTreeSet<String> {
        let resource = fluent_syntax::parser::parse(language.source())
            .unwrap_or_else(|(_, errors)| panic!("{language:?}: {errors:?}"));
        resource
            .body
            .into_iter()
            .filter_map(|entry| match entry {
                Entry::Message(m) => Some(m.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_language_has_every_message_and_they_read() {
        let english = ids(MailLanguage::English);
        for language in [MailLanguage::Swedish, MailLanguage::Chinese] {
            assert_eq!(ids(language), english, "{language:?}");
        }
        for language in [
            MailLanguage::English,
            MailLanguage::Swedish,
            MailLanguage::Chinese,
        ] {
            for id in &english {
                let text = language.text(
                    id,
                    &[
                        ("name", "Ann".into()),
                        ("kingdom", "Qin".into()),
                        ("count", "2".into()),
                        ("victory", "generals".into()),
                    ],
                );
                assert_ne!(&text, id, "{language:?} {id}");
            }
            for kingdom in Kingdom::ALL {
                assert!(!language.kingdom(kingdom).starts_with("kingdom-"));
            }
        }
        assert_eq!(MailLanguage::Chinese.kingdom(Kingdom::Han), "韓");
        assert_eq!(
            MailLanguage::English.text(
                "mail-end-won",
                &[
                    ("kingdom", "Qin".into()),
                    (
                        "victory",
                        MailLanguage::English.text("victory", &[("victory", "kingdoms".into())])
                    )
                ]
            ),
            "Qin beat two kingdoms"
        );
        assert_eq!(
            MailLanguage::Swedish.text("mail-digest-subject", &[("count", "3".into())]),
            "3 partier väntar på ditt drag i Qiguo"
        );
    }

    #[test]
    fn languages_from_clients_codes() {
        assert_eq!(MailLanguage::from_code(Some("sv")), MailLanguage::Swedish);
        assert_eq!(
            MailLanguage::from_code(Some("zh-Hant")),
            MailLanguage::Chinese
        );
        assert_eq!(MailLanguage::from_code(Some("ZH")), MailLanguage::Chinese);
        assert_eq!(MailLanguage::from_code(Some("fr")), MailLanguage::English);
        assert_eq!(MailLanguage::from_code(None), MailLanguage::English);
    }
}
