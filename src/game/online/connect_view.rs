//! Connecting from the *Online…* window: the window's own server (a LAN evening) or one
//! elsewhere, the player's name, an invitation link pasted; and the player's keys, exported to
//! use elsewhere and imported from there. Shown while offline (or refused).

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_client::{KeyStore, KeysError};
use qiguo_protocol::MAX_NAME_CHARS;

use super::invite::{Invitation, Invited};
use super::shared::{Online, OnlineRequested, Status};
use super::ui::{OnlineForm, OnlineSectionApp, SectionOrder};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<KeyRingForm>()
        .add_online_section(SectionOrder::Connect, connect_section);
}

/// The key ring's part of the window: keys pasted (or opened from a file) to import, and what
/// the last export or import came to (done, and the words).
#[derive(Resource, Debug, Default)]
struct KeyRingForm {
    text: String,
    note: Option<(bool, String)>,
}

/// Connecting, while offline (or refused), and the player's keys.
fn connect_section(
    InMut(ui): InMut<egui::Ui>,
    mut form: ResMut<OnlineForm>,
    mut ring: ResMut<KeyRingForm>,
    online: Res<Online>,
    mut requests: MessageWriter<OnlineRequested>,
    mut invited: ResMut<Invited>,
    store: Option<Res<crate::game::saving::SaveStore>>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        return;
    }
    connect_form(ui, *tr, &mut form, &online, &mut requests, &mut invited);
    let dir = store.as_ref().and_then(|s| s.dir.clone());
    keys_section(ui, *tr, &mut ring, dir);
}

fn connect_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequested>,
    invited: &mut Invited,
) {
    if let Status::Refused(why) = &online.status {
        ui.colored_label(
            Color32::from_rgb(255, 120, 90),
            tr!(tr, "online-refused", why = why.clone()),
        );
    }
    ui.label(tr.text(if super::link::CAN_HOST {
        "online-intro"
    } else {
        "online-intro-page"
    }));
    if super::link::CAN_HOST {
        ui.radio_value(&mut form.own, true, tr.text("online-own-server"));
    }
    if form.own {
        ui.indent("own", |ui| {
            ui.horizontal(|ui| {
                ui.label(tr.text("online-port"));
                ui.add(egui::TextEdit::singleline(&mut form.port).desired_width(70.0));
            });
            ui.checkbox(&mut form.lan, tr.text("online-lan"));
            if form.lan {
                ui.label(
                    RichText::new(tr.text("online-lan-plain"))
                        .small()
                        .color(Color32::from_gray(170)),
                );
            }
        });
    }
    if super::link::CAN_HOST {
        ui.radio_value(&mut form.own, false, tr.text("online-other-server"));
    }
    if !form.own {
        ui.indent("remote", |ui| {
            ui.add(egui::TextEdit::singleline(&mut form.url).desired_width(320.0));
            // A key crosses a plain connection readable: only where the player says so.
            let url = form.url.trim();
            if url.starts_with("ws://") && !qiguo_protocol::client::is_loopback_url(url) {
                ui.checkbox(&mut form.plain_trusted, tr.text("online-plain-trusted"));
            }
        });
    }
    if form.invited.is_some() {
        ui.label(RichText::new(tr.text("online-invited")).strong());
    }
    let mut entered = false;
    ui.horizontal(|ui| {
        ui.label(tr.text("join-name"));
        let field = ui.add(
            egui::TextEdit::singleline(&mut form.name)
                .char_limit(MAX_NAME_CHARS)
                .desired_width(200.0),
        );
        // An invited visitor types their name straight away; Enter connects.
        if form.invited.is_some() && form.name.is_empty() && !field.has_focus() {
            field.request_focus();
        }
        entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    });
    if ui.button(tr.text("join-connect")).clicked() || entered {
        let name = form.name.trim().to_owned();
        if name.is_empty() {
            form.error = Some(tr.text("join-need-name"));
            return;
        }
        if form.own {
            match form.port.trim().parse::<u16>() {
                Ok(port) => {
                    form.error = None;
                    requests.write(OnlineRequested::OwnServer {
                        lan: form.lan,
                        port,
                        name,
                    });
                }
                Err(_) => form.error = Some(tr.text("host-bad-port")),
            }
        } else {
            let url = form.url.trim().to_owned();
            if let Ok(invitation) = Invitation::parse(&url)
                && !url.starts_with("ws")
            {
                // An invitation link pasted: its server, then its game.
                form.error = None;
                form.url = invitation.server.clone();
                form.invited = Some(invitation.server.clone());
                requests.write(OnlineRequested::Remote {
                    url: invitation.server.clone(),
                    name,
                    insecure_lan: form.plain_trusted,
                });
                invited.follow(invitation);
            } else if url.starts_with("ws://") || url.starts_with("wss://") {
                form.error = None;
                requests.write(OnlineRequested::Remote {
                    url,
                    name,
                    insecure_lan: form.plain_trusted,
                });
            } else {
                form.error = Some(tr.text("online-bad-url"));
            }
        }
    }
}

