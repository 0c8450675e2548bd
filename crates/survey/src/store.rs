//! The survey database: one SQLite file with the table `games` (one row per game, see
//! [`GameRow`]) and `survey_meta` (the schema version).
//!
//! Every write is one transaction, committed with SQLite's rollback journal and full
//! synchronisation: a process killed at any moment leaves the database as it was after the
//! last commit (a finished game is never lost, a half-written one never seen). Only one
//! process writes (the survey's driver); readers (`--report`) may look at any time.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::error::{Error, Result};
use crate::family::{quote, Entry};
use crate::row::{GameRow, Status};

/// The version of the tables this code writes (kept in `survey_meta`).
///
/// Version 2: `shift` follows the named games' convention, G(n) = G_equals(n + shift) (the
/// sign of `grundy heap`'s `shift`). Version 1 stored its negative: a writable open turns a
/// version-1 table into version 2 (one transaction), a read-only open negates as it reads.
pub const SCHEMA_VERSION: u32 = 2;

/// The table's columns in order (the CSV header).
pub const COLUMNS: [&str; 15] = [
    "rule",
    "status",
    "preperiod",
    "period",
    "proven",
    "computed_upto",
    "max_value",
    "rare_values",
    "equals",
    "seconds",
    "engine",
    "shift",
    "saltus",
    "family",
    "error",
];

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    rule TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('periodic', 'unknown', 'equivalent', 'error')),
    preperiod INTEGER,
    period INTEGER,
    proven INTEGER,
    computed_upto INTEGER,
    max_value INTEGER,
    rare_values INTEGER,
    equals TEXT,
    seconds REAL,
    engine TEXT,
    shift INTEGER,
    saltus INTEGER,
    family TEXT,
    error TEXT
);
CREATE TABLE IF NOT EXISTS survey_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// An open survey database.
pub struct Db {
    conn: Connection,
    path: PathBuf,
    /// A version-1 table opened read-only: its `shift` has the old sign, negated on reading.
    old_shift: bool,
}

fn db_error(path: &Path, e: rusqlite::Error) -> Error {
    let text = e.to_string().replace('\n', " ");
    let p = quote(&path.display().to_string());
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::NotADatabase
                    | rusqlite::ErrorCode::DatabaseCorrupt
                    | rusqlite::ErrorCode::CannotOpen
                    | rusqlite::ErrorCode::ReadOnly
                    | rusqlite::ErrorCode::PermissionDenied
            ) =>
        {
            Error::Input(format!("survey database {p}: {text}"))
        }
        _ => Error::Io(format!("survey database {p}: {text}")),
    }
}

fn to_i64(v: Option<u64>) -> Option<i64> {
    v.map(|x| i64::try_from(x).unwrap_or(i64::MAX))
}

fn to_u64(v: Option<i64>) -> Option<u64> {
    v.map(|x| u64::try_from(x).unwrap_or(0))
}

impl Db {
    /// Opens the database at `path`, creating it (and its tables) when it does not exist.
    /// A file that is not a survey database, or is damaged, is refused ([`Error::Input`]).
    pub fn open(path: &Path) -> Result<Db> {
        Db::open_with(path, true)
    }

    /// Opens an existing database read-only, for reports; a missing file, or one without the
    /// table `games`, is refused.
    pub fn open_existing(path: &Path) -> Result<Db> {
        if !path.exists() {
            return Err(Error::Input(format!(
                "survey database {}: no such file",
                quote(&path.display().to_string())
            )));
        }
        Db::open_with(path, false)
    }

