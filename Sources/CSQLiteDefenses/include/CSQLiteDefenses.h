#ifndef CSQLITEDEFENSES_H
#define CSQLITEDEFENSES_H

/// Turns on SQLite's defensive mode and turns off trusted_schema on a connection (a
/// `sqlite3 *`, passed untyped so that this header needs no sqlite3.h). Returns SQLite's
/// result code: 0 (SQLITE_OK) when both took hold.
///
/// In C because sqlite3_db_config() is variadic, and Swift cannot call a variadic C function.
int objectgraph_sqlite_defend(void *connection);

#endif
