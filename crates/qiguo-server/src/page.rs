//! The page (`--web DIR`): the browser's game, served on the same port and origin as the
//! WebSocket. A request to `/` that asks for a WebSocket upgrade is the protocol, as always;
//! any other request is the page's. `/`, `/join/CODE` and `/watch/CODE` are the page itself
//! (`index.html`: the page reads the code from its address); every other path is a file of the
//! bundle. The bundle's files are sent precompressed (its `.br` and `.gz` copies, as the
//! browser accepts) by tower-http. Names with a content hash (`qiguo-0123456789abcdef.wasm`)
//! never change and are kept by browsers for a year; the rest (`index.html`, `worker.js`, which
//! name the hashed files) are revalidated on every visit, so an upgrade reaches every player
//! at once and no one is left on an old wasm.

use std::convert::Infallible;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::header::{CACHE_CONTROL, HeaderValue};
use axum::http::{Request, Response, StatusCode};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// The cache policy of files whose names carry their content's hash.
const KEPT: &str = "public, max-age=31536000, immutable";
/// The cache policy of the page and the worker's script: ask again every time.
const REVALIDATED: &str = "no-cache";

/// The bundle's directory, checked.
#[derive(Clone, Debug)]
pub struct Page {
    dir: PathBuf,
}

/// Why a directory is not a bundle.
#[derive(Debug, thiserror::Error)]
#[error("--web {0}: not a page bundle (no index.html there; build one with tools/build-web)")]
pub struct NotABundle(String);

impl Page {
    /// The bundle in `dir` (it must hold `index.html`).
    pub fn at(dir: &Path) -> Result<Page, NotABundle> {
        if dir.join("index.html").is_file() {
            Ok(Page {
                dir: dir.to_owned(),
            })
        } else {
            Err(NotABundle(dir.display().to_string()))
        }
    }

    /// The bundle's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The page with `head` (tags already escaped) added to its head: what a link to a game
    /// shows where chat programs read its Open Graph tags. Sent uncompressed and asked again
    /// every time, as the page is; the bundle's page as it is when it cannot be read.
    pub async fn with_head(&self, request: Request<Body>, head: &str) -> Response<Body> {
        let Ok(page) = tokio::fs::read_to_string(self.dir.join("index.html")).await else {
            return self.serve(request).await;
        };
        let Some(at) = page.find("</head>") else {
            return self.serve(request).await;
        };
        let body = format!("{}{head}\n{}", &page[..at], &page[at..]);
        let mut response = Response::new(Body::from(body));
        let headers = response.headers_mut();
        headers.insert(
            axum::http::header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(REVALIDATED));
        response
    }

    /// Answers a request that is not a WebSocket upgrade: the page, or one of its files.
    pub async fn serve(&self, request: Request<Body>) -> Response<Body> {
        let path = request.uri().path().to_owned();
        let response = if is_the_page(&path) {
            let index = ServeFile::new(self.dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip();
            index.oneshot(request).await
        } else {
            let files = ServeDir::new(&self.dir)
                .precompressed_br()
                .precompressed_gzip()
                .append_index_html_on_directories(false);
            files.oneshot(request).await
        };
        let Ok(mut response) = response.map_err(|e: Infallible| e);
        if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
            let policy = if has_content_hash(&path) {
                KEPT
            } else {
                REVALIDATED
            };
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static(policy));
        }
        response.map(Body::new)
    }
}

/// Whether `path` is the page itself: `/`, `/index.html`, `/join/CODE` or `/watch/CODE`.
fn is_the_page(path: &str) -> bool {
    if path == "/" || path == "/index.html" {
        return true;
    }
    ["/join/", "/watch/"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|code| !code.is_empty() && !code.contains('/'))
    })
}

/// The game code a page's path names: `CODE` of `/join/CODE` or `/watch/CODE`, when it could be
/// one (letters, digits and dashes, at most 64).
pub fn game_code(path: &str) -> Option<&str> {
    let code = ["/join/", "/watch/"]
        .iter()
        .find_map(|prefix| path.strip_prefix(prefix))?
        .trim_end_matches('/');
    (!code.is_empty()
        && code.len() <= 64
        && code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    .then_some(code)
}

/// Whether the file's name carries a content hash: `NAME-` and sixteen hex digits before its
/// extension, as tools/build-web names them.
fn has_content_hash(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let stem = name.split('.').next().unwrap_or("");
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_hashed_names_are_told_apart() {
        for page in ["/", "/index.html", "/join/ABCD-EFGH", "/watch/x"] {
            assert!(is_the_page(page), "{page}");
        }
        for not in [
            "/join/",
            "/join/a/b",
            "/worker.js",
            "/qiguo-0123456789abcdef.wasm",
        ] {
            assert!(!is_the_page(not), "{not}");
        }
        assert_eq!(game_code("/watch/K7QM-3XTD/"), Some("K7QM-3XTD"));
        assert_eq!(game_code("/join/abc"), Some("abc"));
        for not in ["/watch/", "/watch/a/b", "/watch/a\"b", "/", "/watch/<x>"] {
            assert_eq!(game_code(not), None, "{not}");
        }
        assert!(has_content_hash("/qiguo-0123456789abcdef.wasm"));
        assert!(has_content_hash("/qiguo-worker-0123456789abcdef.js"));
        assert!(!has_content_hash("/worker.js"));
        assert!(!has_content_hash("/index.html"));
        assert!(!has_content_hash("/qiguo-0123.wasm"));
    }
}
