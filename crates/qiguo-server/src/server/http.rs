//! The server's HTTP side: the accept loop (TLS, the limits before a WebSocket opens, each
//! connection served by hyper), the WebSocket upgrade that starts a [`super::session`], the
//! health check, the metrics listener, the e-mail links' pages and the page's files.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::log::note;
use crate::page::Page;
use crate::pictures::{Drawn, PictureError, Pictures, Preview};
use axum::extract::Request;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Extension, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use qiguo_picture::card::{CARD_HEIGHT, CARD_WIDTH};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::admission::{Admission, FORGET_EVERY, Limit, Slot, client_address};
use crate::hub::Hub;
use crate::hub::mail::{LinkAction, LinkPage};
use crate::log::Repeats;
use crate::protocol::MAX_FRAME_BYTES;

use super::session::Session;
use super::{MAX_HEAD_BYTES, SOCKET_BUFFER_BYTES, ServeError, TOLD_AT_ONCE, Tls};
use tracing::Instrument;

/// Serves the metrics at `at` (`/metrics`, Prometheus's text format), on a listener of its own
/// so that the operator can keep it off the public network; returns where it listens.
pub(super) async fn serve_metrics(
    at: SocketAddr,
    hub: Arc<Hub>,
    slots: Arc<Semaphore>,
    max: usize,
) -> Result<SocketAddr, ServeError> {
    let listener = TcpListener::bind(at)
        .await
        .map_err(|e| ServeError::Bind(at, e))?;
    let addr = listener.local_addr().map_err(|e| ServeError::Bind(at, e))?;
    let router = Router::new().route(
        "/metrics",
        get(move || {
            let text = hub.render_metrics(max - slots.available_permits());
            async move { ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text) }
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Ok(addr)
}

/// `/healthz`: 200 while the server serves and its database answers, 503 with why otherwise.
pub(super) async fn healthz(State(hub): State<Arc<Hub>>) -> Response {
    match hub.healthy().await {
        Ok(()) => (
            StatusCode::OK,
            [(header::CACHE_CONTROL, "no-store")],
            "ok\n",
        )
            .into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CACHE_CONTROL, "no-store")],
            format!("{why}\n"),
        )
            .into_response(),
    }
}

/// `/mail/ACTION/TOKEN` asked for (a GET, as mail scanners make): a page saying what the link
/// does, with a button that does it.
pub(super) async fn mail_link_asked(
    State(hub): State<Arc<Hub>>,
    Path((action, token)): Path<(String, String)>,
) -> Response {
    mail_link(&hub, &action, &token, false).await
}

/// `/mail/ACTION/TOKEN` followed (a POST: the page's button, or a mail program's one click of
/// RFC 8058): done.
pub(super) async fn mail_link_followed(
    State(hub): State<Arc<Hub>>,
    Path((action, token)): Path<(String, String)>,
) -> Response {
    mail_link(&hub, &action, &token, true).await
}

async fn mail_link(hub: &Arc<Hub>, action: &str, token: &str, act: bool) -> Response {
    let Some(action) = LinkAction::from_path(action) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let page = hub.mail.link_page(action, token, act).await;
    let status = if page.ok {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            // The token is in the address: sent to nobody else.
            (header::REFERRER_POLICY, "no-referrer"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
            ),
        ],
        link_page_html(&page),
    )
        .into_response()
}

/// A link's page: its title, what it says and (asked) a button posting to the same address.
fn link_page_html(page: &LinkPage) -> String {
    let button = page
        .button
        .as_ref()
        .map(|b| {
            format!(
                "<form method=\"post\"><button type=\"submit\">{}</button></form>",
                html_escaped(b)
            )
        })
        .unwrap_or_default();
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:36em;margin:3em auto;padding:0 1em;\
         background:#f4efe4;color:#2b2118}}button{{font-size:1.1em;padding:.5em 1.5em}}</style>\
         </head><body><h1>{title}</h1><p>{text}</p>{button}</body></html>\n",
        lang = page.language.html_tag(),
        title = html_escaped(&page.title),
        text = html_escaped(&page.text),
    )
}

