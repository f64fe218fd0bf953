//! Playing across machines from the window: the *Host game…* and *Join game…* dialogs, the
//! toolbar's way out (stop hosting, leave), the host's answer to a take-back request, and how
//! the Kingdoms panel shows the link and names a seat held on another machine.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_rules::Kingdom;

use crate::game::online::{
    HostRequested, JoinRequested, LeaveRequested, Link, Online, SeatHand, SeatsChosen,
    TakeBackAnswered, token_file_for,
};
use crate::game::state::{Match, SeatChangeRequested};
use crate::game::ui::{badge, centred_dialog};
use crate::i18n::Tr;
use crate::net::protocol::DEFAULT_PORT;
use crate::net::seating::kingdoms_of;
use crate::tr;

/// What the network dialogs hold while open.
#[derive(Resource, Debug, Clone)]
pub(crate) struct NetworkForm {
    /// The *Host game…* dialog is open.
    pub(crate) host_open: bool,
    /// The *Join game…* dialog is open (it stays open until the game is joined).
    pub(crate) join_open: bool,
    /// The port to listen on, as typed.
    pub(crate) port: String,
    /// Whether other machines may reach the host (else only this machine, for trying out).
    pub(crate) lan: bool,
    /// The person seats kept for this screen, by player number.
    pub(crate) here: Vec<bool>,
    /// The host's address, as typed.
    pub(crate) address: String,
    /// The player's name.
    pub(crate) name: String,
    /// The kingdoms chosen from the host's free seats.
    pub(crate) chosen: Vec<Kingdom>,
    /// Why the last request could not be made.
    pub(crate) error: Option<String>,
}

impl Default for NetworkForm {
    fn default() -> NetworkForm {
        NetworkForm {
            host_open: false,
            join_open: false,
            port: DEFAULT_PORT.to_string(),
            lan: true,
            here: Vec::new(),
            address: format!("127.0.0.1:{DEFAULT_PORT}"),
            // The login name, to start from.
            name: ["USER", "USERNAME"]
                .iter()
                .find_map(|v| std::env::var(v).ok())
                .and_then(|n| crate::net::protocol::clean_name(&n))
                .unwrap_or_default(),
            chosen: Vec::new(),
            error: None,
        }
    }
}

/// The address to listen on: all interfaces or loopback, at the typed port.
fn bind_address(port: &str, lan: bool) -> Option<SocketAddr> {
    let port: u16 = port.trim().parse().ok()?;
    let ip = if lan {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    };
    Some(SocketAddr::new(ip, port))
}

/// The host's address as typed: `host:port`, or a bare address with the default port.
/// A host name is looked up (`table.local:7206`).
pub(crate) fn parse_address(text: &str) -> Option<SocketAddr> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    if text.is_empty() || text.contains(char::is_whitespace) {
        return None;
    }
    let with_port = if text.parse::<IpAddr>().is_ok() || !text.contains(':') {
        format!("{text}:{DEFAULT_PORT}")
    } else {
        text.to_owned()
    };
    with_port
        .parse::<SocketAddr>()
        .ok()
        .or_else(|| with_port.to_socket_addrs().ok()?.next())
}

/// The online buttons of the toolbar: *Host game…* and *Join game…*, or *Stop hosting* /
/// *Leave* while connected.
pub(crate) fn toolbar_buttons(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut NetworkForm,
    online: &Online,
    leaves: &mut MessageWriter<LeaveRequested>,
) {
    if online.is_online() {
        let (label, hint) = if online.is_hosting() {
            ("online-stop", "online-stop-hint")
        } else {
            ("join-leave", "join-leave-hint")
        };
        if ui
            .button(tr.text(label))
            .on_hover_text(tr.text(hint))
            .clicked()
        {
            leaves.write(LeaveRequested);
        }
    } else {
        if ui
            .button(tr.text("menu-host"))
            .on_hover_text(tr.text("menu-host-hint"))
            .clicked()
        {
            form.host_open = true;
            form.error = None;
        }
        if ui
            .button(tr.text("menu-join"))
            .on_hover_text(tr.text("menu-join-hint"))
            .clicked()
        {
            form.join_open = true;
            form.error = None;
        }
    }
}

