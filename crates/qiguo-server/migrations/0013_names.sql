-- Public names are unique on a server as folded (case and look-alike characters, see
-- qiguo_protocol::model::fold_name): a rating belongs to one name. The players kept before
-- this are folded when a server next starts (a later player whose name folds as an earlier
-- one's is renamed "NAME 2", …, and the log says so).
ALTER TABLE players ADD COLUMN folded TEXT;
CREATE UNIQUE INDEX players_folded ON players (folded);
