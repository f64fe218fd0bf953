//! Holidays through a real server, with a clock the test moves: a player away stops their
//! correspondence clock across a restart, the others are told, the stand-in plays only once the
//! time is up after the return; the yearly allowance, early returns and bad dates.

use std::time::Duration;

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Level};
use qiguo_server::protocol::calendar::{DAY_MS, date_text, day_of, parse_date, start_of};
use qiguo_server::protocol::{Answer, Ask, Event, Holidays, Refusal};
use qiguo_server::{Pace, Store, WhenOverdue};
use qiguo_testkit::TempDir;

const HOUR: i64 = 3_600_000;

async fn away(client: &mut Client, until: Option<String>) -> Result<Holidays, Refusal> {
    match client.ask(Ask::Away { until }).await {
        Ok(Answer::Holidays(h)) => Ok(h),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.refusal().cloned().expect("a refusal")),
    }
}

/// The next `away` event `table` hears, within [`PATIENCE`]: (seat, until, deadline).
async fn hears_away(table: &mut Table) -> (u8, Option<String>, Option<i64>) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::Away {
                seat,
                until,
                deadline_ms,
                ..
            } = table.next().await.unwrap()
            {
                return (seat, until, deadline_ms);
            }
        }
    })
    .await
    .expect("the table is told")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_holiday_stops_the_clock_across_a_restart() {
    let dir = TempDir::new("holidays");
    let db = sqlite(&dir);
    let day0 = parse_date("2027-03-01").unwrap();
    let (clock, now) = hand_clock(start_of(day0) + 10 * HOUR);
    let lines = Lines::default();
    let server = start(&db, Some(clock.clone()), &lines).await;
    let pace = Pace::Correspondence {
        days: 1,
        overdue: WhenOverdue::StandIn,
    };
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let (mut bo, me) = newcomer(&server.url(), "Bo").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), pace)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    bo.ask(Ask::Join {
        code,
        kingdom: Kingdom::Chu,
    })
    .await
    .unwrap();
    ann.play(|m| m[0]).await;
    // Bo's turn, one day to play it. He goes away for four days, today included.
    let holidays = away(&mut bo, Some(date_text(day0 + 3))).await.unwrap();
    assert_eq!(
        holidays,
        Holidays {
            away_until: Some("2027-03-04".into()),
            allowance: 14,
            year: 2027,
            used: 4,
        }
    );
    // Ann is told, with Bo's new deadline: his day runs from his return.
    let back = start_of(day0 + 4);
    assert_eq!(
        hears_away(&mut ann).await,
        (1, Some("2027-03-04".into()), Some(back + DAY_MS))
    );
    bo.close().await;
    // The server restarts three days later: Bo is still away; nobody plays for him.
    drop(ann);
    server.shutdown(Duration::from_secs(5)).await;
    drop(server);
    *now.lock().unwrap() += 3 * DAY_MS;
    let server = start(&db, Some(clock.clone()), &lines).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let store = Store::open(&db).await.unwrap();
    assert_eq!(store.load_game(&id).await.unwrap().game.len(), 1);
    // Back, and a day more: now the stand-in plays for him.
    *now.lock().unwrap() = back + DAY_MS + HOUR;
    let mut bo = returning(&server.url(), &me).await;
    let view = match bo.ask(Ask::Open { game: id.clone() }).await.unwrap() {
        Answer::Game(view) => view,
        other => panic!("{other:?}"),
    };
    assert_eq!(view.seats[1].away_until, None);
    assert_eq!(view.deadline_ms, Some(back + DAY_MS));
    bo.close().await;
    tokio::time::timeout(PATIENCE, async {
        loop {
            let stored = store.load_game(&id).await.unwrap();
            if stored.game.len() > 1 {
                assert_eq!(stored.stand_ins, [1]);
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
    .await
    .expect("the stand-in plays once his time is up");
    // The allowance: 14 days a year, 4 taken.
    let mut bo = returning(&server.url(), &me).await;
    let today = day_of(*now.lock().unwrap());
    assert_eq!(
        away(&mut bo, Some(date_text(today + 10))).await,
        Err(Refusal::HolidayDays {
            year: 2027,
            asked: 11,
            left: 10
        })
    );
    // Away for six days, back the next day: one day taken.
    assert_eq!(
        away(&mut bo, Some(date_text(today + 5)))
            .await
            .unwrap()
            .used,
        10
    );
    *now.lock().unwrap() += DAY_MS;
    let holidays = away(&mut bo, None).await.unwrap();
    assert_eq!((holidays.away_until, holidays.used), (None, 5));
    // Days past, and what is no date, are refused.
    for bad in [date_text(today), "2027-02-30".into(), "tomorrow".into()] {
        assert_eq!(
            away(&mut bo, Some(bad.clone())).await,
            Err(Refusal::BadDate { date: bad })
        );
    }
    assert!(lines.contains("until=2027-03-04"));
}
