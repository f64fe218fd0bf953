//! Invitations as links: `https://HOST[:PORT]/join/CODE` takes an open seat of the game with
//! invitation code CODE on that server, `/watch/CODE` watches it. A server that serves the page
//! (`qiguo-server --web DIR`) opens such a link in the browser's game; the desktop window takes
//! the same link (`qiguo --join URL`, or pasted into *Online…*).
//!
//! Following an invitation: connect to the link's server (a first-time visitor first chooses
//! a name in the *Online…* window; someone with a key for that server, or who came by a game
//! link the server e-mailed them, is signed in at once),
//! watch the game to see its seats, then take the open seat — asking which, when several are
//! open — or stay watching when none is (or when the link says watch). A seat already held is
//! simply opened.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, RichText};
use qiguo_protocol::SeatPlan;
use qiguo_rules::Kingdom;

use super::shared::{Online, OnlineCommand, OnlineRequested, Status};
use super::ui::OnlineForm;
use crate::game::state::Notice;
use crate::game::tools::screenshot::hold_while;
use crate::game::widgets::{UiSystems, WithinTheScreen, centred_dialog};
use crate::i18n::Tr;
use crate::tr;

/// The longest invitation code taken from a link.
const MAX_CODE_CHARS: usize = 64;

/// A game on a server, as a link names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The server's WebSocket URL: `wss://HOST[:PORT]` for an `https` link, `ws://…` for an
    /// `http` one.
    pub server: String,
    /// The invitation code.
    pub code: String,
    /// Watch only (a `/watch/` link).
    pub watch: bool,
}

/// Why a text is not an invitation link.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an invitation link: expected https://HOST[:PORT]/join/CODE or …/watch/CODE")]
pub struct NotAnInvitation(pub String);

impl Invitation {
    /// Reads a link: `http(s)://HOST[:PORT]/join/CODE` or `…/watch/CODE` (a trailing slash
    /// allowed; `ws://` and `wss://` are taken as `http://` and `https://`).
    pub fn parse(link: &str) -> Result<Invitation, NotAnInvitation> {
        let bad = || NotAnInvitation(link.chars().take(200).collect());
        let text = link.trim();
        let (secure, rest) = if let Some(rest) = text.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = text.strip_prefix("wss://") {
            (true, rest)
        } else if let Some(rest) = text.strip_prefix("http://") {
            (false, rest)
        } else if let Some(rest) = text.strip_prefix("ws://") {
            (false, rest)
        } else {
            return Err(bad());
        };
        let (host, path) = rest.split_once('/').ok_or_else(bad)?;
        let host_ok = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c));
        if !host_ok {
            return Err(bad());
        }
        let path = path.strip_suffix('/').unwrap_or(path);
        let (kind, code) = path.split_once('/').ok_or_else(bad)?;
        let watch = match kind {
            "join" => false,
            "watch" => true,
            _ => return Err(bad()),
        };
        let code_ok = !code.is_empty()
            && code.chars().count() <= MAX_CODE_CHARS
            && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !code_ok {
            return Err(bad());
        }
        Ok(Invitation {
            server: format!("{}://{host}", if secure { "wss" } else { "ws" }),
            code: code.to_owned(),
            watch,
        })
    }

    /// The link to a game with invitation code `code` on the server at WebSocket URL `server`
    /// (`ws://…` gives `http://…`, `wss://…` gives `https://…`); `None` for another URL.
    pub fn link(server: &str, code: &str, watch: bool) -> Option<String> {
        let (scheme, host) = if let Some(host) = server.strip_prefix("wss://") {
            ("https", host)
        } else if let Some(host) = server.strip_prefix("ws://") {
            ("http", host)
        } else {
            return None;
        };
        let host = host.trim_end_matches('/');
        let kind = if watch { "watch" } else { "join" };
        Some(format!("{scheme}://{host}/{kind}/{code}"))
    }

    /// The address of a finished game's moves as an animated picture (a GIF the server draws)
    /// on the server at WebSocket URL `server`.
    pub fn moves_link(server: &str, code: &str) -> Option<String> {
        let page = Invitation::link(server, code, true)?;
        let site = page.strip_suffix(&format!("/watch/{code}"))?;
        Some(format!("{site}/games/{code}/moves.gif"))
    }
}