/// `text` with HTML's special characters escaped.
fn html_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Now and then: the rate limits forget the addresses that have not asked lately.
pub(super) async fn forget_idle(admission: std::sync::Weak<Admission>) {
    let mut every = tokio::time::interval(FORGET_EVERY);
    loop {
        every.tick().await;
        match admission.upgrade() {
            Some(admission) => admission.forget_idle(),
            None => return,
        }
    }
}

/// A connection: its peer, for the log, and its places among the connections served at once
/// (in all, and from its address unless it comes through a trusted proxy), held by the
/// connection and then by its session, so that a session counts until it ends.
#[derive(Clone, Debug)]
pub(super) struct Conn {
    peer: SocketAddr,
    slot: Arc<OwnedSemaphorePermit>,
    address: Option<Arc<Slot>>,
    admission: Arc<Admission>,
}

/// Why a connection is refused, told in an HTTP 503 with the reason, whatever it asks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Refused(Limit);

pub(super) async fn accept_loop(
    listener: TcpListener,
    router: Router,
    tls_now: Tls,
    slots: Arc<Semaphore>,
    admission: Arc<Admission>,
    hub: Arc<Hub>,
) {
    let telling = Arc::new(Semaphore::new(TOLD_AT_ONCE));
    let refusing = Router::new().fallback(refused);
    let mut turned_away = Repeats::new("connections turned away");
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, most likely: wait for some to be given back.
                note!(hub.log(), WARN, "accept failed", why = e);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let tls = tls_now
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let admitted = match slots.clone().try_acquire_owned() {
            Err(_) => Err(Limit::Connections),
            Ok(slot) if admission.counts_at_accept(peer.ip()) => admission
                .address_slot(peer.ip())
                .map(|address| (slot, Some(Arc::new(address)))),
            Ok(slot) => Ok((slot, None)),
        };
        let service = match admitted {
            Ok((slot, address)) => router.clone().layer(Extension(Conn {
                peer,
                slot: Arc::new(slot),
                address,
                admission: admission.clone(),
            })),
            Err(limit) => {
                hub.metrics().turned_away(limit.name());
                if turned_away.admit(hub.log()) {
                    note!(
                        hub.log(),
                        INFO,
                        "turned away",
                        peer = peer,
                        limit = limit.reason()
                    );
                }
                // Told why while few are being told; beyond that, closed at once.
                let Ok(telling) = telling.clone().try_acquire_owned() else {
                    continue;
                };
                let tls = tls.clone();
                let hub = hub.clone();
                let service = refusing.clone().layer(Extension(Refused(limit)));
                let within = admission.limits().hello_within;
                tokio::spawn(async move {
                    serve_connection(tcp, peer, tls, service, within, &hub).await;
                    drop(telling);
                });
                continue;
            }
        };
        let tls = tls.clone();
        let hub = hub.clone();
        let within = admission.limits().hello_within;
        tokio::spawn(async move { serve_connection(tcp, peer, tls, service, within, &hub).await });
    }
}

/// Serves one TCP connection's HTTP (through TLS if given), with a deadline (`within`) on the
/// handshake and on every request's headers, and small read buffers.
async fn serve_connection(
    tcp: tokio::net::TcpStream,
    peer: SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
    service: Router,
    within: Duration,
    hub: &Hub,
) {
    // HTTP/1 only: no reading ahead to tell the version, which would wait without a deadline.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(within)
        .max_buf_size(MAX_HEAD_BYTES);
    let service = TowerToHyperService::new(service);
    let served = match tls {
        Some(tls) => match tokio::time::timeout(within, tls.accept(tcp)).await {
            Ok(Ok(stream)) => {
                builder
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades()
                    .await
            }
            Ok(Err(e)) => {
                note!(
                    hub.log(),
                    INFO,
                    "TLS handshake failed",
                    peer = peer,
                    why = e
                );
                Ok(())
            }
            Err(_) => {
                note!(hub.log(), INFO, "TLS handshake too slow", peer = peer);
                Ok(())
            }
        },
        None => {
            builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades()
                .await
        }
    };
    if let Err(e) = served {
        note!(hub.log(), INFO, "connection ended", peer = peer, why = e);
    }
}

/// The answer to every request on a connection refused for a limit.
async fn refused(Extension(Refused(limit)): Extension<Refused>) -> Response {
    unavailable(limit)
}

