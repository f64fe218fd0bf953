//! E-mail online: an address to be told at when it is the player's move and they are away
//! (confirmed through a link sent there), one e-mail a turn or a daily digest, removed at any
//! time — asked once signed in, changed from the *Online…* window's section (or a [`SetMail`]
//! message), and told again by the server when the player confirms it. A server that sends no
//! e-mail says so.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::{Answer, Ask, Event, MailView};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn, Told};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineMail>()
        .add_message::<SetMail>()
        .add_systems(
            Update,
            (ask_once_signed_in, set_mail, read_answers, read_events)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Mail, section);
}

/// Give the server an e-mail address (with a daily digest or not), or (`None`) remove it.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SetMail {
    /// The address as typed, or `None`.
    pub address: Option<String>,
    /// One e-mail a day rather than one a turn.
    pub digest: bool,
}

/// The player's e-mail as the server has it, and the section's fields.
#[derive(Resource, Debug, Default)]
pub struct OnlineMail {
    /// What the server said, once it said.
    pub view: Option<MailView>,
    /// The address being typed (filled from the server's once it said).
    address: Option<String>,
    /// One e-mail a day rather than one a turn.
    digest: bool,
    /// The requests asked: whether each changes the address (a link to confirm is sent).
    pending: Pending<bool>,
}

fn ask_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut mail: ResMut<OnlineMail>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        mail.view = None;
        mail.address = None;
        mail.pending.ask(&mut online, Ask::Mail {}, false);
    }
}

fn set_mail(
    mut asked: MessageReader<SetMail>,
    mut mail: ResMut<OnlineMail>,
    mut online: ResMut<Online>,
) {
    for SetMail { address, digest } in asked.read() {
        let ask = Ask::SetMail {
            address: address.clone(),
            digest: *digest,
        };
        mail.pending.ask(&mut online, ask, true);
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut mail: ResMut<OnlineMail>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for (changed, answer) in mail.pending.answers(answers.read(), &mut notices, *tr) {
        if let Answer::Mail(view) = answer {
            if changed && view.address.is_some() && !view.confirmed {
                notices.write(Notice::done(tr.text("online-mail-sent-link")));
            }
            mail.view = Some(view.clone());
        }
    }
}

/// The server tells of the address confirmed (through the link, on any device).
fn read_events(
    mut told: MessageReader<Told>,
    mut mail: ResMut<OnlineMail>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for Told(event) in told.read() {
        if let Event::Mail(view) = event {
            if view.confirmed && mail.view.as_ref().is_some_and(|m| !m.confirmed) {
                notices.write(Notice::done(tr.text("online-mail-confirmed")));
            }
            mail.view = Some(view.clone());
        }
    }
}

/// The section: the address, the digest, saved or removed; whether it is confirmed.
fn section(
    InMut(ui): InMut<egui::Ui>,
    mut mail: ResMut<OnlineMail>,
    online: Res<Online>,
    mut set: MessageWriter<SetMail>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    let mail = &mut *mail;
    let Some(view) = mail.view.as_ref().filter(|_| online.in_touch()) else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.text("online-mail")).strong())
            .on_hover_text(tr.text("online-mail-hint"));
        if !view.offered {
            ui.label(
                RichText::new(tr.text("online-mail-not-offered")).color(Color32::from_gray(170)),
            );
            return;
        }
        let typed = mail.address.get_or_insert_with(|| {
            mail.digest = view.digest;
            view.address.clone().unwrap_or_default()
        });
        ui.add(
            egui::TextEdit::singleline(typed)
                .desired_width(190.0)
                .char_limit(254)
                .hint_text(tr.text("online-mail-address")),
        );
        ui.checkbox(&mut mail.digest, tr.text("online-mail-digest"))
            .on_hover_text(tr.text("online-mail-digest-hint"));
        let typed = typed.trim().to_owned();
        let changed = view.address.as_deref() != Some(typed.as_str()) || view.digest != mail.digest;
        if ui
            .add_enabled(
                !typed.is_empty() && changed,
                egui::Button::new(tr.text("online-mail-save")),
            )
            .clicked()
        {
            set.write(SetMail {
                address: Some(typed),
                digest: mail.digest,
            });
        }
        if view.address.is_some() && ui.button(tr.text("online-mail-remove")).clicked() {
            mail.address = Some(String::new());
            set.write(SetMail {
                address: None,
                digest: false,
            });
        }
    });
    if let Some(address) = &view.address {
        let (text, color) = if view.confirmed {
            (
                tr!(tr, "online-mail-confirmed-line", address = address.clone()),
                Color32::from_rgb(150, 210, 140),
            )
        } else {
            (
                tr!(tr, "online-mail-unconfirmed", address = address.clone()),
                Color32::from_rgb(255, 215, 120),
            )
        };
        ui.label(RichText::new(text).small().color(color));
    }
}
