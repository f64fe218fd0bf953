//! Signing in: a player by their id and key, a new player by a name, or a player on a new
//! device by the one-time token of an e-mailed link; a player the operator barred from play is
//! refused here.

use qiguo_protocol::clean_name;

use super::shown_name;
use crate::log::{Log, escaped, note};
use crate::protocol::{Identity, Refusal};
use crate::store::{PlayerId, Store};

/// The sign-in slice.
pub(crate) struct SignIn {
    store: Store,
    log: Log,
}

impl SignIn {
    /// Players kept in `store`, their coming said in `log`.
    pub(super) fn new(store: Store, log: Log) -> SignIn {
        SignIn { store, log }
    }

    /// Signs a client in (or makes a new player): their id, name and, when new, key.
    pub(crate) async fn check(
        &self,
        identity: &Identity,
    ) -> Result<(PlayerId, String, Option<String>), Refusal> {
        match identity {
            Identity::Player { id, key } => {
                let name = self.store.sign_in(id, key).await?;
                if self.store.play_barred(id).await? {
                    return Err(Refusal::Barred);
                }
                Ok((id.clone(), shown_name(&name), None))
            }
            Identity::New { name } => {
                let name = clean_name(name)?;
                let new = self.store.add_player(&name).await?;
                note!(
                    self.log,
                    INFO,
                    "new player",
                    player = new.id.0,
                    name = escaped(&name)
                );
                Ok((new.id, name, Some(new.key)))
            }
            Identity::Link { token } => {
                if token.len() > 128 {
                    return Err(Refusal::LinkExpired);
                }
                let (id, name, key) = self.store.sign_in_by_link(token).await?;
                note!(
                    self.log,
                    INFO,
                    "signed in on a new device by an e-mailed link",
                    player = id.0
                );
                Ok((id, shown_name(&name), Some(key)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;

    #[tokio::test]
    async fn a_new_player_comes_back_with_their_key_and_nobody_with_a_wrong_one() {
        let bench = Bench::new("sign-in").await;
        let sign_in = SignIn::new(bench.store.clone(), bench.log.clone());
        let new = Identity::New {
            name: "  Ann ".into(),
        };
        let (id, name, key) = sign_in.check(&new).await.unwrap();
        assert_eq!(name, "Ann", "the name as cleaned");
        let key = key.expect("a new player is given a key");
        let again = Identity::Player {
            id: id.clone(),
            key: key.clone(),
        };
        assert_eq!(
            sign_in.check(&again).await.unwrap(),
            (id.clone(), "Ann".to_owned(), None),
            "a player coming back is given no new key"
        );
        let wrong = Identity::Player {
            id,
            key: format!("{key}x"),
        };
        assert_eq!(sign_in.check(&wrong).await, Err(Refusal::WrongKey));
        let taken = Identity::New { name: "ann".into() };
        assert!(
            matches!(sign_in.check(&taken).await, Err(Refusal::NameTaken { .. })),
            "names are compared as people read them"
        );
        let long = Identity::Link {
            token: "x".repeat(129),
        };
        assert_eq!(sign_in.check(&long).await, Err(Refusal::LinkExpired));
    }
}