/// *Host game…*: the port, who may reach it, and which person seats stay at this screen.
pub(crate) fn host_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<NetworkForm>,
    the_match: Res<Match>,
    online: Res<Online>,
    mut requests: MessageWriter<HostRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    if !form.host_open {
        return Ok(());
    }
    if online.is_online() {
        form.host_open = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let count = the_match.players().len();
    if form.here.len() != count {
        // By default the first person seat stays here and the others are open.
        let first = (0..count).find(|&p| the_match.players()[p].computer.is_none());
        form.here = (0..count).map(|p| Some(p) == first).collect();
    }
    let seats = *the_match.game().start_position().seats();
    let form = &mut *form;
    centred_dialog("Host game", tr.text("host-title")).show(ctx, |ui| {
        ui.label(
            RichText::new(tr.text("host-intro"))
                .small()
                .color(Color32::from_gray(190)),
        );
        ui.horizontal(|ui| {
            ui.label(tr.text("host-port"));
            ui.add(egui::TextEdit::singleline(&mut form.port).desired_width(70.0));
        });
        ui.radio_value(&mut form.lan, true, tr.text("host-lan"));
        ui.radio_value(&mut form.lan, false, tr.text("host-loopback"));
        ui.separator();
        ui.label(tr.text("host-seats"));
        egui::Grid::new("host seats").num_columns(2).show(ui, |ui| {
            for (p, info) in the_match.players().iter().enumerate() {
                ui.horizontal(|ui| {
                    for k in kingdoms_of(&seats, p) {
                        badge(ui, k, 16.0, false);
                    }
                    ui.label(&info.name);
                });
                match info.computer {
                    Some(level) => {
                        ui.label(tr!(tr, "computer-level", level = tr.level(level)));
                    }
                    None => {
                        ui.horizontal(|ui| {
                            ui.radio_value(&mut form.here[p], true, tr.text("host-seat-here"));
                            ui.radio_value(&mut form.here[p], false, tr.text("host-seat-open"));
                        });
                    }
                }
                ui.end_row();
            }
        });
        if let Some(error) = &form.error {
            ui.colored_label(Color32::from_rgb(255, 120, 90), error);
        }
        ui.horizontal(|ui| {
            if ui.button(tr.text("host-start")).clicked() {
                match bind_address(&form.port, form.lan) {
                    Some(bind) => {
                        requests.write(HostRequested {
                            bind,
                            here: form.here.clone(),
                        });
                        form.host_open = false;
                    }
                    None => form.error = Some(tr.text("host-bad-port")),
                }
            }
            if ui.button(tr.text("dialog-cancel")).clicked() {
                form.host_open = false;
            }
        });
    });
    Ok(())
}