fn unavailable(limit: Limit) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, "60"),
            (header::CONNECTION, "close"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        format!("{}\n", limit.reason()),
    )
        .into_response()
}

/// `/`: the protocol for a WebSocket upgrade; otherwise the page, when one is served.
pub(super) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(conn): Extension<Conn>,
    page: Option<Extension<Page>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    request: Request,
) -> Response {
    let ws = match (ws, page) {
        (Ok(ws), _) => ws,
        (Err(_), Some(Extension(page))) => return page.serve(request).await,
        (Err(rejection), None) => return rejection.into_response(),
    };
    let Conn {
        peer,
        slot,
        address,
        admission,
    } = conn;
    // Behind a trusted proxy, the client it names is counted now.
    let forwarded = request
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    let Some(client) = client_address(peer.ip(), forwarded, &admission.limits().trusted_proxies)
    else {
        note!(
            hub.log(),
            INFO,
            "turned away",
            peer = peer,
            limit = Limit::NoClientAddress.reason()
        );
        return unavailable(Limit::NoClientAddress);
    };
    let address = match address {
        Some(address) => address,
        None => match admission.address_slot(client) {
            Ok(address) => Arc::new(address),
            Err(limit) => {
                hub.metrics().turned_away(limit.name());
                note!(
                    hub.log(),
                    INFO,
                    "turned away",
                    client = client,
                    peer = peer,
                    limit = limit.reason()
                );
                return unavailable(limit);
            }
        },
    };
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        .max_write_buffer_size(2 * MAX_FRAME_BYTES)
        .on_upgrade(move |socket| async move {
            let peer = SocketAddr::new(client, peer.port());
            // A span per connection: its lines carry the peer, and the player once signed in.
            let span = tracing::info_span!(
                target: "qiguo_server",
                "session",
                peer = %peer,
                player = tracing::field::Empty
            );
            Session::run(hub, admission, peer, socket)
                .instrument(span)
                .await;
            drop((slot, address));
        })
}

/// Any other path: a file of the page's bundle.
pub(super) async fn page_file(
    Extension(page): Extension<Page>,
    Extension(pictures): Extension<Arc<Pictures>>,
    request: Request,
) -> Response {
    let code = crate::page::game_code(request.uri().path()).map(str::to_owned);
    if let Some(code) = code
        && let Some(preview) = pictures.preview(&code).await
    {
        let tags = preview_tags(&preview, &pictures.site(request.headers()), &code);
        return page.with_head(request, &tags).await;
    }
    page.serve(request).await
}

/// The Open Graph tags of a link to the game with code `code` (checked as a code is), on the
/// site at `base`: its title, where it stands and its card.
fn preview_tags(preview: &Preview, base: &str, code: &str) -> String {
    let (title, description) = (
        html_escaped(crate::pictures::TITLE),
        html_escaped(&preview.description),
    );
    let base = html_escaped(base);
    format!(
        "<meta property=\"og:type\" content=\"website\">\
         <meta property=\"og:site_name\" content=\"Qiguo\">\
         <meta property=\"og:title\" content=\"{title}\">\
         <meta property=\"og:description\" content=\"{description}\">\
         <meta property=\"og:image\" content=\"{base}/games/{code}/card.png\">\
         <meta property=\"og:image:type\" content=\"image/png\">\
         <meta property=\"og:image:width\" content=\"{CARD_WIDTH}\">\
         <meta property=\"og:image:height\" content=\"{CARD_HEIGHT}\">\
         <meta property=\"og:image:alt\" content=\"The board from above: {description}\">\
         <meta name=\"twitter:card\" content=\"summary_large_image\">"
    )
}

/// `/games/{code}/card.png`: the game's card, the picture its links show.
pub(super) async fn game_card(
    State(hub): State<Arc<Hub>>,
    Extension(pictures): Extension<Arc<Pictures>>,
    Path(code): Path<String>,
    headers: axum::http::HeaderMap,
) -> Response {
    let host = pictures.host(&headers);
    let drawn = pictures.card(&code, &host).await;
    picture(&hub, drawn, "image/png", None)
}