/// The invitation being followed, if any.
#[derive(Resource, Default, Debug)]
pub struct Invited {
    invitation: Option<Invitation>,
    stage: Stage,
}

/// How far an invitation has been followed.
#[derive(Default, Debug, Clone, PartialEq)]
enum Stage {
    /// Connecting to its server (or waiting for the player's name).
    #[default]
    Connect,
    /// Watching the game to see its seats.
    Looking,
    /// Several seats are open: the player chooses a kingdom among these, by seat.
    Choose(Vec<Kingdom>),
    /// Followed.
    Done,
}

impl Invited {
    /// Follows `invitation` from now on (replacing one being followed).
    pub fn follow(&mut self, invitation: Invitation) {
        *self = Invited {
            invitation: Some(invitation),
            stage: Stage::Connect,
        };
    }

    /// The invitation being followed, until it is.
    pub fn pending(&self) -> Option<&Invitation> {
        self.invitation
            .as_ref()
            .filter(|_| self.stage != Stage::Done)
    }
}

pub(super) fn plugin(app: &mut App) {
    // A picture of a link opened at launch (`--join`) waits for the game on the board.
    hold_while::<Invited>(app, "invitation", |i| i.pending().is_some());
    app.init_resource::<Invited>().add_systems(
        Update,
        (
            follow.after(super::connection::read_news),
            open_on_the_lobby.run_if(bevy::ecs::schedule::common_conditions::run_once),
        ),
    );
}

/// A page a Qiguo server served, opened by a player it knows (a key kept for it) and not by an
/// invitation: it signs in at once and opens on the lobby (*Online…*). A first visit opens on
/// the welcome card instead, *Play now* and the lessons one click away.
fn open_on_the_lobby(
    invited: Res<Invited>,
    online: Res<Online>,
    mut form: Option<ResMut<OnlineForm>>,
    mut requests: MessageWriter<OnlineRequested>,
) {
    let Some(home) = super::link::home_server() else {
        return;
    };
    if invited.invitation.is_some() || online.status != Status::Offline || !known_to(&home) {
        return;
    }
    let name = form
        .as_ref()
        .map(|f| f.name().to_owned())
        .unwrap_or_default();
    requests.write(OnlineRequested::Remote {
        url: home,
        name,
        insecure_lan: false,
    });
    if let Some(form) = form.as_mut() {
        form.open = true;
    }
}

/// The question which seat to take, when several are open.
pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        choose_seat
            .in_set(UiSystems::Dialogs)
            .run_if(|invited: Res<Invited>| matches!(invited.stage, Stage::Choose(_))),
    );
}

/// Whether the player has a key for `server` kept (then the server knows them already).
fn known_to(server: &str) -> bool {
    let Some(dir) = crate::storage::data_dir() else {
        return false;
    };
    qiguo_client::KeyStore::new(dir).knows(server)
}

/// Moves the invitation along as the connection and the game on the board allow.
fn follow(
    mut invited: ResMut<Invited>,
    online: Res<Online>,
    mut form: Option<ResMut<OnlineForm>>,
    mut requests: MessageWriter<OnlineRequested>,
    mut commands: MessageWriter<OnlineCommand>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Some(invitation) = invited.invitation.clone() else {
        return;
    };
    let on_its_server = online.address.as_deref() == Some(invitation.server.as_str());
    let (waiting_for_name, name) = form.as_ref().map_or((false, String::new()), |f| {
        (f.is_invited_to(&invitation.server), f.name().to_owned())
    });
    match invited.stage.clone() {
        Stage::Connect => match &online.status {
            Status::Connected if on_its_server => {
                commands.write(OnlineCommand::Watch(invitation.code.clone()));
                invited.stage = Stage::Looking;
            }
            Status::Connecting | Status::Lost(_) if on_its_server => {}
            _ if waiting_for_name => {
                // Waiting for the player's name and their Connect.
            }
            _ => {
                // Known there, named, or signed in by an e-mailed link: connect at once.
                if known_to(&invitation.server)
                    || !name.is_empty()
                    || super::link::signs_in_by_link(&invitation.server)
                {
                    requests.write(OnlineRequested::Remote {
                        url: invitation.server.clone(),
                        name,
                        insecure_lan: false,
                    });
                } else if let Some(mut form) = form {
                    // A first visit: the name first.
                    form.invite(&invitation.server);
                }
            }
        },
        Stage::Looking => {
            let Some(table) = online
                .table
                .as_ref()
                .filter(|t| t.code.eq_ignore_ascii_case(&invitation.code))
            else {
                return;
            };
            invited.stage = Stage::Done;
            if let Some(form) = form.as_mut() {
                form.invitation_followed();
            }
            if table.seats.iter().any(|s| s.yours) {
                if !invitation.watch {
                    commands.write(OnlineCommand::Open(table.id.clone()));
                }
                return;
            }
            if invitation.watch {
                return;
            }
            let open: Vec<Kingdom> = table
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.plan == SeatPlan::Open && s.name.is_none())
                .filter_map(|(p, _)| table.record_seats.kingdoms_of(p as u8).iter().next())
                .collect();
            match open.as_slice() {
                [] => {
                    notices.write(Notice::done(tr.text("invite-no-open-seat")));
                }
                [kingdom] => {
                    commands.write(OnlineCommand::Join {
                        code: invitation.code.clone(),
                        kingdom: *kingdom,
                    });
                }
                _ => invited.stage = Stage::Choose(open),
            }
        }
        Stage::Choose(_) | Stage::Done => {}
    }
}

