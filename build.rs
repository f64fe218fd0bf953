//! Build-time work. `QIGUO_SKIP_WINDOW_TESTS` set while building marks the tests that need
//! an X server and a Vulkan driver ignored, so a run without them reports them as such rather
//! than passing them silently; the browser test likewise needs `QIGUO_WEB_BUNDLE` and Chromium
//! (see `browser_tests`). The lesson files in `assets/lessons/` are listed for the game
//! to build in (`src/lessons.rs`), so a new lesson is a new file and no code.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(skip_window_tests)");
    println!("cargo::rerun-if-env-changed=QIGUO_SKIP_WINDOW_TESTS");
    if std::env::var_os("QIGUO_SKIP_WINDOW_TESTS").is_some() {
        println!("cargo::rustc-cfg=skip_window_tests");
    }
    browser_tests();
    list_lessons();
}

/// `QIGUO_WEB_BUNDLE` naming a bundle made by tools/build-web, with `chromium` on the PATH,
/// builds the browser test (tests/browser) to run; without them it is built ignored.
fn browser_tests() {
    println!("cargo::rustc-check-cfg=cfg(browser_tests)");
    println!("cargo::rerun-if-env-changed=QIGUO_WEB_BUNDLE");
    let Some(bundle) = std::env::var_os("QIGUO_WEB_BUNDLE") else {
        return;
    };
    let bundle = std::path::Path::new(&bundle);
    println!(
        "cargo::rerun-if-changed={}",
        bundle.join("index.html").display()
    );
    let on_path = |program: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
    };
    if bundle.join("index.html").is_file() && on_path("chromium") {
        println!("cargo::rustc-cfg=browser_tests");
    }
}

/// Writes `$OUT_DIR/lesson_files.rs`: `&[(name, include_str!(…/assets/lessons/name)), …]`, in
/// name order. Paths are relative to the package (for `rerun-if-changed`) or made from
/// `CARGO_MANIFEST_DIR` where the game is compiled, so that two checkouts sharing one target
/// directory never read each other's lessons.
fn list_lessons() {
    let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap())
        .join("assets")
        .join("lessons");
    println!("cargo::rerun-if-changed=assets/lessons");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("assets/lessons/ exists")
        .map(|entry| entry.expect("assets/lessons/ is readable").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out = String::from("&[\n");
    for name in names {
        println!("cargo::rerun-if-changed=assets/lessons/{name}");
        out.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/assets/lessons/{name}\"))),\n"
        ));
    }
    out.push(']');
    let target = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("lesson_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
