//! `QIGUO_POSTGRES_URL` set while building (`.ci/run` sets it once it has started PostgreSQL)
//! turns on the tests that need PostgreSQL; without it they are built ignored, so that a run
//! without PostgreSQL reports them as such rather than passing them. Likewise the systemd unit's
//! check runs where Debian's `systemd-analyze` is installed when the tests are built, and the
//! e-mail tests where Debian's `aiosmtpd` is.
//!
//! Cargo is asked to run this again only for what it reads: the variable, and each program's
//! file where it exists or, where it does not, the folder it would appear in (a path that does
//! not exist would make Cargo run this, and rebuild the crate and all that depends on it, at
//! every build).

use std::path::Path;

/// Debian's SMTP server in Python (python3-aiosmtpd), which the e-mail tests start on loopback.
const AIOSMTPD: &str = "/usr/bin/aiosmtpd";

/// Debian's checker of systemd units (package systemd).
const SYSTEMD_ANALYZE: &str = "/usr/bin/systemd-analyze";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rustc-check-cfg=cfg(systemd_analyze)");
    println!("cargo::rustc-check-cfg=cfg(smtp_tests)");
    println!("cargo::rerun-if-env-changed=QIGUO_POSTGRES_URL");
    if std::env::var_os("QIGUO_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
    if installed(SYSTEMD_ANALYZE) {
        println!("cargo::rustc-cfg=systemd_analyze");
    }
    if installed(AIOSMTPD) {
        println!("cargo::rustc-cfg=smtp_tests");
    }
}

/// Whether the program at `path` is installed; Cargo watches the file, or, where it is
/// missing, its folder (for it to be installed).
fn installed(path: &str) -> bool {
    let path = Path::new(path);
    let there = path.is_file();
    let watched = if there {
        path
    } else {
        path.parent().unwrap_or(Path::new("/"))
    };
    println!("cargo::rerun-if-changed={}", watched.display());
    there
}