/// *Join game…*: the host's address and the player's name; once connected, the kingdoms to
/// take from those free.
pub(crate) fn join_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<NetworkForm>,
    online: Res<Online>,
    mut joins: MessageWriter<JoinRequested>,
    mut chosen: MessageWriter<SeatsChosen>,
    mut leaves: MessageWriter<LeaveRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    if !form.join_open {
        return Ok(());
    }
    if online.is_hosting() {
        form.join_open = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let form = &mut *form;
    centred_dialog("Join game", tr.text("join-title")).show(ctx, |ui| match &*online {
        Online::Joined(j) => {
            ui.label(tr!(tr, "join-host", address = j.host.to_string()));
            match &j.link {
                Link::Connecting | Link::Lost => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(tr.text("join-connecting"));
                    });
                }
                Link::Choosing => {
                    let open = j.table.open_kingdoms();
                    if open.is_empty() {
                        ui.label(tr.text("join-no-free-seat"));
                    } else {
                        ui.label(tr.text("join-choose"));
                        ui.horizontal_wrapped(|ui| {
                            for k in open {
                                let mut on = form.chosen.contains(&k);
                                ui.horizontal(|ui| {
                                    badge(ui, k, 16.0, false);
                                    if ui.checkbox(&mut on, tr.kingdom(k)).changed() {
                                        form.chosen.retain(|c| *c != k);
                                        if on {
                                            form.chosen.push(k);
                                        }
                                    }
                                });
                            }
                        });
                        let ready = !form.chosen.is_empty();
                        if ui
                            .add_enabled(ready, egui::Button::new(tr.text("join-take")))
                            .clicked()
                        {
                            chosen.write(SeatsChosen(form.chosen.clone()));
                        }
                    }
                }
                Link::Playing => {
                    form.join_open = false;
                }
                Link::Refused(why) => {
                    ui.colored_label(
                        Color32::from_rgb(255, 120, 90),
                        tr!(tr, "online-refused", why = why.clone()),
                    );
                }
            }
            if ui.button(tr.text("join-leave")).clicked() {
                leaves.write(LeaveRequested);
            }
        }
        _ => {
            egui::Grid::new("join form").num_columns(2).show(ui, |ui| {
                ui.label(tr.text("join-address"));
                ui.add(egui::TextEdit::singleline(&mut form.address).desired_width(180.0));
                ui.end_row();
                ui.label(tr.text("join-name"));
                ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(180.0));
                ui.end_row();
            });
            if let Some(error) = &form.error {
                ui.colored_label(Color32::from_rgb(255, 120, 90), error);
            }
            ui.horizontal(|ui| {
                if ui.button(tr.text("join-connect")).clicked() {
                    match (
                        parse_address(&form.address),
                        crate::net::protocol::clean_name(&form.name),
                    ) {
                        (None, _) => form.error = Some(tr.text("join-bad-address")),
                        (_, None) => form.error = Some(tr.text("join-need-name")),
                        (Some(host), Some(name)) => {
                            form.error = None;
                            form.chosen.clear();
                            joins.write(JoinRequested {
                                host,
                                name,
                                token_file: token_file_for(host),
                            });
                        }
                    }
                }
                if ui.button(tr.text("dialog-cancel")).clicked() {
                    form.join_open = false;
                }
            });
        }
    });
    Ok(())
}

/// The first line of the Kingdoms panel in a game shared with other machines: where it is
/// served (the address players give to join) or which host it follows, and how the link is.
pub(crate) fn online_summary(ui: &mut egui::Ui, tr: Tr, online: &Online) {
    let (text, colour) = match online {
        Online::Offline => return,
        Online::Hosting(h) => {
            let text = if h.addr.ip().is_loopback() {
                tr!(tr, "online-hosting-on", address = h.addr.to_string())
                    + " · "
                    + &tr.text("online-loopback-only")
            } else {
                let shown = crate::game::online::joinable_address(h.addr);
                tr!(tr, "online-hosting-on", address = shown.to_string())
            };
            (text, Color32::from_rgb(150, 210, 255))
        }
        Online::Joined(j) => {
            let (state, colour) = match &j.link {
                Link::Playing => (
                    tr.text("online-link-playing"),
                    Color32::from_rgb(150, 210, 255),
                ),
                Link::Lost => (
                    tr.text("online-link-lost"),
                    Color32::from_rgb(255, 170, 110),
                ),
                Link::Refused(why) => (
                    tr!(tr, "online-refused", why = why.clone()),
                    Color32::from_rgb(255, 120, 90),
                ),
                Link::Connecting => (tr.text("join-connecting"), Color32::from_gray(200)),
                Link::Choosing => (tr.text("online-link-choosing"), Color32::from_gray(200)),
            };
            (
                tr!(tr, "join-host", address = j.host.to_string()) + " · " + &state,
                colour,
            )
        }
    };
    ui.label(RichText::new(text).small().color(colour));
}

/// A seat in words: who plays it, and whether they are here, connected or gone.
pub(crate) fn seat_text(tr: Tr, online: &Online, the_match: &Match, player: u8) -> String {
    let name = the_match
        .players()
        .get(usize::from(player))
        .map(|p| p.name.clone())
        .unwrap_or_default();
    match online.hand(the_match, player) {
        None => match the_match.players()[usize::from(player)].computer {
            Some(l) => tr!(tr, "computer-level", level = tr.level(l)),
            None => tr!(tr, "seat-here", name = name),
        },
        Some(SeatHand::Yours) => tr!(tr, "seat-yours", name = name),
        Some(SeatHand::AtHost) => tr!(tr, "seat-at-host", name = name),
        Some(SeatHand::Remote { connected: true }) => tr!(tr, "seat-remote", name = name),
        Some(SeatHand::Remote { connected: false }) => tr!(tr, "seat-gone", name = name),
        Some(SeatHand::StandIn { level: l, .. }) => {
            tr!(tr, "seat-stand-in", name = name, level = tr.level(l))
        }
        Some(SeatHand::Computer(l)) => tr!(tr, "computer-level", level = tr.level(l)),
        Some(SeatHand::Open) => tr.text("seat-open"),
    }
}

