// SQLite (Debian's libsqlite3-dev, with FTS5), for ClipboardHistory's database.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: bound
// text and blobs are copied by SQLite before the call returns.
static inline int cferry_sqlite3_bind_text_copy(sqlite3_stmt *statement, int index,
                                               const char *text, int length) {
  return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
static inline int cferry_sqlite3_bind_blob_copy(sqlite3_stmt *statement, int index,
                                               const void *bytes, int length) {
  return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
// sqlite3_db_config is variadic, which Swift cannot call.
static inline int cferry_sqlite3_disable_double_quoted_strings(sqlite3 *db) {
  int a = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (void *)0);
  int b = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (void *)0);
  return a != SQLITE_OK ? a : b;
}
