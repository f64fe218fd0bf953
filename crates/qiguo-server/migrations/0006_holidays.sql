-- Players' holidays: whole days (UTC, as days since 1970), the first and the last inclusive. A
-- player has at most one that has not ended; the days of each calendar year count against the
-- server's allowance. A correspondence clock stops while its player is away.
CREATE TABLE holidays (
    player     TEXT NOT NULL REFERENCES players (id),
    first_day  BIGINT NOT NULL,
    last_day   BIGINT NOT NULL,
    PRIMARY KEY (player, first_day)
);

CREATE INDEX holidays_by_end ON holidays (player, last_day);
