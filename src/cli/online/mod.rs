//! `qiguo online`, a client without a window for scripts and tests: every command prints one
//! JSON line; `play` one per move it makes. The player's key for each server is kept in the data
//! directory. It speaks through the client crate, as the window and the page do. (`qiguo
//! server` is the server crate's command line, `qiguo_server::cli`.)

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_client::{Backoff, Client, ClientError, KeyStore, SignInError, Trust, sign_in};
use qiguo_protocol::lobby::{LobbyView, RatingRange, TableId, TableSpec, TableView, WhenUnfilled};
use qiguo_protocol::{Answer, Ask, Event, GameView, MAX_DAYS, MIN_DAYS, NewGame, Refusal};
use qiguo_protocol::{GameId, MadeBy, Pace, QuickPace, RatingFamily, SeatPlan, WhenOverdue};
use qiguo_rules::{Game, Kingdom, Move, Preset, Rules, notation};
use serde_json::json;

use super::args::{ArgError, SeatingArg};
use crate::saves::SaveDir;

/// Options of `qiguo online`.
#[derive(Args, Debug)]
pub struct OnlineArgs {
    /// The server: ws://HOST:PORT, or wss://HOST:PORT for one with TLS.
    #[arg(
        long,
        value_name = "URL",
        default_value = "ws://127.0.0.1:7206",
        global = true
    )]
    pub server: String,
    /// Also trust this authority's certificate (PEM) for wss:// (a server's own certificate).
    #[arg(long, value_name = "FILE", global = true)]
    pub ca: Option<PathBuf>,
    /// Connect by plain ws:// to another machine (a home network you trust): your key then
    /// crosses it unencrypted. Without it, ws:// is for this machine only.
    #[arg(long, global = true)]
    pub insecure_lan: bool,
    /// Your name, when this server meets you for the first time.
    #[arg(long, value_name = "N", default_value = "Player", global = true)]
    pub name: String,
    /// What to do.
    #[command(subcommand)]
    pub command: OnlineCommand,
}

impl OnlineArgs {
    /// Whom the client trusts, as the options say.
    fn trust(&self) -> Trust {
        Trust {
            extra_ca: self.ca.clone(),
            insecure_lan: self.insecure_lan,
        }
    }
}

