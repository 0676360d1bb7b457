"""The one place that opens SQLite.

Python's own `sqlite3` cannot load extensions on many builds (pyenv, macOS), so
memchat uses `apsw`, which always can, and loads sqlite-vec into every
connection. One connection serves every thread, guarded by a re-entrant lock: a
transaction holds the lock until it ends, so a change made by another thread
(a pin from the UI during a background extraction) waits for it instead of
silently joining it — and being rolled back with it. Worker threads come and
go (Textual starts one per turn), so a connection per thread would pay the
open, the extension load and a cold cache on every turn.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from memchat import paths
from memchat.memory.migrations import MIGRATIONS
from memchat.types import MemchatError

Row = dict[str, Any]

BUSY_TIMEOUT_MS = 10_000  # how long one statement waits for another process's write lock
BUSY_WAIT = 60.0  # how long a transaction keeps retrying to begin or commit before giving up


def _busy(path: str) -> MemchatError:
    return MemchatError(
        f"the database {path} stayed busy: another memchat process held its write lock for over a minute",
        "wait for the other memchat command (an import?) to finish, then try again; nothing was lost",
    )


APPLICATION_ID = 0x6D656D63  # "memc": `PRAGMA application_id` of a memchat database
SQLITE_HEADER = b"SQLite format 3\x00"


def damaged(path: str) -> MemchatError:
    return MemchatError(
        f"the database {path} is damaged (SQLite: malformed or truncated)",
        "run `memchat doctor --repair` to copy what can still be read into a new file (the original stays untouched)",
    )


def _check_file(path: Path) -> None:
    """A path that cannot be a database is refused before SQLite opens (and maybe creates) it.
    An empty file is left for the caller: commands that create initialise it, the rest refuse it."""
    if not path.exists():
        return
    if not path.is_file():
        raise MemchatError(f"{path} is not a regular file", "pass --db with the path of a database file")
    with path.open("rb") as head:
        header = head.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise MemchatError(f"{path} is not a memchat database (not even a SQLite file)",
                           "pass --db with a memchat database or a new path")


def _dict_rows(cursor: apsw.Cursor, row: Sequence[Any]) -> Row:
    return {column[0]: value for column, value in zip(cursor.get_description(), row)}


class Database:
    """Per-thread connections with sqlite-vec loaded, to one migrated file."""

    def __init__(self, path: Path | str, *, salvage: bool = False) -> None:
        """Open (and create or migrate) a memchat database. `salvage` opens a damaged copy as it
        is — no identity check, no WAL switch, no migration — for `memory.recover` to read."""
        self.path = str(path)
        self._lock = threading.RLock()
        try:
            if self.path != ":memory:":
                _check_file(Path(self.path))
                Path(self.path).parent.mkdir(parents=True, exist_ok=True, mode=paths.PRIVATE_DIR)
            self.conn = apsw.Connection(self.path)
        except (OSError, apsw.Error) as exc:
            raise MemchatError(
                f"cannot open database {self.path}: {exc}", "pass --db with a writable path or fix permissions"
            ) from exc
        self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        self.conn.enable_load_extension(True)
        self.conn.load_extension(sqlite_vec.loadable_path())
        self.conn.enable_load_extension(False)
        self.conn.row_trace = _dict_rows
        if salvage:
            return
        try:
            self._refuse_foreign()  # before anything below changes the file
            if self.path != ":memory:":
                self.execute("PRAGMA journal_mode=WAL")
                for suffix in ("", "-wal", "-shm"):  # an older memchat (or another umask) made them 0644
                    paths.tighten(Path(self.path + suffix))
            self.execute("PRAGMA foreign_keys=ON")
            self.execute("PRAGMA secure_delete=ON")  # freed pages are zeroed: a purge leaves no copy behind
            self.migrate()
        except (apsw.NotADBError, apsw.CorruptError) as exc:
            self.conn.close()
            raise damaged(self.path) from exc
        except (apsw.ReadOnlyError, apsw.CantOpenError) as exc:  # CantOpen: no -shm beside a read-only file
            self.conn.close()
            raise MemchatError(f"{self.path} is read-only ({exc})", "fix its permissions or pass --db") from exc
        except MemchatError:
            self.conn.close()
            raise

    def _refuse_foreign(self) -> None:
        """Another application's SQLite file, or one a newer memchat wrote, is refused before any
        change (WAL mode, tables): a read-only command once turned a foreign file to WAL and added
        memchat's tables to it."""
        tables = {r["name"] for r in self.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
                  if not r["name"].startswith("sqlite_")}
        application_id = int(self.scalar("PRAGMA application_id") or 0)
        if (tables and "_migrations" not in tables) or application_id not in (0, APPLICATION_ID):
            shown = ", ".join(sorted(tables)[:4]) + (" …" if len(tables) > 4 else "")
            raise MemchatError(
                f"{self.path} is another application's SQLite file (tables: {shown or 'none'}), not memchat's",
                "pass --db with a memchat database or a new path; nothing was changed",
            )
        user_version = int(self.scalar("PRAGMA user_version") or 0)
        version = max(user_version, self.schema_version if tables else 0)
        if version > len(MIGRATIONS):
            raise MemchatError(
                f"database {self.path} has schema {version}, newer than this memchat knows ({len(MIGRATIONS)})",
                "upgrade memchat (pip install -U memchat) or pass --db with another file; nothing was changed",
            )

    # ---- plumbing -------------------------------------------------------
    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> apsw.Cursor:
        with self._lock:
            try:
                return self.conn.execute(sql, params)
            except apsw.BusyError as exc:  # a single statement outside a transaction waited BUSY_TIMEOUT_MS
                raise _busy(self.path) from exc

    def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Row]:
        with self._lock:
            return list(self.conn.execute(sql, params))

    def row(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Row | None:
        with self._lock:
            return next(iter(self.conn.execute(sql, params)), None)

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        found = self.row(sql, params)
        return next(iter(found.values())) if found else None

    def generation(self, ignored: int = 0) -> tuple[int, int]:
        """Where the tables stand: rows changed through this connection (less `ignored` of them) and
        SQLite's count of commits by other connections. A cache of what the tables say is stale when
        this differs."""
        with self._lock:
            return int(self.conn.total_changes()) - ignored, int(self.scalar("PRAGMA data_version"))

    def execute_counted(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        with self._lock:
            self.execute(sql, params)
            return int(self.conn.changes())

    def last_insert_rowid(self) -> int:
        """The id of this thread's last insert (call inside the same transaction)."""
        return int(self.conn.last_insert_rowid())

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing; nests as savepoints; other threads wait until it ends.

        The outermost level is `BEGIN IMMEDIATE`: it takes the write lock up front, so two
        processes never both read and then both try to write (a deadlock SQLite can only
        break by failing one of them). Another process's write waits, up to `BUSY_WAIT`
        seconds, then the user gets a clear error — never a traceback.
        """
        with self._lock:
            if not self.conn.get_autocommit():  # already inside: a savepoint, rolled back alone
                with self.conn:
                    yield
                return
            self._write(lambda: self.conn.execute("BEGIN IMMEDIATE"))
            try:
                yield
            except BaseException:
                if not self.conn.get_autocommit():
                    self.conn.execute("ROLLBACK")
                raise
            self._write(lambda: self.conn.execute("COMMIT"))

    def _write(self, statement: Callable[[], object]) -> None:
        """Run a statement that needs the write lock, retrying while another writer holds it."""
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            try:
                statement()
                return
            except apsw.BusyError as exc:
                if time.monotonic() >= deadline:
                    raise _busy(self.path) from exc

    def checkpoint(self) -> None:
        """Copy the WAL into the database and truncate it (after a purge: the WAL held the old pages)."""
        if self.path != ":memory:":
            with self._lock:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    # ---- schema ---------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return int(self.scalar("SELECT COALESCE(MAX(version), 0) FROM _migrations") or 0)

    def migrate(self) -> None:
        self.execute("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)")
        current = self.schema_version
        if current > len(MIGRATIONS):
            raise MemchatError(
                f"database {self.path} has schema {current}, newer than this memchat knows ({len(MIGRATIONS)})",
                "upgrade memchat (pip install -U memchat) or pass --db with another file; nothing was changed",
            )
        for version, migration in enumerate(MIGRATIONS, start=1):
            if version <= current:
                continue
            rebuilds = getattr(migration, "foreign_keys_off", False)
            if rebuilds:  # a table rebuild: SQLite ignores this pragma inside a transaction
                self.execute("PRAGMA foreign_keys=OFF")
            try:
                with self.transaction():
                    migration(self)
                    if rebuilds and self.rows("PRAGMA foreign_key_check"):
                        raise MemchatError(f"migration {migration.__name__} broke a reference", "report this bug")
                    self.execute(
                        "INSERT INTO _migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        (version, migration.__name__, time.time()),
                    )
            finally:
                if rebuilds:
                    self.execute("PRAGMA foreign_keys=ON")
        if current < len(MIGRATIONS):  # stamped, so `_refuse_foreign` (and other tools) can tell whose file it is
            self.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    def meta(self, key: str) -> str | None:
        return self.scalar("SELECT value FROM meta WHERE key = ?", (key,))

    def set_meta(self, key: str, value: str) -> None:
        self.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                     (key, value, value))

    def ensure_vectors(self, dim: int, model: str) -> bool:
        """Create the vec0 table for `dim`; return False when stored vectors came from another model."""
        known = self.meta("embed_dim")
        if known is None:
            with self.transaction():
                self.create_vectors(dim, model)
            return True
        if int(known) != dim:
            raise self.other_model(model, dim)
        return self.meta("embed_model") == model

    def create_vectors(self, dim: int, model: str) -> None:
        """An empty vec0 table for `model`'s `dim`-d vectors, in place of any table before it (inside the
        caller's transaction); deleting a memory deletes its vector."""
        self.execute("DROP TRIGGER IF EXISTS memories_vec_delete")
        self.execute("DROP TABLE IF EXISTS memories_vec")
        self.execute(f"CREATE VIRTUAL TABLE memories_vec USING vec0(embedding float[{dim}] distance_metric=cosine)")
        self.execute("CREATE TRIGGER memories_vec_delete AFTER DELETE ON memories BEGIN "
                     "DELETE FROM memories_vec WHERE rowid = old.id; END")
        self.set_meta("embed_dim", str(dim))
        self.set_meta("embed_model", model)

    def other_model(self, model: str, dim: int) -> MemchatError:
        """The error for vectors made by another embedding model than `model`: the two cannot be compared."""
        return MemchatError(
            f"this database's memories were embedded with {self.meta('embed_model')} ({self.meta('embed_dim')}-d), "
            f"not {model} ({dim}-d)",
            "use the same embedding model, or run `memchat memory reindex` to re-embed every memory",
        )

    def versions(self) -> dict[str, str]:
        return {
            "sqlite": apsw.sqlite_lib_version(),
            "apsw": apsw.apsw_version(),
            "sqlite_vec": str(self.scalar("SELECT vec_version()")),
            "fts5": "yes" if self.scalar("SELECT sqlite_compileoption_used('ENABLE_FTS5')") else "no",
        }
