//! The tournaments' keeper: on every server, each [`TOURNAMENTS_EVERY`], it scores the
//! tournaments' games that ended, begins a Swiss's rounds and seats an arena's tables as people
//! wait, cuts what ran past its time, finishes what is over (and sets the next of a series), and
//! tells its own players when standings changed. Each step is one claim in the database.

// The slice split in two, requests and keeper: the parent's types and imports are these too.
use super::*;

impl Tournaments {
    /// Every [`TOURNAMENTS_EVERY`]: the tournaments kept.
    pub(in crate::hub) async fn keeper(tournaments: std::sync::Weak<Tournaments>) {
        let mut tick = tokio::time::interval(TOURNAMENTS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(tournaments) = tournaments.upgrade() else {
                return;
            };
            if tournaments.core.is_closing() {
                return;
            }
            tournaments.keep().await;
        }
    }

    /// One round of the keeper's work: scores, then each running tournament's due step, then
    /// the news of changed standings.
    pub(in crate::hub) async fn keep(&self) {
        if let Err(e) = self.score_ended().await {
            note!(self.log, WARN, "tournament games not scored", why = e);
        }
        let now = self.store.now();
        match self.store.running_tournaments(now).await {
            Ok(running) => {
                for t in running {
                    if let Err(e) = self.step(&t, now).await {
                        note!(
                            self.log,
                            WARN,
                            "tournament not kept",
                            tournament = t.id,
                            why = e
                        );
                    }
                }
            }
            Err(e) => note!(self.log, WARN, "tournaments not read", why = e),
        }
        if let Err(e) = self.tell_changed().await {
            note!(self.log, WARN, "standings not told", why = e);
        }
    }

    /// Scores the tournaments' games that ended (on any server), each once.
    async fn score_ended(&self) -> Result<(), StoreError> {
        let mut rows: HashMap<String, TournamentRow> = HashMap::new();
        for (id, game) in self.store.games_to_score(200).await? {
            if !rows.contains_key(&id) {
                rows.insert(id.clone(), self.store.tournament(&id).await?);
            }
            let t = &rows[&id];
            let stored = self.store.load_game(&game).await?;
            let results = scored(&stored);
            if self.store.score_game(t, &game, &results).await? {
                note!(
                    self.log,
                    INFO,
                    "tournament game scored",
                    tournament = t.id,
                    game = game.0,
                    people = results.len()
                );
            }
        }
        Ok(())
    }

    /// What tournament `t` needs at `now`.
    async fn step(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        match t.format {
            TournamentFormat::Swiss => self.step_swiss(t, now).await,
            TournamentFormat::Arena => self.step_arena(t, now).await,
        }
    }

    async fn step_swiss(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        if t.round > 0 {
            let games = self.store.round_games(&t.id, t.round).await?;
            if t.round_ends_ms.is_some_and(|end| now >= end) {
                for (game, _, finished) in &games {
                    if !finished {
                        self.cut(t, game).await?;
                    }
                }
            }
            if games.iter().any(|(_, scored, _)| !scored) {
                return Ok(());
            }
            if t.round >= t.rounds {
                return self.finish(t).await;
            }
        }
        self.begin_swiss_round(t, now).await
    }

    /// Begins the next round of Swiss `t`: everyone still in at tables by standing.
    async fn begin_swiss_round(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let round = t.round + 1;
        let lines = self.standings(t).await?;
        let mut order: Vec<(PlayerId, String, i64)> = Vec::new();
        for (e, _) in lines.into_iter().filter(|(e, _)| !e.left) {
            // The first round by rating; later ones by the standings.
            let rating = if round == 1 {
                let family = RatingFamily::of(&t.play.pace.pace());
                rated::shown(self.core.rating_held(&e.player, family).await?).points
            } else {
                0
            };
            order.push((e.player, e.name, rating));
        }
        if round == 1 {
            order.sort_by_key(|(_, _, rating)| std::cmp::Reverse(*rating));
        }
        let mut met: HashMap<(PlayerId, PlayerId), u32> = HashMap::new();
        for (a, b) in self.store.meetings(&t.id).await? {
            *met.entry(pair(&a, &b)).or_default() += 1;
        }
        let names: HashMap<PlayerId, String> = order
            .iter()
            .map(|(p, name, _)| (p.clone(), name.clone()))
            .collect();
        let ids: Vec<PlayerId> = order.into_iter().map(|(p, ..)| p).collect();
        let tables = self.tables(t, swiss_tables(&ids, &met), &names)?;
        let ends = now + i64::from(round_days(t.play.pace)) * DAY_MS;
        let Some(made) = self
            .store
            .begin_round(t, round, Some(ends), &tables)
            .await?
        else {
            return Ok(());
        };
        note!(
            self.log,
            INFO,
            "tournament round begun",
            tournament = t.id,
            round = round,
            tables = made.len(),
            people = ids.len()
        );
        if round == 1 {
            self.next_of_series(t).await;
        }
        if ids.is_empty() {
            // Nobody came: over at once.
            return self.finish(t).await;
        }
        self.tell_seated(t, u32::from(round), &made, &tables);
        Ok(())
    }