/// Several seats are open: which kingdom to take (or only watch).
fn choose_seat(
    mut contexts: EguiContexts,
    mut invited: ResMut<Invited>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let Stage::Choose(open) = invited.stage.clone() else {
        return Ok(());
    };
    let Some(code) = invited.invitation.as_ref().map(|i| i.code.clone()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut chosen = None;
    let mut open_window = true;
    centred_dialog("invitation seats", tr.text("invite-choose-title"))
        .open(&mut open_window)
        .show_within_screen(ctx, |ui| {
            ui.label(tr!(tr, "invite-choose-line", code = code.clone()));
            ui.horizontal_wrapped(|ui| {
                for kingdom in &open {
                    if ui
                        .button(RichText::new(tr.kingdom(*kingdom)).size(16.0))
                        .clicked()
                    {
                        chosen = Some(*kingdom);
                    }
                }
            });
            ui.add_space(4.0);
            ui.label(
                RichText::new(tr.text("invite-choose-watch"))
                    .small()
                    .color(egui::Color32::from_gray(170)),
            );
        });
    if let Some(kingdom) = chosen {
        commands.write(OnlineCommand::Join { code, kingdom });
        invited.stage = Stage::Done;
    } else if !open_window {
        invited.stage = Stage::Done;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_read_and_written() {
        let join = Invitation::parse("https://qiguo.example:8443/join/K7QM-3XTD").unwrap();
        assert_eq!(
            join,
            Invitation {
                server: "wss://qiguo.example:8443".into(),
                code: "K7QM-3XTD".into(),
                watch: false,
            }
        );
        let watch = Invitation::parse(" http://127.0.0.1:7206/watch/ABCD/ ").unwrap();
        assert_eq!(watch.server, "ws://127.0.0.1:7206");
        assert!(watch.watch);
        assert_eq!(
            Invitation::link("wss://qiguo.example:8443", "K7QM-3XTD", false).as_deref(),
            Some("https://qiguo.example:8443/join/K7QM-3XTD")
        );
        assert_eq!(
            Invitation::link("ws://[::1]:7206/", "AB", true).as_deref(),
            Some("http://[::1]:7206/watch/AB")
        );
        assert_eq!(Invitation::link("ftp://x", "AB", true), None);
        assert_eq!(
            Invitation::moves_link("wss://qiguo.example/", "K7QM").as_deref(),
            Some("https://qiguo.example/games/K7QM/moves.gif")
        );
        for bad in [
            "",
            "K7QM-3XTD",
            "https://host/",
            "https://host/play/AB",
            "https://host/join/",
            "https://host/join/A B",
            "https://host/join/AB/CD",
            "https://ho st/join/AB",
            "file:///join/AB",
        ] {
            assert!(Invitation::parse(bad).is_err(), "{bad:?}");
        }
        let long = format!("https://h/join/{}", "A".repeat(65));
        assert!(Invitation::parse(&long).is_err());
    }
}
