//! What the command line refuses: an option that cannot be used as given. Beneath the
//! arguments and every command's module, which all refuse through it.

/// An option that cannot be used as given: which option, and why. Printed as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {why}")]
pub struct ArgError {
    /// The option, as typed (with its value where that helps).
    pub option: String,
    /// Why it was refused.
    pub why: String,
}

impl ArgError {
    /// `option` refused because of `why`.
    pub fn new(option: impl Into<String>, why: impl std::fmt::Display) -> ArgError {
        ArgError {
            option: option.into(),
            why: why.to_string(),
        }
    }
}