    async fn step_arena(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let ends = t.arena_ends_ms();
        if t.round == 0 {
            if self.store.begin_round(t, 1, None, &[]).await?.is_some() {
                note!(self.log, INFO, "arena begun", tournament = t.id);
                self.next_of_series(t).await;
            }
            return Ok(());
        }
        if now < ends {
            return self.seat_arena(t, now).await;
        }
        let unscored = self.store.tournament_unscored(&t.id).await?;
        if unscored.is_empty() {
            return self.finish(t).await;
        }
        if now >= ends + ARENA_CUT_AFTER_MS {
            for game in &unscored {
                self.cut(t, game).await?;
            }
        }
        Ok(())
    }

    /// Seats the people of arena `t` waiting for a table and connected, as many tables as can
    /// start now.
    async fn seat_arena(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let entrants = self.store.entrants(&t.id).await?;
        let mut names = HashMap::new();
        let waiting: Vec<Waiting<PlayerId>> = entrants
            .into_iter()
            .filter(|e| !e.left && e.game.is_none())
            .filter(|e| self.core.connected(&e.player, e.online_ms, now))
            .filter_map(|e| {
                let since_ms = e.free_ms?;
                names.insert(e.player.clone(), e.name);
                Some(Waiting {
                    player: e.player,
                    since_ms,
                    points: e.points,
                })
            })
            .collect();
        let groups = arena_tables(&waiting, now);
        if groups.is_empty() {
            return Ok(());
        }
        let tables = self.tables(t, groups, &names)?;
        let Some(made) = self.store.seat_arena(t, &tables).await? else {
            // Another server seated some of them meanwhile: looked at again next time.
            return Ok(());
        };
        let people: usize = tables.iter().map(|(_, p)| p.len()).sum();
        note!(
            self.log,
            INFO,
            "arena tables seated",
            tournament = t.id,
            tables = made.len(),
            people = people
        );
        self.tell_seated(t, 0, &made, &tables);
        Ok(())
    }

    /// The games for `groups` of `t` (each group's people in a drawn seat order, computers of
    /// its level in the other kingdoms).
    fn tables(
        &self,
        t: &TournamentRow,
        groups: Vec<Vec<PlayerId>>,
        names: &HashMap<PlayerId, String>,
    ) -> Result<Vec<TournamentTable>, StoreError> {
        let spec = TableSpec {
            preset: t.play.preset,
            pace: t.play.pace.pace(),
            people: 7,
            level: t.play.level,
            rated: t.play.rated,
            ratings: None,
            wait_minutes: 1,
            unfilled: WhenUnfilled::Computers,
        };
        let mut tables = Vec::with_capacity(groups.len());
        for mut group in groups {
            // Who moves first is drawn, not the leader every round.
            shuffle(&mut group)?;
            let seated: Vec<(PlayerId, String)> = group
                .iter()
                .map(|p| (p.clone(), names.get(p).cloned().unwrap_or_default()))
                .collect();
            tables.push((table_game(&spec, &seated), group));
        }
        Ok(tables)
    }

    /// Tells each person seated at `made` (the games of `tables`) where.
    fn tell_seated(
        &self,
        t: &TournamentRow,
        round: u32,
        made: &[crate::store::CreatedGame],
        tables: &[TournamentTable],
    ) {
        for (created, (_, people)) in made.iter().zip(tables) {
            for player in people {
                self.core.tell_player(
                    player,
                    Event::TournamentSeated {
                        tournament: t.name.clone(),
                        round,
                        game: created.id.clone(),
                    },
                );
            }
        }
    }

    /// Ends unfinished game `game` of `t` at its deadline, as by agreement; the servers holding
    /// it read it again.
    async fn cut(&self, t: &TournamentRow, game: &GameId) -> Result<(), StoreError> {
        if self.store.cut_game(game).await? {
            note!(
                self.log,
                INFO,
                "tournament game cut at its deadline",
                tournament = t.id,
                game = game.0
            );
            self.core.refresh(game).await;
            self.core.ended(game);
        }
        Ok(())
    }

    /// Marks `t` over, once.
    async fn finish(&self, t: &TournamentRow) -> Result<(), StoreError> {
        if self.store.finish_tournament(&t.id).await? {
            note!(self.log, INFO, "tournament over", tournament = t.id);
        }
        Ok(())
    }

