#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
/* libsqlite3 (Debian libsqlite3-0, 3.40): the store of locate publish's outbox (LocateStore's
   SQLite.swift). It is opened with dlopen when a store is first opened, not linked, so that the
   runs that keep nothing (locate --once, --follow) never load or relocate it. The module map has
   no `link`; sqlite3.h gives the types, and these are the types of the functions looked up with
   dlsym (__typeof__: the header's own declarations, so they cannot drift). None is variadic. */
#include <sqlite3.h>

typedef __typeof__(&sqlite3_open_v2) CSQLite_open_v2;
typedef __typeof__(&sqlite3_close_v2) CSQLite_close_v2;
typedef __typeof__(&sqlite3_extended_result_codes) CSQLite_extended_result_codes;
typedef __typeof__(&sqlite3_busy_timeout) CSQLite_busy_timeout;
typedef __typeof__(&sqlite3_errmsg) CSQLite_errmsg;
typedef __typeof__(&sqlite3_errstr) CSQLite_errstr;
typedef __typeof__(&sqlite3_exec) CSQLite_exec;
typedef __typeof__(&sqlite3_prepare_v2) CSQLite_prepare_v2;
typedef __typeof__(&sqlite3_step) CSQLite_step;
typedef __typeof__(&sqlite3_reset) CSQLite_reset;
typedef __typeof__(&sqlite3_finalize) CSQLite_finalize;
typedef __typeof__(&sqlite3_bind_int64) CSQLite_bind_int64;
typedef __typeof__(&sqlite3_bind_double) CSQLite_bind_double;
typedef __typeof__(&sqlite3_bind_null) CSQLite_bind_null;
typedef __typeof__(&sqlite3_bind_text) CSQLite_bind_text;
typedef __typeof__(&sqlite3_bind_blob) CSQLite_bind_blob;
typedef __typeof__(&sqlite3_column_int64) CSQLite_column_int64;
typedef __typeof__(&sqlite3_column_double) CSQLite_column_double;
typedef __typeof__(&sqlite3_column_text) CSQLite_column_text;
typedef __typeof__(&sqlite3_column_blob) CSQLite_column_blob;
typedef __typeof__(&sqlite3_column_bytes) CSQLite_column_bytes;
typedef __typeof__(&sqlite3_column_type) CSQLite_column_type;
typedef __typeof__(&sqlite3_column_count) CSQLite_column_count;
typedef __typeof__(&sqlite3_changes) CSQLite_changes;

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot spell: the bytes
   bound are copied by SQLite before the call returns. */
static inline sqlite3_destructor_type CSQLite_transient(void) { return SQLITE_TRANSIENT; }

#endif
