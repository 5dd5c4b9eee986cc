import GRDB
import GRDBSQLite

/// One prepared statement run once per row, its parameters bound through SQLite's C interface
/// straight from Swift strings: how an ingest writes its many rows. Handing SQLite the rows as one
/// JSON document instead costs more in taking each row apart again (`value ->> n`) than the
/// inserts themselves, and GRDB's argument arrays allocate per row.
///
/// A parameter keeps its value from row to row until it is bound again (SQLite's reset leaves
/// bindings alone), so what many rows share is bound once.
struct SQLiteRowInsert {
    private let statement: Statement
    private let database: Database

    /// Prepares `sql` (cached on the connection) on `database`, inside the caller's transaction.
    ///
    /// - Throws: `DatabaseError` when the statement does not compile.
    init(_ database: Database, sql: String) throws {
        self.database = database
        statement = try database.cachedStatement(sql: sql)
    }

    /// Binds `text` (copied by SQLite) to the parameter at `index` (from 1), or NULL when it is `nil`.
    func bind(_ text: String?, at index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement.sqliteStatement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    /// Binds `integer` to the parameter at `index` (from 1), or NULL when it is `nil`.
    func bind(_ integer: Int64?, at index: Int32) {
        guard let integer else {
            sqlite3_bind_null(statement.sqliteStatement, index)
            return
        }
        sqlite3_bind_int64(statement.sqliteStatement, index, integer)
    }

    /// Runs the statement with the parameters bound, then resets it for the next row.
    ///
    /// - Throws: `DatabaseError` when the row cannot be written (a constraint, a full disk).
    func insertRow() throws {
        let code = sqlite3_step(statement.sqliteStatement)
        sqlite3_reset(statement.sqliteStatement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(database.sqliteConnection)), sql: statement.sql)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: the bound bytes are copied before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