/// The Kingdoms panel's "played by" cell for a seat held on another machine: its state, and
/// on the host the choice to let a computer play it until its player is back (and to give it
/// back). Returns `false` when the seat is not online (the ordinary person/computer choice
/// applies).
pub(crate) fn seat_cell(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    the_match: &Match,
    player: u8,
    seats: &mut MessageWriter<SeatChangeRequested>,
) -> bool {
    let Some(hand) = online.hand(the_match, player) else {
        return false;
    };
    let connected = matches!(
        hand,
        SeatHand::Remote { connected: true }
            | SeatHand::StandIn {
                connected: true,
                ..
            }
    );
    let colour = match hand {
        SeatHand::Yours => Color32::from_rgb(150, 210, 255),
        SeatHand::Remote { .. } | SeatHand::StandIn { .. } if !connected => {
            Color32::from_rgb(255, 170, 110)
        }
        _ => Color32::from_gray(210),
    };
    let text = seat_text(tr, online, the_match, player);
    if !online.is_hosting() {
        ui.label(RichText::new(text).small().color(colour));
        return true;
    }
    // The host: a remote seat can be handed to a computer, and back.
    let current = match &hand {
        SeatHand::StandIn { level, .. } => Some(*level),
        _ => None,
    };
    let label = |l: Level| tr!(tr, "computer-level", level = tr.level(l));
    let mut choice = current;
    egui::ComboBox::from_id_salt(("online seat", player))
        .selected_text(RichText::new(text.clone()).color(colour))
        .width(130.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut choice, None, tr.text("seat-give-back"));
            for level in [Level::Easy, Level::Medium, Level::Hard] {
                ui.selectable_value(&mut choice, Some(level), label(level));
            }
        })
        .response
        .on_hover_text(tr.text("seat-hand-over-hint"));
    if choice != current {
        seats.write(SeatChangeRequested {
            player,
            computer: choice,
        });
    }
    true
}

/// The host's answer when a joined player asks to take moves back.
pub(crate) fn take_back_question(
    mut contexts: EguiContexts,
    online: Res<Online>,
    mut answers: MessageWriter<TakeBackAnswered>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let Online::Hosting(h) = &*online else {
        return Ok(());
    };
    let Some(ask) = &h.take_back else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    centred_dialog("Take back", tr.text("take-back-title")).show(ctx, |ui| {
        ui.label(tr!(tr, "take-back-asked", name = ask.name.clone()));
        ui.horizontal(|ui| {
            if ui.button(tr.text("take-back-allow")).clicked() {
                answers.write(TakeBackAnswered { allowed: true });
            }
            if ui.button(tr.text("take-back-refuse")).clicked() {
                answers.write(TakeBackAnswered { allowed: false });
            }
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_ports_as_typed() {
        assert_eq!(
            parse_address(" 192.168.1.20:7300 "),
            Some("192.168.1.20:7300".parse().unwrap())
        );
        assert_eq!(
            parse_address("10.0.0.5"),
            Some(SocketAddr::new("10.0.0.5".parse().unwrap(), DEFAULT_PORT))
        );
        assert_eq!(
            parse_address("[::1]:7206"),
            Some("[::1]:7206".parse().unwrap())
        );
        assert_eq!(parse_address("no such host"), None);
        assert_eq!(parse_address(""), None);
        assert_eq!(parse_address("1.2.3.4:99999"), None);
        assert_eq!(
            bind_address("7206", false),
            Some("127.0.0.1:7206".parse().unwrap())
        );
        assert_eq!(bind_address("0", true), Some("0.0.0.0:0".parse().unwrap()));
        assert_eq!(bind_address("seven", true), None);
        assert_eq!(bind_address("70000", true), None);
    }
}
