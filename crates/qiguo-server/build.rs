//! `QIGUO_POSTGRES_URL` set while building (`.ci/run` sets it once it has started PostgreSQL)
//! turns on the tests that need PostgreSQL; without it they are built ignored, so that a run
//! without PostgreSQL reports them as such rather than passing them. Likewise the systemd unit's
//! check runs where `systemd-analyze` is found on the PATH when the tests are built, and the
//! e-mail tests where Debian's `aiosmtpd` is installed.

use std::path::Path;

/// Debian's SMTP server in Python (python3-aiosmtpd), which the e-mail tests start on loopback.
const AIOSMTPD: &str = "/usr/bin/aiosmtpd";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rustc-check-cfg=cfg(systemd_analyze)");
    println!("cargo::rustc-check-cfg=cfg(smtp_tests)");
    println!("cargo::rerun-if-env-changed=QIGUO_POSTGRES_URL");
    println!("cargo::rerun-if-env-changed=PATH");
    if std::env::var_os("QIGUO_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| Path::new(&dir).join("systemd-analyze").is_file())
    });
    if on_path {
        println!("cargo::rustc-cfg=systemd_analyze");
    }
    // The e-mail tests' relay: Debian's python3-aiosmtpd (.ci/run installs it).
    if Path::new(AIOSMTPD).is_file() {
        println!("cargo::rustc-cfg=smtp_tests");
    }
    println!("cargo::rerun-if-changed={AIOSMTPD}");
}
