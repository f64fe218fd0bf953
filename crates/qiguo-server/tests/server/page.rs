//! The page served beside the WebSocket (`--web DIR`), on loopback: the page itself at `/` and
//! at invitation links, the bundle's files precompressed as the browser accepts, the cache
//! policy (hashed names kept, the rest revalidated), conditional requests, nothing outside the
//! bundle, and the protocol on the same port and path for a WebSocket upgrade.

use std::net::{IpAddr, Ipv4Addr};

use qiguo_client::Trust;
use qiguo_server::Store;
use qiguo_server::page::Page;
use qiguo_server::protocol::Identity;
use qiguo_server::server::{ServerConfig, serve_store};
use qiguo_testkit::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const INDEX: &str = "<!doctype html><title>Qiguo</title>";
const HASHED: &str = "qiguo-0123456789abcdef.wasm";

/// A bundle as tools/build-web lays it out: the page, a hashed file with its brotli and gzip
/// copies (their contents told apart, to see which one is sent), the worker's script.
fn bundle(dir: &TempDir) -> std::path::PathBuf {
    let web = dir.path().join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    std::fs::write(web.join("index.html.br"), "index as brotli").unwrap();
    std::fs::write(web.join(HASHED), b"\0asm plain").unwrap();
    std::fs::write(web.join(format!("{HASHED}.br")), "wasm as brotli").unwrap();
    std::fs::write(web.join(format!("{HASHED}.gz")), "wasm as gzip").unwrap();
    std::fs::write(web.join("worker.js"), "self.onmessage = () => {};").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "not for the web").unwrap();
    web
}

/// An HTTP/1.1 response: its status, headers (names in lower case) and body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one GET with `headers` and reads the whole response (the connection closed after it).
pub(crate) async fn get(addr: std::net::SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(crate::common::PATIENCE, stream.read_to_end(&mut raw))
        .await
        .expect("the server answers")
        .unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

#[tokio::test]
async fn the_page_its_files_and_the_protocol_share_one_port() {
    let dir = TempDir::new("qiguo-page");
    let web = bundle(&dir);
    let db = crate::common::sqlite(&dir);
    let mut config = ServerConfig::new(&db);
    config.bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    config.port = 0;
    config.web = Some(Page::at(&web).unwrap());
    let lines = crate::common::Lines::default();
    let store = Store::open(&db).await.unwrap();
    let running = serve_store(&config, store, None, lines.log())
        .await
        .unwrap();
    let addr = running.addr;

    // The page at `/`, in brotli for a browser that takes it, revalidated on every visit.
    let page = get(addr, "/", &[("Accept-Encoding", "gzip, br")]).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-encoding"), Some("br"));
    assert_eq!(page.body, b"index as brotli");
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    // Plain for a client that takes neither; the same page at an invitation link.
    let plain = get(addr, "/join/K7QM-3XTD-9WFB-2HZR", &[]).await;
    assert_eq!(
        (plain.status, plain.body.as_slice()),
        (200, INDEX.as_bytes())
    );
    assert_eq!(plain.header("content-encoding"), None);
    let watch = get(addr, "/watch/K7QM-3XTD-9WFB-2HZR", &[]).await;
    assert_eq!(watch.body, INDEX.as_bytes());

    // A hashed file: gzip when brotli is not offered, kept for a year, served as wasm.
    let wasm = get(addr, &format!("/{HASHED}"), &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(wasm.status, 200);
    assert_eq!(wasm.header("content-encoding"), Some("gzip"));
    assert_eq!(wasm.body, b"wasm as gzip");
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(
        wasm.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    // A second visit asks whether the page changed: it did not.
    let modified = page
        .header("last-modified")
        .expect("a date to revalidate against");
    let again = get(
        addr,
        "/",
        &[("Accept-Encoding", "br"), ("If-Modified-Since", modified)],
    )
    .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // The worker's script names hashed files, so it is revalidated like the page.
    let worker = get(addr, "/worker.js", &[]).await;
    assert_eq!(worker.header("cache-control"), Some("no-cache"));

    // Nothing else: a missing file, a path out of the bundle.
    assert_eq!(get(addr, "/missing.wasm", &[]).await.status, 404);
    for out in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/join/../../secret.txt",
    ] {
        let reply = get(addr, out, &[]).await;
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("not for the web"),
            "{out} reached outside the bundle"
        );
    }

    // The protocol, on the same port and path, for a WebSocket upgrade.
    let url = format!("ws://{addr}");
    let (_client, welcome) = qiguo_client::connect(
        &url,
        Identity::New { name: "Ann".into() },
        &Trust::default(),
    )
    .await
    .expect("the protocol beside the page");
    assert_eq!(welcome.name, "Ann");
}

#[test]
fn a_folder_without_a_page_is_refused_with_the_way_to_make_one() {
    let dir = TempDir::new("qiguo-page-none");
    let refused = Page::at(dir.path()).unwrap_err().to_string();
    assert!(refused.contains("tools/build-web"), "{refused}");
}