/// `/games/{code}/moves.gif`: a finished game's moves, animated.
pub(super) async fn game_animation(
    State(hub): State<Arc<Hub>>,
    Extension(pictures): Extension<Arc<Pictures>>,
    Path(code): Path<String>,
) -> Response {
    let name = format!(
        "qiguo-{}.gif",
        crate::page::game_code(&format!("/watch/{code}")).unwrap_or("game")
    );
    let drawn = pictures.animation(&code).await;
    picture(&hub, drawn, "image/gif", Some(name))
}

/// A picture's answer: the picture, kept a day once its game is over and a minute while it
/// goes on; or why not, in words.
fn picture(
    hub: &Hub,
    drawn: Result<Drawn, PictureError>,
    kind: &'static str,
    file: Option<String>,
) -> Response {
    let why = match drawn {
        Ok(drawn) => {
            let kept = if drawn.finished {
                "public, max-age=86400"
            } else {
                "public, max-age=60"
            };
            let mut response = (
                StatusCode::OK,
                [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, kept)],
                drawn.bytes,
            )
                .into_response();
            if let Some(file) = file
                && let Ok(value) = format!("inline; filename=\"{file}\"").parse()
            {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, value);
            }
            return response;
        }
        Err(why) => why,
    };
    let status = match &why {
        PictureError::NoGame => StatusCode::NOT_FOUND,
        PictureError::NotOver => StatusCode::CONFLICT,
        PictureError::Busy => StatusCode::SERVICE_UNAVAILABLE,
        PictureError::Store(_) | PictureError::Draw(_) => {
            note!(
                hub.log(),
                WARN,
                "a game's picture was not drawn",
                why = why.to_string()
            );
            StatusCode::INTERNAL_SERVER_ERROR
        }
    };
    let mut response = (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{why}\n"),
    )
        .into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    }
    response
}
/// `/tournaments/{name}`: a public tournament's standings as a page anyone with the link reads
/// (a club's own are its members' only: not found).
pub(super) async fn standings_page(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Response {
    let Some(page) = hub.tournaments.public_standings(&name).await else {
        return StatusCode::NOT_FOUND.into_response();
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Standings change as games end: read afresh, kept a minute at most.
            (header::CACHE_CONTROL, "public, max-age=60"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'",
            ),
        ],
        standings_html(&page),
    )
        .into_response()
}

/// A tournament's standings as HTML: its name, where it stands, the winners, one row a player.
fn standings_html(view: &qiguo_protocol::tournaments::TournamentView) -> String {
    use qiguo_protocol::tournaments::{TournamentFormat, TournamentState, halves_text};
    let state = match view.state {
        TournamentState::Entering => "to start",
        TournamentState::Playing => "under way",
        TournamentState::Over => "over",
    };
    let progress = match view.format {
        TournamentFormat::Swiss => format!("Swiss, round {} of {}", view.round, view.rounds),
        TournamentFormat::Arena => format!("arena of {} minutes", view.minutes),
    };
    let winners = if view.winners.is_empty() {
        String::new()
    } else {
        format!(
            "<p><strong>Won by {}</strong></p>",
            html_escaped(&view.winners.join(", "))
        )
    };
    let mut rows = String::new();
    for s in &view.standings {
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.place,
            html_escaped(&s.name),
            if s.left { " (left)" } else { "" },
            halves_text(s.points),
            s.games,
            s.firsts
        ));
    }
    let title = html_escaped(&view.name);
    let summary = html_escaped(&format!(
        "{progress}, {state}; {} {}",
        view.players,
        if view.players == 1 {
            "player"
        } else {
            "players"
        }
    ));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}: standings</title>\
         <meta property=\"og:title\" content=\"{title}: standings\">\
         <meta property=\"og:description\" content=\"{summary}\">\
         <style>body{{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;\
         background:#f4efe4;color:#2b2118}}table{{border-collapse:collapse;width:100%}}\
         td,th{{text-align:left;padding:.25em .5em;border-bottom:1px solid #d8ccb4}}</style>\
         </head><body><h1>{title}</h1><p>{summary}</p>{winners}\
         <table><tr><th>Place</th><th>Player</th><th>Points</th><th>Games</th><th>Firsts</th>\
         </tr>{rows}</table><p>Points by place: a point for each seat finished ahead of, half \
         for each tied with.</p></body></html>\n"
    )
}
