//! The pages the links of the e-mails open: asked (a GET, as mail scanners make) they say what
//! the link does, with a button; done (a POST) they confirm an address or unsubscribe it.

use super::Mail;
use crate::hub::shown_name;
use crate::log::note;
use crate::mail::texts::MailLanguage;
use crate::protocol::Event;
use crate::store::StoreError;
use crate::store::mail::Purpose;

/// A page a link of an e-mail opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkPage {
    /// Its language (the player's).
    pub language: MailLanguage,
    /// Its title.
    pub title: String,
    /// What it says.
    pub text: String,
    /// The button that does it (on a page shown by a GET), if there is one.
    pub button: Option<String>,
    /// Whether the link worked.
    pub ok: bool,
}

/// What a link of an e-mail does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkAction {
    /// Confirms an address.
    Confirm,
    /// Stops the e-mails to an address.
    Unsubscribe,
}

impl LinkAction {
    /// The action of a link's path (`confirm`, `unsubscribe`).
    pub(crate) fn from_path(path: &str) -> Option<LinkAction> {
        match path {
            "confirm" => Some(LinkAction::Confirm),
            "unsubscribe" => Some(LinkAction::Unsubscribe),
            _ => None,
        }
    }

    fn purpose(self) -> Purpose {
        match self {
            LinkAction::Confirm => Purpose::Confirm,
            LinkAction::Unsubscribe => Purpose::Unsubscribe,
        }
    }

    fn words(self) -> &'static str {
        match self {
            LinkAction::Confirm => "confirm",
            LinkAction::Unsubscribe => "unsubscribe",
        }
    }
}

impl Mail {
    /// The page a link of an e-mail opens: asked (`act` false, a GET, as mail scanners make)
    /// it says what the link does, with a button; done (`act`, a POST) it does it.
    pub(crate) async fn link_page(&self, action: LinkAction, token: &str, act: bool) -> LinkPage {
        let expired = |language: MailLanguage| LinkPage {
            language,
            title: language.text(&format!("page-{}-title", action.words()), &[]),
            text: language.text("page-expired", &[]),
            button: None,
            ok: false,
        };
        if token.len() > 128 || self.mailing.is_none() {
            return expired(MailLanguage::English);
        }
        let found = match self.store.token(token, action.purpose()).await {
            Ok(Some(found)) => found,
            Ok(None) => return expired(MailLanguage::English),
            Err(e) => {
                note!(self.log, WARN, "a link was not read", why = e);
                return expired(MailLanguage::English);
            }
        };
        let language = MailLanguage::from_code(found.language.as_deref());
        let args = [
            ("address", found.address.clone().unwrap_or_default()),
            ("name", shown_name(&found.name)),
        ];
        let title = language.text(&format!("page-{}-title", action.words()), &[]);
        if !act {
            return LinkPage {
                language,
                title,
                text: language.text(&format!("page-{}-text", action.words()), &args),
                button: Some(language.text(&format!("page-{}-button", action.words()), &[])),
                ok: true,
            };
        }
        let done = match action {
            LinkAction::Confirm => self.store.confirm_address(token).await,
            LinkAction::Unsubscribe => self.store.unsubscribe(token).await,
        };
        match done {
            Ok((player, _)) => {
                note!(
                    self.log,
                    INFO,
                    "e-mail link followed",
                    player = player.0,
                    action = match action {
                        LinkAction::Confirm => "address confirmed",
                        LinkAction::Unsubscribe => "unsubscribed",
                    }
                );
                if let Ok(view) = self.mail_view(&player).await {
                    self.core.tell_player(&player, Event::Mail(view));
                }
                LinkPage {
                    language,
                    title,
                    text: language.text(&format!("page-{}-done", action.words()), &args),
                    button: None,
                    ok: true,
                }
            }
            Err(StoreError::Refused(_)) => expired(language),
            Err(e) => {
                note!(self.log, WARN, "a link was not followed", why = e);
                expired(language)
            }
        }
    }
}
