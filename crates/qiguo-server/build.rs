//! `QIGUO_POSTGRES_URL` set while building (`.ci/run` sets it once it has started PostgreSQL)
//! turns on the tests that need PostgreSQL; without it they are built ignored, so that a run
//! without PostgreSQL reports them as such rather than passing them.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rerun-if-env-changed=QIGUO_POSTGRES_URL");
    if std::env::var_os("QIGUO_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
}