/// The player's keys, exported to use elsewhere (another browser, the desktop window) and
/// imported from there, so that a cleared browser loses nothing.
fn keys_section(
    ui: &mut egui::Ui,
    tr: Tr,
    ring: &mut KeyRingForm,
    dir: Option<crate::saves::SaveDir>,
) {
    let Some(dir) = dir.or_else(|| crate::saves::SaveDir::locate().ok()) else {
        return;
    };
    let dir = dir.root().to_path_buf();
    egui::CollapsingHeader::new(tr.text("keys-title"))
        .id_salt("online keys")
        .show(ui, |ui| {
            ui.label(
                RichText::new(tr.text("keys-line"))
                    .small()
                    .color(Color32::from_gray(170)),
            );
            ui.horizontal(|ui| {
                if ui.button(tr.text("keys-copy")).clicked() {
                    ring.note = Some(match KeyStore::new(&dir).export() {
                        Ok((text, count)) => {
                            ui.ctx().copy_text(text);
                            (true, tr!(tr, "keys-copied", count = count))
                        }
                        Err(why) => (false, tr!(tr, "keys-unreadable", why = why.to_string())),
                    });
                }
                #[cfg(target_arch = "wasm32")]
                {
                    if ui.button(tr.text("share-download")).clicked() {
                        let done = KeyStore::new(&dir)
                            .export()
                            .map_err(|e| e.to_string())
                            .and_then(|(text, _)| {
                                crate::browser::files::download("qiguo-keys.json", &text)
                                    .map_err(|e| e.to_string())
                            });
                        if let Err(why) = done {
                            ring.note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                        }
                    }
                    if ui.button(tr.text("share-open-file")).clicked()
                        && let Err(why) = crate::browser::files::open("keys")
                    {
                        let why = why.to_string();
                        ring.note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                    }
                    match crate::browser::files::opened("keys") {
                        Some(Ok(text)) => ring.text = text,
                        Some(Err(why)) => {
                            let why = why.to_string();
                            ring.note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                        }
                        None => {}
                    }
                }
            });
            ui.add(
                egui::TextEdit::multiline(&mut ring.text)
                    .font(egui::TextStyle::Monospace)
                    .desired_rows(3)
                    .desired_width(f32::INFINITY)
                    .hint_text(tr.text("keys-paste-hint")),
            );
            let has_text = !ring.text.trim().is_empty();
            if ui
                .add_enabled(has_text, egui::Button::new(tr.text("keys-import")))
                .clicked()
            {
                ring.note = Some(import_keys(tr, &dir, &ring.text));
                if ring.note.as_ref().is_some_and(|(done, _)| *done) {
                    ring.text.clear();
                }
            }
            if let Some((done, words)) = &ring.note {
                let colour = if *done {
                    Color32::from_rgb(150, 230, 160)
                } else {
                    Color32::from_rgb(255, 120, 90)
                };
                ui.colored_label(colour, words);
            }
        });
}

/// Takes in keys exported elsewhere (their JSON): what came of it, for the player.
fn import_keys(tr: Tr, dir: &std::path::Path, text: &str) -> (bool, String) {
    match KeyStore::new(dir).import(text) {
        Ok(changed) => (true, tr!(tr, "keys-imported", count = changed)),
        Err(KeysError::NotKeys(e)) => (false, tr!(tr, "keys-not-keys", why = e.to_string())),
        Err(why) => (false, tr!(tr, "keys-unreadable", why = why.to_string())),
    }
}