/// The commands of `qiguo online`.
#[derive(Subcommand, Debug)]
pub enum OnlineCommand {
    /// Create a game; prints its id and invitation code.
    Create {
        /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
        #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
        preset: Preset,
        /// Who holds the kingdoms, as for the game window (seven players by default).
        #[arg(long, value_name = "SEATING")]
        seating: Option<SeatingArg>,
        /// Who plays each player's seat, in seat order: me, open (anyone with the code), or a
        /// computer level (random, easy, medium, hard).
        #[arg(long, value_name = "S1,…")]
        seats: String,
        /// live, or Nd for a move every N days (1 to 14).
        #[arg(long, value_name = "PACE", default_value = "live")]
        pace: String,
        /// In a live game, seconds a seat waits for its absent player before a stand-in plays
        /// (10 to 600).
        #[arg(long, value_name = "S", default_value_t = 60)]
        wait: u32,
        /// In a game by correspondence, what an overdue move becomes: stand-in or pass.
        #[arg(long, value_name = "WHAT", default_value = "stand-in")]
        overdue: String,
    },
    /// Play now: a seat at once in a game of PACE with computers in the other kingdoms — a
    /// computer's kingdom taken over in a game under way, or a new game; prints the game, the
    /// kingdom and what was taken over.
    Quick {
        /// brisk (live, 30 s a move), calm (live, 3 min), daily (a day a move) or relaxed
        /// (three days).
        #[arg(long, value_name = "PACE", default_value = "brisk")]
        pace: QuickPace,
    },
    /// Take an open seat with a game's invitation code.
    Join {
        /// The invitation code.
        code: String,
        /// A kingdom of the seat to take.
        #[arg(long, value_name = "KINGDOM")]
        seat: Kingdom,
    },
    /// List your games in progress, those waiting for your move first; with --finished, your
    /// finished games, the newest first, 20 a page.
    Games {
        /// The finished games instead.
        #[arg(long)]
        finished: bool,
        /// Which page of them (from 0).
        #[arg(long, value_name = "N", default_value_t = 0, requires = "finished")]
        page: u32,
    },
    /// Print the lobby: people online, and playing and waiting at each quick pace; with
    /// --follow, a line again at each change, until stopped.
    Lobby {
        /// Keep printing it as it changes.
        #[arg(long)]
        follow: bool,
    },
    /// List the open public tables, the soonest to close first.
    Tables,
    /// Public tables: create one (and sit at it), sit at one, get up from one.
    Table {
        /// What to do at a table.
        #[command(subcommand)]
        command: TableCommand,
    },
    /// Block a player by their public name: quick play and tables never seat you together, and
    /// their table talk is hidden from you; --unblock undoes it.
    Block {
        /// Their public name.
        name: String,
        /// Unblock them instead.
        #[arg(long)]
        unblock: bool,
    },
    /// Report a player to the server's operator, with a reason and the game it is about.
    Report {
        /// Their public name.
        name: String,
        /// Why (at most 500 characters).
        #[arg(long)]
        reason: String,
        /// The game's id.
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
    },
    /// Print a pace family's leaderboard (the best established ratings first, then the
    /// provisional ones) and your rating and rated games there, or another player's.
    Ratings {
        /// live or correspondence.
        #[arg(long, value_name = "FAMILY", default_value = "live")]
        family: RatingFamily,
        /// The player to show instead of you, by public name.
        #[arg(long, value_name = "NAME")]
        of: Option<String>,
    },
    /// Offer the players of a finished game of yours a rematch: the same start, seats and
    /// pace; prints the new game's id and invitation code.
    Rematch {
        /// The finished game's id.
        game: String,
    },
    /// Make a move in one of your games.
    Move {
        /// The game's id.
        game: String,
        /// The move, such as f3a8.
        #[arg(value_name = "MOVE")]
        mv: String,
    },
    /// Print one of your games, its record included.
    Show {
        /// The game's id.
        game: String,
    },
    /// Go on holiday until DATE (YYYY-MM-DD, UTC, today or later; your correspondence clocks
    /// stop meanwhile), change the last day of the holiday you are on, or with --back come
    /// back today; prints your holidays.
    Away {
        /// The last day away.
        #[arg(value_name = "DATE", required_unless_present = "back")]
        until: Option<String>,
        /// Back today.
        #[arg(long, conflicts_with = "until")]
        back: bool,
    },
    /// Print your holidays: the day you are away until, and this year's days taken.
    Holidays,
    /// Give the server your e-mail address, to be told when it is your move while you are away
    /// (a link to confirm it is sent there first), change --digest, or --remove it; without
    /// either, print what the server has.
    Email {
        /// The address.
        #[arg(value_name = "ADDRESS", conflicts_with = "remove")]
        address: Option<String>,
        /// One e-mail a day listing the games waiting for you, rather than one a turn.
        #[arg(long, requires = "address")]
        digest: bool,
        /// Remove your address: no more e-mail.
        #[arg(long)]
        remove: bool,
    },
    /// Write to everyone at the table of one of your games; prints the line's number.
    Say {
        /// The game's id.
        game: String,
        /// What to say (at most 500 characters).
        text: String,
    },
    /// Print the table talk of one of your games, a JSON line each, oldest first (the last
    /// 100 lines, or those before line --before).
    Talk {
        /// The game's id.
        game: String,
        /// Only lines numbered below this one (to read further back).
        #[arg(long, value_name = "N")]
        before: Option<u32>,
    },
    /// Stop reading the table talk of the player of a kingdom in one of your games (in every
    /// game), or with --unmute read it again.
    Mute {
        /// The game's id.
        game: String,
        /// A kingdom of that player's seat.
        kingdom: Kingdom,
        /// Read them again.
        #[arg(long)]
        unmute: bool,
    },
    /// Play one of your seats as a computer until the game ends, connecting again whenever
    /// the server goes away; prints each move made.
    Play {
        /// The game's id.
        game: String,
        /// A kingdom of your seat.
        #[arg(long, value_name = "KINGDOM")]
        seat: Kingdom,
        /// Its strength: random, easy, medium or hard.
        #[arg(long, value_name = "L", default_value = "medium")]
        level: Level,
    },
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))
}

fn fail(message: &str, code: u8) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "qiguo: {message}");
    ExitCode::from(code)
}

fn print_line(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

/// `qiguo online …`.
pub fn run_online(args: &OnlineArgs) -> ExitCode {
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => return fail(&e, 1),
    };
    match rt.block_on(online(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Arg(e)) => fail(&e.to_string(), 2),
        Err(Failure::Other(e)) => fail(&e, 1),
    }
}

