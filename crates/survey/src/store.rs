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
///
/// Version 3: the misère columns (`misere_upto`, `misere_order`, `misere_p`, `misere_tame`,
/// `misere_status`; null where no survey asked for them). A writable open adds them to an
/// older table (one transaction, with the version-1 conversion when due); a read-only open of
/// an older table reads them as null.
pub const SCHEMA_VERSION: u32 = 3;

/// The misère columns of version 3, in order, with their SQL types.
pub const MISERE_COLUMNS: [(&str, &str); 5] = [
    ("misere_upto", "INTEGER"),
    ("misere_order", "INTEGER"),
    ("misere_p", "INTEGER"),
    ("misere_tame", "INTEGER"),
    ("misere_status", "TEXT"),
];

/// The table's columns in order (the CSV header).
pub const COLUMNS: [&str; 20] = [
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
    "misere_upto",
    "misere_order",
    "misere_p",
    "misere_tame",
    "misere_status",
];

/// The columns a version-2 table has (the first 15): what makes a table ours.
const V2_COLUMNS: usize = 15;

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
    error TEXT,
    misere_upto INTEGER,
    misere_order INTEGER,
    misere_p INTEGER,
    misere_tame INTEGER,
    misere_status TEXT
);
CREATE TABLE IF NOT EXISTS survey_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// An open survey database.
pub struct Db {
    conn: Connection,
    path: PathBuf,
    /// A version-1 table opened read-only: its `shift` has the old sign, negated on reading.
    old_shift: bool,
    /// A table before version 3 opened read-only: no misère columns (read as null).
    no_misere: bool,
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
            if let Some(missing) = COLUMNS[..V2_COLUMNS]
                .iter()
                .find(|c| !columns.iter().any(|x| x == *c))
            {
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
        let missing_misere: Vec<(&str, &str)> = if columns.is_empty() {
            Vec::new()
        } else {
            MISERE_COLUMNS
                .iter()
                .copied()
                .filter(|(c, _)| !columns.iter().any(|x| x == c))
                .collect()
        };
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
                no_misere: !missing_misere.is_empty(),
            });
        }
        conn.execute_batch(SCHEMA).map_err(err)?;
        if !missing_misere.is_empty() {
            // version 2 (or 1) → 3: the misère columns, null in every existing row
            let mut sql = String::from("BEGIN;\n");
            for (c, ty) in &missing_misere {
                sql.push_str(&format!("ALTER TABLE games ADD COLUMN {c} {ty};\n"));
            }
            if !old_shift {
                sql.push_str(
                    "INSERT OR REPLACE INTO survey_meta (key, value) VALUES ('schema_version', '3');\n",
                );
            }
            sql.push_str("COMMIT;");
            conn.execute_batch(&sql).map_err(err)?;
        }
        if old_shift {
            conn.execute_batch(
                "BEGIN;
                 UPDATE games SET shift = -shift WHERE shift IS NOT NULL;
                 INSERT OR REPLACE INTO survey_meta (key, value) VALUES ('schema_version', '3');
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
            no_misere: false,
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
        let sql = format!("SELECT {} FROM games WHERE rule = ?1", self.select_list());
        self.conn
            .query_row(&sql, params![rule], read_row)
            .optional()
            .map_err(self.err())?
            .transpose()
            .map(|r| r.map(|r| self.current(r)))
    }

    /// The columns to select: every column, `NULL` for the misère ones of an older table.
    fn select_list(&self) -> String {
        COLUMNS
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if self.no_misere && i >= V2_COLUMNS {
                    "NULL"
                } else {
                    c
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
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
        let sql = format!("SELECT {} FROM games ORDER BY rule", self.select_list());
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
                    to_i64(r.misere_upto),
                    to_i64(r.misere_order),
                    to_i64(r.misere_p),
                    r.misere_tame,
                    r.misere_status,
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
        self.plan_with(entries, upto, family, None)
    }

    /// [`Db::plan`] for a survey that also records misère quotients up to heap `misere`
    /// (a row without them, or with a smaller bound, is solved again).
    pub fn plan_with(
        &mut self,
        entries: &[Entry],
        upto: u64,
        family: &str,
        misere: Option<u64>,
    ) -> Result<Plan> {
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
                Some(r) if r.is_finished_with(upto, misere) => plan.finished += 1,
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
        misere_upto: to_u64(r.get(15)?),
        misere_order: to_u64(r.get(16)?),
        misere_p: to_u64(r.get(17)?),
        misere_tame: r.get::<_, Option<i64>>(18)?.map(|v| u8::from(v != 0)),
        misere_status: r.get(19)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema version a database records.
    fn schema_version(db: &Db) -> String {
        db.conn
            .query_row(
                "SELECT value FROM survey_meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    }

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
        let version = schema_version(&db);
        assert_eq!(version, SCHEMA_VERSION.to_string());
        drop(db);
        // Opening again changes nothing.
        let again = Db::open_existing(&path).unwrap();
        assert_eq!(again.get("0.07").unwrap().unwrap().shift, Some(1));
        drop(again);
        let _ = std::fs::remove_file(&path);
    }

    /// A version-2 table (no misère columns) reads them as null, and a writable open adds
    /// them (version 3) keeping every row.
    #[test]
    fn a_version_2_table_gains_the_misere_columns() {
        let path = std::env::temp_dir().join(format!("grundy-survey-v2-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (rule TEXT PRIMARY KEY, status TEXT NOT NULL, preperiod INTEGER,
                 period INTEGER, proven INTEGER, computed_upto INTEGER, max_value INTEGER,
                 rare_values INTEGER, equals TEXT, seconds REAL, engine TEXT, shift INTEGER,
                 saltus INTEGER, family TEXT, error TEXT);
                 CREATE TABLE survey_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 INSERT INTO survey_meta VALUES ('schema_version', '2');
                 INSERT INTO games (rule, status, preperiod, period, proven, shift)
                 VALUES ('0.77', 'periodic', 71, 12, 1, NULL);",
            )
            .unwrap();
        }
        let old = Db::open_existing(&path).unwrap();
        let r = old.get("0.77").unwrap().unwrap();
        assert_eq!(
            (r.period, r.misere_order, r.misere_status),
            (Some(12), None, None)
        );
        assert_eq!(old.rows().unwrap().len(), 1);
        drop(old);
        let mut db = Db::open(&path).unwrap();
        let mut r = db.get("0.77").unwrap().unwrap();
        assert_eq!(r.preperiod, Some(71));
        // finished for a plain survey, not for a misère one
        assert!(r.is_finished(1024));
        assert!(!r.is_finished_with(1024, Some(12)));
        r.misere_upto = Some(12);
        r.misere_order = Some(8);
        r.misere_status = Some("quotient".into());
        db.write(&r).unwrap();
        assert_eq!(db.get("0.77").unwrap().unwrap().misere_order, Some(8));
        assert!(db
            .get("0.77")
            .unwrap()
            .unwrap()
            .is_finished_with(1024, Some(12)));
        let version = schema_version(&db);
        assert_eq!(version, "3");
        drop(db);
        let _ = std::fs::remove_file(&path);
    }
}
