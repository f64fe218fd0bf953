//! The languages the player's platform names, in the player's order: the browser's
//! (`navigator.languages`) in a page, the POSIX locale on the desktop. A leaf: the lowest layer
//! (`i18n`) reads the platform here and through nothing of the game or the page.

/// In a page: the browser's languages, in the player's order of preference.
#[cfg(target_arch = "wasm32")]
pub fn platform_locales() -> Vec<String> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let navigator = window.navigator();
    let mut languages: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|l| l.as_string())
        .collect();
    if languages.is_empty() {
        languages.extend(navigator.language());
    }
    languages
}

/// On the desktop: the system's locale, the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that
/// is set (as POSIX orders them).
#[cfg(not(target_arch = "wasm32"))]
pub fn platform_locales() -> Vec<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(|var| std::env::var(var).ok())
        .find(|value| !value.is_empty())
        .into_iter()
        .collect()
}
