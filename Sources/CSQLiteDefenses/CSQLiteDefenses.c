#include <sqlite3.h>
#include "CSQLiteDefenses.h"

int objectgraph_sqlite_defend(void *connection) {
    sqlite3 *db = (sqlite3 *)connection;
    int on = -1;
    // Defensive: ordinary SQL may not corrupt the file (writable_schema, journal_mode=OFF,
    // schema_version writes, sqlite_dbpage).
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on);
    if (rc != SQLITE_OK || on != 1) return rc != SQLITE_OK ? rc : SQLITE_MISUSE;
    // Untrusted schema: triggers, views and indexes in the file may call only functions
    // registered as innocuous, and use only innocuous virtual tables.
    rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on);
    if (rc != SQLITE_OK || on != 0) return rc != SQLITE_OK ? rc : SQLITE_MISUSE;
    return SQLITE_OK;
}
