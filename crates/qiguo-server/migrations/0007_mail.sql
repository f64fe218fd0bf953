-- E-mail to players who are away: their address (confirmed through a link before anything else
-- is sent), the one-time tokens of the links the e-mails carry (only their hashes), the further
-- keys of players signed in on a device through such a link, and the outbox the servers send.

-- The language a player reads (`en`, `sv`, `zh`), as their client last said.
ALTER TABLE players ADD COLUMN language TEXT;

CREATE TABLE mail_addresses (
    player          TEXT PRIMARY KEY REFERENCES players (id),
    address         TEXT NOT NULL,
    given_ms        BIGINT NOT NULL,
    -- When the link sent to it was followed; NULL until then (only the confirmation is sent).
    confirmed_ms    BIGINT,
    -- 1: one daily digest rather than an e-mail a turn.
    digest          BIGINT NOT NULL DEFAULT 0,
    -- When the last digest was sent.
    digest_sent_ms  BIGINT
);

-- Links' one-time tokens: `confirm` (an address, a few days), `signin` (a device, a day, once),
-- `unsubscribe` (no more e-mail, a year).
CREATE TABLE mail_tokens (
    hash        TEXT PRIMARY KEY,
    player      TEXT NOT NULL REFERENCES players (id),
    purpose     TEXT NOT NULL,
    address     TEXT,
    game_id     TEXT,
    made_ms     BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL,
    used_ms     BIGINT
);

CREATE INDEX mail_tokens_by_expiry ON mail_tokens (expires_ms);

-- A player's keys beyond the first (players.key_hash): one per device signed in by a link.
CREATE TABLE player_keys (
    key_hash  TEXT PRIMARY KEY,
    player    TEXT NOT NULL REFERENCES players (id),
    made_ms   BIGINT NOT NULL
);

CREATE INDEX player_keys_by_player ON player_keys (player);

-- The e-mails to send. One row a kind, player, game and move number (`game_id` '' and `ply` a
-- time for those of no game), so that one turn is written about once. A move writes its rows in
-- its own transaction; a server claims a row for a while before sending it (on PostgreSQL,
-- skipping rows another holds), and marks it sent, or given up, afterwards.
CREATE TABLE mail_outbox (
    kind           TEXT NOT NULL,
    player         TEXT NOT NULL REFERENCES players (id),
    game_id        TEXT NOT NULL,
    ply            BIGINT NOT NULL,
    address        TEXT,
    made_ms        BIGINT NOT NULL,
    not_before_ms  BIGINT NOT NULL,
    attempts       BIGINT NOT NULL DEFAULT 0,
    claimed_until_ms BIGINT,
    done_ms        BIGINT,
    -- sent, dropped (no longer true: the turn was played, the player was there), given up.
    outcome        TEXT,
    last_error     TEXT,
    PRIMARY KEY (kind, player, game_id, ply)
);

CREATE INDEX mail_outbox_due ON mail_outbox (not_before_ms) WHERE done_ms IS NULL;
CREATE INDEX mail_outbox_by_player ON mail_outbox (player, made_ms);
CREATE INDEX mail_outbox_by_address ON mail_outbox (address, made_ms);

-- When a player was last signed in on some server, and which (noted every few seconds while they
-- are), so that every other server can tell whether they are away; a server knows its own.
ALTER TABLE players ADD COLUMN online_ms BIGINT;
ALTER TABLE players ADD COLUMN online_server TEXT;
