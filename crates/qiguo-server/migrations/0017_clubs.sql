-- Clubs: people who play together again. A club's name is unique as folded (as players' names
-- are: `folded`, held by a unique index); it is open (anyone joins) or by request. Its members
-- each have a role: the owner (one, who made it), organisers, members, and those asking to
-- join a club by request (not members until an organiser lets them in).
CREATE TABLE clubs (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    folded       TEXT NOT NULL,
    description  TEXT NOT NULL,
    -- 1: anyone joins; 0: by request.
    open         BIGINT NOT NULL,
    owner        TEXT NOT NULL REFERENCES players (id),
    created_ms   BIGINT NOT NULL
);

CREATE UNIQUE INDEX clubs_folded ON clubs (folded);
CREATE INDEX clubs_by_owner ON clubs (owner);

CREATE TABLE club_members (
    club      TEXT NOT NULL REFERENCES clubs (id),
    player    TEXT NOT NULL REFERENCES players (id),
    -- owner, organiser, member or asking.
    role      TEXT NOT NULL,
    -- 1: told of the club's news (live, and on their devices).
    news      BIGINT NOT NULL DEFAULT 1,
    since_ms  BIGINT NOT NULL,
    PRIMARY KEY (club, player)
);

CREATE INDEX club_members_by_player ON club_members (player);

-- The club's news, posted by its organisers.
CREATE TABLE club_news (
    id         TEXT PRIMARY KEY,
    club       TEXT NOT NULL REFERENCES clubs (id),
    by_player  TEXT NOT NULL REFERENCES players (id),
    at_ms      BIGINT NOT NULL,
    text       TEXT NOT NULL
);

CREATE INDEX club_news_by_club ON club_news (club, at_ms);