    /// The next of the operator's series `t` (every `repeat_days`), made when `t` begins.
    async fn next_of_series(&self, t: &TournamentRow) {
        let Some(days) = t.repeat_days.filter(|&d| d > 0) else {
            return;
        };
        let mut spec = t.spec();
        spec.starts_ms = t.starts_ms + i64::from(days) * DAY_MS;
        spec.name = series_name(&t.name, spec.starts_ms);
        match self
            .store
            .create_tournament(&spec, None, None, Some(days))
            .await
        {
            Ok(next) => note!(
                self.log,
                INFO,
                "next of a series set",
                tournament = next.id,
                after = t.id,
                starts_ms = next.starts_ms
            ),
            // Another server made it.
            Err(StoreError::Refused(Refusal::TournamentNameTaken)) => {}
            Err(e) => note!(
                self.log,
                WARN,
                "next of a series not set",
                after = t.id,
                why = e
            ),
        }
    }

    /// Tells the players connected here of each tournament whose standings changed since this
    /// server last looked (at most once a keeper's round).
    async fn tell_changed(&self) -> Result<(), StoreError> {
        let since = *self.told_at.lock().unwrap_or_else(|e| e.into_inner());
        let changed = self.store.tournaments_changed(since).await?;
        let Some(latest) = changed.iter().map(|t| t.changed_ms).max() else {
            return Ok(());
        };
        for t in &changed {
            let lines = self.standings(t).await?;
            let leaders: Vec<Standing> = lines
                .iter()
                .take(STANDINGS_TOLD)
                .map(|(_, s)| s.clone())
                .collect();
            let mut told = HashSet::new();
            for (e, line) in &lines {
                if !told.insert(e.player.clone()) {
                    continue;
                }
                self.core.tell_here(
                    &e.player,
                    Event::Standings(StandingsNews {
                        tournament: t.name.clone(),
                        state: t.state(),
                        round: t.round,
                        leaders: leaders.clone(),
                        you: Some(line.clone()),
                    }),
                );
            }
        }
        *self.told_at.lock().unwrap_or_else(|e| e.into_inner()) = latest;
        Ok(())
    }
}

/// The name of a series' tournament starting at `starts_ms`: its first's name without an
/// earlier date, and the new date (UTC), within the longest name.
fn series_name(name: &str, starts_ms: i64) -> String {
    let base = match name.rsplit_once(' ') {
        Some((base, date)) if date.len() == 10 && date.as_bytes()[4] == b'-' => base,
        _ => name,
    };
    let (y, m, d) = qiguo_protocol::calendar::civil(qiguo_protocol::calendar::day_of(starts_ms));
    let date = format!(" {y:04}-{m:02}-{d:02}");
    let room = qiguo_protocol::tournaments::MAX_TOURNAMENT_NAME_CHARS - date.chars().count();
    let base: String = base.chars().take(room).collect();
    format!("{}{date}", base.trim_end())
}

/// The results of finished game `stored` for its people: each one's place and points by place
/// (a leaver placed where they left), and whether it is good for an arena's streak.
fn scored(stored: &StoredGame) -> Vec<Scored> {
    let sides = rated::sides(stored);
    let places: Vec<(u8, u8)> = sides.iter().map(|s| (s.seat, s.place)).collect();
    let points = place_points(&places);
    let seating = stored.game.start_position().seats();
    let mut turns = [0u32; 8];
    for report in stored.game.reports() {
        if let Some(seat) = seating.player(report.mover)
            && let Some(n) = turns.get_mut(usize::from(seat))
        {
            *n += 1;
        }
    }
    sides
        .iter()
        .zip(points)
        .filter_map(|(side, points)| {
            let Who::Person(player) = &side.who else {
                return None;
            };
            let seat_turns = turns.get(usize::from(side.seat)).copied().unwrap_or(0);
            let own = (f64::from(seat_turns) * side.weight).round() as u32;
            Some(Scored {
                player: player.clone(),
                place: side.place,
                points,
                good: points >= GOOD_GAME_HALVES && own >= STREAK_MOVES,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_is_named_by_its_date() {
        // 2026-12-07 18:00 UTC.
        let at = 1_796_666_400_000;
        assert_eq!(series_name("Weekly Arena", at), "Weekly Arena 2026-12-07");
        assert_eq!(
            series_name("Weekly Arena 2026-11-30", at),
            "Weekly Arena 2026-12-07"
        );
        let long = "x".repeat(40);
        let named = series_name(&long, at);
        assert_eq!(named.chars().count(), 40);
        assert!(named.ends_with(" 2026-12-07"));
    }
}
