//! `QIGUO_POSTGRES_URL` set while building (`.ci/run` sets it once it has started PostgreSQL)
//! turns on the tests that need PostgreSQL; without it they are built ignored, so that a run
//! without PostgreSQL reports them as such rather than passing them. Likewise the systemd unit's
//! check runs where `systemd-analyze` is found on the PATH when the tests are built.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rustc-check-cfg=cfg(systemd_analyze)");
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
}