    fn open_with(path: &Path, create: bool) -> Result<Db> {
        let p = quote(&path.display().to_string());
        if path.is_dir() {
            return Err(Error::Input(format!("survey database {p}: is a directory")));
        }
        // A report only reads: the survey's driver stays the only writer.
        let flags = if create {
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        let conn = Connection::open_with_flags(path, flags).map_err(|e| db_error(path, e))?;
        let err = |e| db_error(path, e);
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(err)?;
        if create {
            // Full durability in the rollback journal: a commit is on disk when it returns.
            conn.execute_batch("PRAGMA synchronous = FULL;")
                .map_err(err)?;
        }
        // A damaged file is refused before anything is written to it.
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(err)?;
        if check != "ok" {
            return Err(Error::Input(format!(
                "survey database {p} is damaged: {}",
                check.replace('\n', " ")
            )));
        }
        // An existing table `games` must be ours.
        let columns: Vec<String> = {
            let mut st = conn
                .prepare("SELECT name FROM pragma_table_info('games')")
                .map_err(err)?;
            let rows = st.query_map([], |r| r.get(0)).map_err(err)?;
            rows.collect::<std::result::Result<_, _>>().map_err(err)?
        };
        if !columns.is_empty() {
            if let Some(missing) = COLUMNS.iter().find(|c| !columns.iter().any(|x| x == *c)) {
                return Err(Error::Input(format!(
                    "{p} is not a grundy survey database (its table games has no column {missing})"
                )));
            }
        }
        // A table written before version 2 holds `shift` with the opposite sign.
        let version: Option<String> = conn
            .query_row(
                "SELECT value FROM survey_meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .optional()
            .unwrap_or(None);
        let old_shift = !columns.is_empty() && version.as_deref().is_none_or(|v| v == "1");
        if !create {
            if columns.is_empty() {
                return Err(Error::Input(format!(
                    "{p} is not a grundy survey database (it has no table games)"
                )));
            }
            return Ok(Db {
                conn,
                path: path.to_path_buf(),
                old_shift,
            });
        }
        conn.execute_batch(SCHEMA).map_err(err)?;
        if old_shift {
            conn.execute_batch(
                "BEGIN;
                 UPDATE games SET shift = -shift WHERE shift IS NOT NULL;
                 INSERT OR REPLACE INTO survey_meta (key, value) VALUES ('schema_version', '2');
                 COMMIT;",
            )
            .map_err(err)?;
        }
        conn.execute(
            "INSERT OR IGNORE INTO survey_meta (key, value) VALUES ('schema_version', ?1)",
            params![SCHEMA_VERSION.to_string()],
        )
        .map_err(err)?;
        Ok(Db {
            conn,
            path: path.to_path_buf(),
            old_shift: false,
        })
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        |e| db_error(&self.path, e)
    }

    /// The row of `rule`, if the table has one.
    pub fn get(&self, rule: &str) -> Result<Option<GameRow>> {
        let sql = format!("SELECT {} FROM games WHERE rule = ?1", COLUMNS.join(", "));
        self.conn
            .query_row(&sql, params![rule], read_row)
            .optional()
            .map_err(self.err())?
            .transpose()
            .map(|r| r.map(|r| self.current(r)))
    }

    /// A row as version [`SCHEMA_VERSION`] reads it (`shift` negated from a version-1 table).
    fn current(&self, mut row: GameRow) -> GameRow {
        if self.old_shift {
            row.shift = row.shift.map(|s| -s);
        }
        row
    }

    /// Every row, ordered by rule.
    pub fn rows(&self) -> Result<Vec<GameRow>> {
        let sql = format!("SELECT {} FROM games ORDER BY rule", COLUMNS.join(", "));
        let mut st = self.conn.prepare(&sql).map_err(self.err())?;
        let rows = st.query_map([], read_row).map_err(self.err())?;
        let mut out = Vec::new();
        for r in rows {
            out.push(self.current(r.map_err(self.err())??));
        }
        Ok(out)
    }

    /// Writes `rows` (replacing the rows of the same rules) in one transaction.
    pub fn write_all(&mut self, rows: &[GameRow]) -> Result<()> {
        let path = self.path.clone();
        let err = |e| db_error(&path, e);
        let tx = self.conn.transaction().map_err(err)?;
        {
            let sql = format!(
                "INSERT INTO games ({}) VALUES ({}) ON CONFLICT(rule) DO UPDATE SET {}",
                COLUMNS.join(", "),
                (1..=COLUMNS.len())
                    .map(|i| format!("?{i}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                COLUMNS[1..]
                    .iter()
                    .map(|c| format!("{c} = excluded.{c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let mut st = tx.prepare_cached(&sql).map_err(err)?;
            for r in rows {
                st.execute(params![
                    r.rule,
                    r.status.as_str(),
                    to_i64(r.preperiod),
                    to_i64(r.period),
                    r.proven,
                    to_i64(r.computed_upto),
                    to_i64(r.max_value),
                    to_i64(r.rare_values),
                    r.equals,
                    r.seconds,
                    r.engine,
                    r.shift,
                    r.saltus,
                    r.family,
                    r.error,
                ])
                .map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }

    /// Writes one row in its own transaction.
    pub fn write(&mut self, row: &GameRow) -> Result<()> {
        self.write_all(std::slice::from_ref(row))
    }

    /// What a survey of `entries` to `upto` has to do: records the equivalent entries the
    /// table lacks (one transaction) and returns the rules still to solve, in order, with how
    /// many entries were finished already.
    pub fn plan(&mut self, entries: &[Entry], upto: u64, family: &str) -> Result<Plan> {
        let mut new_equivalent = Vec::new();
        let mut plan = Plan::default();
        for e in entries {
            let row = self.get(&e.rule)?;
            if let Some(eq) = &e.equals {
                plan.equivalent += 1;
                if row.is_none() {
                    let mut r = GameRow::new(&e.rule, Status::Equivalent);
                    r.equals = Some(eq.clone());
                    r.shift = Some(e.shift);
                    r.family = Some(family.to_string());
                    new_equivalent.push(r);
                }
                continue;
            }
            match row {
                Some(r) if r.is_finished(upto) => plan.finished += 1,
                _ => plan.todo.push(e.rule.clone()),
            }
        }
        self.write_all(&new_equivalent)?;
        Ok(plan)
    }

    /// `PRAGMA integrity_check`: "ok" for a sound database.
    pub fn integrity_check(&self) -> Result<String> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(self.err())
    }
}

/// What is left of a survey (see [`Db::plan`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Rules to solve, in the family's order.
    pub todo: Vec<String>,
    /// Entries already finished in the table.
    pub finished: u64,
    /// Entries equivalent to an earlier one (recorded, never solved).
    pub equivalent: u64,
}

fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<GameRow>> {
    let status: String = r.get(1)?;
    let Some(status) = Status::from_text(&status) else {
        return Ok(Err(Error::Input(format!(
            "survey database row has an unknown status {}",
            quote(&status)
        ))));
    };
    Ok(Ok(GameRow {
        rule: r.get(0)?,
        status,
        preperiod: to_u64(r.get(2)?),
        period: to_u64(r.get(3)?),
        proven: r.get::<_, Option<i64>>(4)?.map(|v| u8::from(v != 0)),
        computed_upto: to_u64(r.get(5)?),
        max_value: to_u64(r.get(6)?),
        rare_values: to_u64(r.get(7)?),
        equals: r.get(8)?,
        seconds: r.get(9)?,
        engine: r.get(10)?,
        shift: r.get(11)?,
        saltus: r.get(12)?,
        family: r.get(13)?,
        error: r.get(14)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database written before version 2 (shift with the old sign) reads with the current
    /// sign: negated on a read-only open, turned into version 2 by a writable one.
    #[test]
    fn a_version_1_table_reads_its_shift_with_the_current_sign() {
        let path = std::env::temp_dir().join(format!("grundy-survey-v1-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        {
            let mut db = Db::open(&path).unwrap();
            let mut row = GameRow::new("0.07", Status::Equivalent);
            row.equals = Some("0.4".into());
            row.shift = Some(-1); // version 1: G(n) = G_equals(n - shift)
            db.write(&row).unwrap();
            db.conn
                .execute(
                    "UPDATE survey_meta SET value = '1' WHERE key = 'schema_version'",
                    [],
                )
                .unwrap();
        }
        let old = Db::open_existing(&path).unwrap();
        assert_eq!(old.get("0.07").unwrap().unwrap().shift, Some(1));
        assert_eq!(old.rows().unwrap()[0].shift, Some(1));
        drop(old);
        let db = Db::open(&path).unwrap();
        assert!(!db.old_shift);
        assert_eq!(db.get("0.07").unwrap().unwrap().shift, Some(1));
        let version: String = db
            .conn
            .query_row(
                "SELECT value FROM survey_meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION.to_string());
        drop(db);
        // Opening again changes nothing.
        let again = Db::open_existing(&path).unwrap();
        assert_eq!(again.get("0.07").unwrap().unwrap().shift, Some(1));
        drop(again);
        let _ = std::fs::remove_file(&path);
    }
}
