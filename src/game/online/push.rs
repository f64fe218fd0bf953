//! Notifications pushed to the player's devices (Web Push): whether the server pushes, and with
//! which key, asked once signed in; a device's subscription given to the server or taken back
//! ([`DeviceSubscription`], which a page writes once the player allows notifications).

use bevy::prelude::*;
use qiguo_protocol::{Answer, Ask, PushView};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn};
use crate::game::state::Notice;
use crate::i18n::Tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlinePush>()
        .add_message::<DeviceSubscription>()
        .add_systems(
            Update,
            (ask_once_signed_in, subscribe, read_answers)
                .chain()
                .in_set(OnlineSystems::Concerns),
        );
}

/// What the server says of pushed notifications, once it said.
#[derive(Resource, Debug, Default)]
pub struct OnlinePush {
    /// Whether it pushes, with which key, and to how many of the player's devices.
    pub view: Option<PushView>,
    pending: Pending<()>,
}

impl OnlinePush {
    /// The key to subscribe a device with, where the server offers to push.
    pub fn offered_key(&self) -> Option<&str> {
        self.view
            .as_ref()
            .filter(|push| push.offered)
            .and_then(|push| push.key.as_deref())
    }
}

/// This device's push subscription, for the server.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum DeviceSubscription {
    /// Notify this device: the push service's URL for it, its P-256 key and its secret
    /// (base64url), as the browser gives them.
    Subscribe {
        /// The push service's URL for the device.
        endpoint: String,
        /// The device's P-256 key, base64url.
        p256dh: String,
        /// The device's secret, base64url.
        auth: String,
    },
    /// Notify the device of this endpoint no more.
    Unsubscribe(String),
}

fn ask_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut push: ResMut<OnlinePush>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        push.view = None;
        push.pending.ask(&mut online, Ask::Push {}, ());
    }
}

fn subscribe(
    mut devices: MessageReader<DeviceSubscription>,
    mut push: ResMut<OnlinePush>,
    mut online: ResMut<Online>,
) {
    for device in devices.read() {
        let ask = match device.clone() {
            DeviceSubscription::Subscribe {
                endpoint,
                p256dh,
                auth,
            } => Ask::Subscribe {
                endpoint,
                p256dh,
                auth,
            },
            DeviceSubscription::Unsubscribe(endpoint) => Ask::Unsubscribe { endpoint },
        };
        push.pending.ask(&mut online, ask, ());
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut push: ResMut<OnlinePush>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    // Untouched in a frame without answers: the page's subscription looks again when it
    // changes.
    if answers.is_empty() {
        return;
    }
    for ((), answer) in push.pending.answers(answers.read(), &mut notices, *tr) {
        if let Answer::Push(view) = answer {
            push.view = Some(view.clone());
        }
    }
}