enum Failure {
    Arg(ArgError),
    Other(String),
}

impl From<ClientError> for Failure {
    fn from(e: ClientError) -> Failure {
        Failure::Other(client_failure(&e))
    }
}

/// A client's failure in one line: a refusal as its code and the server's English words.
fn client_failure(e: &ClientError) -> String {
    match e {
        ClientError::Refused { refusal, why } => {
            let code = serde_json::to_value(refusal)
                .ok()
                .and_then(|v| v["code"].as_str().map(str::to_owned))
                .unwrap_or_default();
            format!("refused ({code}): {why}")
        }
        other => other.to_string(),
    }
}

impl From<ArgError> for Failure {
    fn from(e: ArgError) -> Failure {
        Failure::Arg(e)
    }
}

/// Connects to the server as the player whose key is kept for it (or as a new player, whose
/// key is then kept).
pub async fn connect(server: &str, name: &str, trust: Trust) -> Result<Client, String> {
    let dir = SaveDir::locate().map_err(|e| e.to_string())?;
    let keys = KeyStore::new(dir.root());
    match sign_in(server, name, None, &trust, &keys).await {
        Ok((client, welcome)) => {
            // Answered still, for a while: said once on standard error, beside the JSON.
            if qiguo_protocol::versions::behind(welcome.server_version) {
                eprintln!(
                    "qiguo: this server speaks protocol version {} and this qiguo {}: it still \
                     answers, but update qiguo before it stops",
                    welcome.server_version,
                    qiguo_protocol::PROTOCOL_VERSION
                );
            }
            Ok(client)
        }
        Err(SignInError::Client(e)) => Err(client_failure(&e)),
        Err(e) => Err(e.to_string()),
    }
}

/// `qiguo online table …`.
#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Create a public table and sit at it; prints the table. Its game starts once every seat
    /// for people is taken (the one who fills it starts it).
    Create {
        /// How many of the seven kingdoms are for people (2 to 7); computers hold the others.
        #[arg(long, value_name = "N", default_value_t = 7)]
        people: u8,
        /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
        #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
        preset: Preset,
        /// live, or Nd for a move every N days (1 to 14).
        #[arg(long, value_name = "PACE", default_value = "live")]
        pace: String,
        /// In a live game, seconds a seat waits for its absent player before a stand-in plays.
        #[arg(long, value_name = "S", default_value_t = 60)]
        wait: u32,
        /// In a game by correspondence, what an overdue move becomes: stand-in or pass.
        #[arg(long, value_name = "WHAT", default_value = "stand-in")]
        overdue: String,
        /// The computers' level: easy, medium or hard.
        #[arg(long, value_name = "LEVEL", default_value = "medium")]
        level: Level,
        /// The game counts for the ratings.
        #[arg(long)]
        rated: bool,
        /// Only people rated MIN to MAX may sit down (such as 1300-1700).
        #[arg(long, value_name = "MIN-MAX")]
        ratings: Option<String>,
        /// Minutes the table waits to fill (1 to 10080, a week).
        #[arg(long, value_name = "MINUTES", default_value_t = 30)]
        fill_within: u32,
        /// If it has not filled by then: computers (take the empty seats) or close.
        #[arg(long, value_name = "WHAT", default_value = "computers")]
        unfilled: String,
    },
    /// Sit at an open table; prints the table (with its game, if you filled it).
    Join {
        /// The table's id.
        table: String,
    },
    /// Get up from a table not started yet.
    Leave {
        /// The table's id.
        table: String,
    },
}

