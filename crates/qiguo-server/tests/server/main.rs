//! The server's tests, one binary (one build of what they share, and one link): each module a
//! concern, each test bounded in time and with its own files, rows and ports, so that all of
//! them run in parallel.

// Each module uses some of what `common` offers.
#[allow(dead_code)]
mod common;

mod across;
mod admission;
mod after;
mod agreement;
mod clubs;
mod conduct;
mod evenings;
mod games;
mod holidays;
mod link;
mod lobby;
mod mail;
mod page;
mod pictures;
mod push;
mod quick;
mod ratings;
mod reviews;
mod store;
mod survival;
mod talk;
mod tournaments;
