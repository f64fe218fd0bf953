//! Holidays online: the player away until a day (their correspondence clocks stop) or back, and
//! the days of this year's allowance taken — asked once signed in, changed from the *Online…*
//! window's section (or a [`GoAway`] message), the games' deadlines read again after a change.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::{Answer, Ask, Holidays};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineHolidays>()
        .add_message::<GoAway>()
        .add_systems(
            Update,
            (ask_once_signed_in, go_away, read_answers)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Holidays, section);
}

/// Go on holiday until a day (`YYYY-MM-DD`, UTC), or (`None`) be back today.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct GoAway(pub Option<String>);

/// The player's holidays as the server has them, and the section's field.
#[derive(Resource, Debug, Default)]
pub struct OnlineHolidays {
    /// What the server said, once it said.
    pub view: Option<Holidays>,
    /// The last day of a holiday, as typed (`YYYY-MM-DD`).
    away_until: String,
    /// The requests asked: whether each changes the holidays (the games' deadlines move).
    pending: Pending<bool>,
}

fn ask_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut holidays: ResMut<OnlineHolidays>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        holidays.view = None;
        holidays.pending.ask(&mut online, Ask::Holidays {}, false);
    }
}

fn go_away(
    mut asked: MessageReader<GoAway>,
    mut holidays: ResMut<OnlineHolidays>,
    mut online: ResMut<Online>,
) {
    for GoAway(until) in asked.read() {
        let ask = Ask::Away {
            until: until.clone(),
        };
        holidays.pending.ask(&mut online, ask, true);
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut holidays: ResMut<OnlineHolidays>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for (changed, answer) in holidays.pending.answers(answers.read(), &mut notices, *tr) {
        if let Answer::Holidays(view) = answer {
            holidays.view = Some(view.clone());
            if changed {
                // The deadlines of the player's games moved with them.
                online.refresh_games();
            }
        }
    }
}

/// The section: away until a day, or back; the days of this year's allowance taken.
fn section(
    InMut(ui): InMut<egui::Ui>,
    mut holidays: ResMut<OnlineHolidays>,
    online: Res<Online>,
    mut away: MessageWriter<GoAway>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    let holidays = &mut *holidays;
    let Some(view) = holidays.view.as_ref().filter(|_| online.in_touch()) else {
        return;
    };
    if holidays.away_until.is_empty() {
        // A week from today (UTC), to start from.
        let today = qiguo_protocol::calendar::day_of(jiff::Timestamp::now().as_millisecond());
        holidays.away_until = qiguo_protocol::calendar::date_text(today + 7);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.text("online-holidays")).strong())
            .on_hover_text(tr.text("online-holidays-hint"));
        if let Some(until) = &view.away_until {
            ui.label(
                RichText::new(tr!(tr, "online-away-until", date = until.clone()))
                    .color(Color32::from_rgb(255, 215, 120)),
            );
            if ui.button(tr.text("online-back")).clicked() {
                away.write(GoAway(None));
            }
        }
        ui.add(
            egui::TextEdit::singleline(&mut holidays.away_until)
                .desired_width(86.0)
                .char_limit(10)
                .hint_text("YYYY-MM-DD"),
        );
        let go = if view.away_until.is_some() {
            "online-away-change"
        } else {
            "online-away-go"
        };
        if ui
            .button(tr.text(go))
            .on_hover_text(tr.text("online-holidays-hint"))
            .clicked()
        {
            away.write(GoAway(Some(holidays.away_until.trim().to_owned())));
        }
    });
    ui.label(
        RichText::new(tr!(
            tr,
            "online-holidays-used",
            used = view.used,
            allowance = view.allowance,
            year = view.year
        ))
        .small()
        .color(Color32::from_gray(170)),
    );
}