async fn online(args: &OnlineArgs) -> Result<(), Failure> {
    // Arguments are checked before anything is sent.
    let create = match &args.command {
        OnlineCommand::Create {
            preset,
            seating,
            seats,
            pace,
            wait,
            overdue,
        } => Some(new_game(
            *preset,
            seating.as_ref(),
            seats,
            pace,
            *wait,
            overdue,
            &args.name,
        )?),
        _ => None,
    };
    let table = match &args.command {
        OnlineCommand::Table { command } => table_spec(command)?,
        _ => None,
    };
    if let OnlineCommand::Play { game, seat, level } = &args.command {
        return play(args, &GameId(game.clone()), *seat, *level).await;
    }
    let mut client = connect(&args.server, &args.name, args.trust())
        .await
        .map_err(Failure::Other)?;
    let line = match &args.command {
        OnlineCommand::Create { .. } => {
            let game = create.expect("checked above");
            match client.ask(Ask::Create { game }).await? {
                Answer::Created { game, code } => json!({ "game": game, "code": code }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Quick { pace } => match client.ask(Ask::Quick { pace: *pace }).await? {
            Answer::Seated {
                kingdom,
                took_over,
                game,
            } => {
                let seat = game.seats.iter().position(|s| s.yours);
                json!({
                    "game": game.id,
                    "pace": pace.name(),
                    "seat": seat,
                    "kingdom": kingdom,
                    "moves": game.record.moves.len(),
                    "took_over": took_over,
                })
            }
            other => unexpected(other)?,
        },
        OnlineCommand::Join { code, seat } => {
            let view = game_view(
                client
                    .ask(Ask::Join {
                        code: code.clone(),
                        kingdom: *seat,
                    })
                    .await?,
            )?;
            let number = view.seats.iter().position(|s| s.yours);
            json!({ "game": view.id, "seat": number, "kingdom": seat, "moves": view.record.moves.len() })
        }
        OnlineCommand::Games {
            finished: false, ..
        } => match client.ask(Ask::Games {}).await? {
            Answer::Games { games } => json!({ "games": games }),
            other => unexpected(other)?,
        },
        OnlineCommand::Games {
            finished: true,
            page,
        } => match client.ask(Ask::Finished { page: *page }).await? {
            Answer::Finished { games, page, more } => {
                json!({ "games": games, "page": page, "more": more })
            }
            other => unexpected(other)?,
        },
        OnlineCommand::Block { name, unblock } => {
            let ask = Ask::Block {
                name: name.clone(),
                block: !unblock,
            };
            match client.ask(ask).await? {
                Answer::Done => json!({ "name": name, "blocked": !unblock }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Report { name, reason, game } => {
            let ask = Ask::Report {
                name: name.clone(),
                game: game.clone().map(GameId),
                reason: reason.clone(),
            };
            match client.ask(ask).await? {
                Answer::Done => json!({ "name": name, "reported": true }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Lobby { follow } => {
            let view = match client.ask(Ask::Lobby { follow: *follow }).await? {
                Answer::Lobby(view) => view,
                other => unexpected(other)?,
            };
            let counts = |view: &LobbyView| json!({ "online": view.online, "paces": view.paces });
            if *follow {
                print_line(&counts(&view));
                loop {
                    if let Event::Lobby(view) = client.next_event().await? {
                        print_line(&counts(&view));
                    }
                }
            }
            counts(&view)
        }
        OnlineCommand::Tables => match client.ask(Ask::Lobby { follow: false }).await? {
            Answer::Lobby(view) => {
                let tables: Vec<serde_json::Value> = view
                    .tables
                    .iter()
                    .map(|t| {
                        let mut line = table_line(t);
                        line["spec"] = json!(t.spec);
                        line
                    })
                    .collect();
                json!({ "tables": tables })
            }
            other => unexpected(other)?,
        },
        OnlineCommand::Table { command } => {
            let ask = match command {
                TableCommand::Create { .. } => Ask::CreateTable {
                    table: table.expect("checked above"),
                },
                TableCommand::Join { table } => Ask::JoinTable {
                    table: TableId(table.clone()),
                },
                TableCommand::Leave { table } => Ask::LeaveTable {
                    table: TableId(table.clone()),
                },
            };
            match client.ask(ask).await? {
                Answer::Table(view) => table_line(&view),
                Answer::Done => json!({ "left": true }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Ratings { family, of } => {
            let ask = Ask::Ratings {
                family: *family,
                of: of.clone(),
            };
            match client.ask(ask).await? {
                Answer::Ratings {
                    family,
                    board,
                    player,
                } => json!({ "family": family, "board": board, "player": player }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Rematch { game } => {
            let ask = Ask::Rematch {
                game: GameId(game.clone()),
            };
            match client.ask(ask).await? {
                Answer::Created { game, code } => json!({ "game": game, "code": code }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Move { game, mv } => {
            let id = GameId(game.clone());
            let view = game_view(client.ask(Ask::Open { game: id.clone() }).await?)?;
            let ply = view.record.moves.len() as u32;
            match client
                .ask(Ask::Move {
                    game: id.clone(),
                    ply,
                    mv: mv.clone(),
                })
                .await?
            {
                Answer::Moved { ply } => json!({ "game": id, "ply": ply, "move": mv }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Show { game } => {
            let view = game_view(
                client
                    .ask(Ask::Open {
                        game: GameId(game.clone()),
                    })
                    .await?,
            )?;
            serde_json::to_value(&view).map_err(|e| Failure::Other(e.to_string()))?
        }
        OnlineCommand::Away { until, .. } => {
            let ask = Ask::Away {
                until: until.clone(),
            };
            match client.ask(ask).await? {
                Answer::Holidays(holidays) => json!(holidays),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Holidays => match client.ask(Ask::Holidays {}).await? {
            Answer::Holidays(holidays) => json!(holidays),
            other => unexpected(other)?,
        },
        OnlineCommand::Email {
            address,
            digest,
            remove,
        } => {
            let ask = match (address, remove) {
                (Some(address), _) => Ask::SetMail {
                    address: Some(address.clone()),
                    digest: *digest,
                },
                (None, true) => Ask::SetMail {
                    address: None,
                    digest: false,
                },
                (None, false) => Ask::Mail {},
            };
            match client.ask(ask).await? {
                Answer::Mail(mail) => json!(mail),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Say { game, text } => {
            let id = GameId(game.clone());
            let said = client
                .ask(Ask::Say {
                    game: id.clone(),
                    text: text.clone(),
                })
                .await?;
            match said {
                Answer::Said { n } => json!({ "game": id, "n": n }),
                other => unexpected(other)?,
            }
        }
        OnlineCommand::Talk { game, before } => {
            let ask = Ask::Talk {
                game: GameId(game.clone()),
                before: *before,
            };
            match client.ask(ask).await? {
                Answer::Talk { lines, .. } => {
                    for line in lines {
                        print_line(&json!(line));
                    }
                }
                other => unexpected(other)?,
            }
            client.close().await;
            return Ok(());
        }
        OnlineCommand::Mute {
            game,
            kingdom,
            unmute,
        } => {
            let id = GameId(game.clone());
            let view = game_view(client.ask(Ask::Open { game: id.clone() }).await?)?;
            let seat = seat_of(&view, *kingdom)?;
            let mute = !unmute;
            client
                .ask(Ask::Mute {
                    game: id.clone(),
                    seat,
                    mute,
                })
                .await?;
            json!({ "game": id, "seat": seat, "kingdom": kingdom, "muted": mute })
        }
        OnlineCommand::Play { .. } => unreachable!("played above"),
    };
    print_line(&line);
    client.close().await;
    Ok(())
}

fn unexpected<T>(answer: Answer) -> Result<T, Failure> {
    Err(Failure::Other(format!("the server answered {answer:?}")))
}

/// The player number of `kingdom`'s seat in the game of `view`.
fn seat_of(view: &GameView, kingdom: Kingdom) -> Result<u8, Failure> {
    let game = view
        .record
        .replay()
        .map_err(|e| Failure::Other(e.to_string()))?;
    game.start_position()
        .seats()
        .player(kingdom)
        .ok_or_else(|| Failure::Other(format!("{kingdom} has no player in this game")))
}

fn game_view(answer: Answer) -> Result<GameView, Failure> {
    match answer {
        Answer::Game(view) => Ok(*view),
        other => unexpected(other),
    }
}

/// The game `create` asks for.
fn new_game(
    preset: Preset,
    seating: Option<&SeatingArg>,
    seats: &str,
    pace: &str,
    wait: u32,
    overdue: &str,
    name: &str,
) -> Result<NewGame, ArgError> {
    let pace_text = pace;
    let rules = Rules::preset(preset);
    let table = match seating {
        Some(SeatingArg(seating)) => seating.seats().map_err(|e| ArgError::new("--seating", e))?,
        None => qiguo_rules::Seats::seven(),
    };
    let count = table.player_count();
    let plans = seats
        .split(',')
        .map(|s| match s.trim() {
            "me" => Ok(SeatPlan::Creator),
            "open" => Ok(SeatPlan::Open),
            other => other
                .parse::<Level>()
                .map(SeatPlan::Computer)
                .map_err(|e| ArgError::new("--seats", format!("{e} (or me, or open)"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if plans.len() != count {
        return Err(ArgError::new(
            "--seats",
            format!(
                "give one seat per player ({count}), in seat order, not {}",
                plans.len()
            ),
        ));
    }
    let pace = parse_pace(pace, wait, overdue)?;
    NewGame::build(
        &Game::start(rules, table),
        plans,
        pace,
        |i, plan| match plan {
            SeatPlan::Creator => name.to_owned(),
            SeatPlan::Open => format!("Player {}", i + 1),
            SeatPlan::Computer(_) => format!("Computer {}", i + 1),
        },
    )
    .map_err(|refusal| {
        let option = match refusal {
            Refusal::Days { .. } => format!("--pace {pace_text}"),
            Refusal::SeatPlans { .. } => "--seats".to_owned(),
            Refusal::NameEmpty | Refusal::NameTooLong { .. } => "--name".to_owned(),
            _ => "create".to_owned(),
        };
        ArgError::new(option, refusal.to_string())
    })
}

/// A pace as `--pace`, `--wait` and `--overdue` give it: `live`, or `Nd` for N days a move.
fn parse_pace(pace: &str, wait: u32, overdue: &str) -> Result<Pace, ArgError> {
    let overdue = match overdue {
        "stand-in" => WhenOverdue::StandIn,
        "pass" => WhenOverdue::Pass,
        other => {
            return Err(ArgError::new(
                format!("--overdue {other}"),
                "an overdue move is stand-in or pass",
            ));
        }
    };
    Ok(match pace {
        "live" => Pace::Live { wait_seconds: wait },
        days => {
            let n = days
                .strip_suffix('d')
                .and_then(|n| n.parse::<u8>().ok())
                .ok_or_else(|| {
                    ArgError::new(
                        format!("--pace {days}"),
                        format!("a pace is live, or {MIN_DAYS}d to {MAX_DAYS}d (days per move)"),
                    )
                })?;
            Pace::Correspondence { days: n, overdue }
        }
    })
}

/// A rating range as `--ratings` gives it: `MIN-MAX`.
fn parse_ratings(text: &str) -> Result<RatingRange, ArgError> {
    let range = text
        .split_once('-')
        .and_then(|(min, max)| Some((min.trim().parse().ok()?, max.trim().parse().ok()?)));
    match range {
        Some((min, max)) => Ok(RatingRange { min, max }),
        None => Err(ArgError::new(
            format!("--ratings {text}"),
            "a rating range is MIN-MAX, such as 1300-1700",
        )),
    }
}

/// The table `table create` asks for, checked before anything is sent.
fn table_spec(command: &TableCommand) -> Result<Option<TableSpec>, ArgError> {
    let TableCommand::Create {
        people,
        preset,
        pace,
        wait,
        overdue,
        level,
        rated,
        ratings,
        fill_within,
        unfilled,
    } = command
    else {
        return Ok(None);
    };
    let unfilled = match unfilled.as_str() {
        "computers" => WhenUnfilled::Computers,
        "close" => WhenUnfilled::Close,
        other => {
            return Err(ArgError::new(
                format!("--unfilled {other}"),
                "an unfilled table starts with computers, or closes: computers or close",
            ));
        }
    };
    let spec = TableSpec {
        preset: *preset,
        pace: parse_pace(pace, *wait, overdue)?,
        people: *people,
        level: *level,
        rated: *rated,
        ratings: ratings.as_deref().map(parse_ratings).transpose()?,
        wait_minutes: *fill_within,
        unfilled,
    };
    spec.check().map_err(|refusal| {
        let option = match refusal {
            Refusal::TablePeople { .. } => "--people",
            Refusal::TableWait { .. } => "--fill-within",
            Refusal::RatingRange { .. } => "--ratings",
            Refusal::TableLevel => "--level",
            Refusal::Wait { .. } => "--wait",
            Refusal::Days { .. } => "--pace",
            _ => "table create",
        };
        ArgError::new(option, refusal.to_string())
    })?;
    Ok(Some(spec))
}

/// A table as a JSON line says it.
fn table_line(view: &TableView) -> serde_json::Value {
    json!({
        "table": view.id,
        "host": view.host,
        "seated": view.seated,
        "people": view.spec.people,
        "fill_by_ms": view.fill_by_ms,
        "game": view.game,
    })
}

/// `play`: the seat of `kingdom` in `id`, played by a computer of `level` until the game ends.
async fn play(
    args: &OnlineArgs,
    id: &GameId,
    kingdom: Kingdom,
    level: Level,
) -> Result<(), Failure> {
    let mut engine = Some(Engine::new(TableSize::entries_log2(18)));
    // The client crate's reconnection policy, as the window's and the page's.
    let mut backoff = Backoff::seeded_now();
    loop {
        match play_connected(args, id, kingdom, level, &mut engine, &mut backoff).await {
            Ok(()) => return Ok(()),
            // Refusals are final (not your seat, no such game); a lost server is waited for.
            Err(e @ ClientError::Refused { .. }) => return Err(Failure::Other(client_failure(&e))),
            Err(e) => {
                let wait = backoff.next_wait();
                let _ = writeln!(
                    std::io::stderr(),
                    "qiguo: {e}; connecting again in {:.1} s",
                    wait.as_secs_f64()
                );
                tokio::time::sleep(wait).await;
            }
        }
    }
}

async fn play_connected(
    args: &OnlineArgs,
    id: &GameId,
    kingdom: Kingdom,
    level: Level,
    engine: &mut Option<Engine>,
    backoff: &mut Backoff,
) -> Result<(), ClientError> {
    let mut client = connect(&args.server, &args.name, args.trust())
        .await
        .map_err(ClientError::Connection)?;
    // Signed in: a later loss starts the waits from the shortest again.
    backoff.reset();
    let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await? else {
        return Err(ClientError::Protocol("not a game".into()));
    };
    let seat = view
        .record
        .seats
        .player(kingdom)
        .filter(|&s| view.seats.get(usize::from(s)).is_some_and(|s| s.yours))
        .ok_or_else(|| {
            let refusal = Refusal::SeatNotOpen { kingdom };
            ClientError::Refused {
                why: format!("the seat of {kingdom} is not yours"),
                refusal,
            }
        })?;
    let mut game = view
        .record
        .replay()
        .map_err(|e| ClientError::Protocol(e.to_string()))?;
    loop {
        let pos = game.position();
        if pos.is_over() {
            print_line(&json!({ "game": id, "over": true, "moves": game.len() }));
            return Ok(());
        }
        if pos.player_of(pos.to_move()) == seat {
            let ply = game.len() as u32;
            let pos = pos.clone();
            let mut searcher = engine
                .take()
                .unwrap_or_else(|| Engine::new(TableSize::entries_log2(18)));
            let (searcher, best) = tokio::task::spawn_blocking(move || {
                let limits = Limits {
                    movetime: Some(level.movetime()),
                    ..Limits::default()
                };
                let best = searcher
                    .search(&pos, level, &limits, u64::from(ply))
                    .map(|r| r.best);
                (searcher, best)
            })
            .await
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
            *engine = Some(searcher);
            let Some(mv) = best else {
                continue;
            };
            let asked = client
                .ask(Ask::Move {
                    game: id.clone(),
                    ply,
                    mv: mv.to_string(),
                })
                .await;
            match asked {
                Ok(_) => print_line(&json!({ "game": id, "ply": ply, "move": mv.to_string() })),
                // The game moved on meanwhile (a take-back, another server): read it afresh.
                Err(ClientError::Refused { why, .. }) => {
                    return Err(ClientError::Protocol(format!("move refused: {why}")));
                }
                Err(e) => return Err(e),
            }
            // The move comes back as an event, like everyone's.
            while game.len() <= ply as usize {
                apply(&mut client, id, &mut game).await?;
            }
            continue;
        }
        // Everything that happened, in order, until it is this seat's turn again.
        apply(&mut client, id, &mut game).await?;
    }
}

/// Applies the next event of game `id` to `game`.
async fn apply(client: &mut Client, id: &GameId, game: &mut Game) -> Result<(), ClientError> {
    match client.next_event().await? {
        Event::Moved {
            game: g,
            ply,
            mv,
            by,
            ..
        } if g == *id && ply as usize == game.len() => {
            let mv: Move =
                notation::parse_move(&mv).map_err(|e| ClientError::Protocol(e.to_string()))?;
            let played = if by == MadeBy::OverduePass {
                game.pass_overdue().map(|_| ())
            } else {
                game.play(mv).map(|_| ())
            };
            played.map_err(|e| ClientError::Protocol(e.to_string()))?;
        }
        Event::TakenBack { game: g, ply, .. } if g == *id => {
            while game.len() > ply as usize {
                game.undo();
            }
        }
        Event::Stale { game: g } if g == *id => {
            let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await? else {
                return Err(ClientError::Protocol("not a game".into()));
            };
            *game = view
                .record
                .replay()
                .map_err(|e| ClientError::Protocol(e.to_string()))?;
        }
        _ => {}
    }
    Ok(())
}
