package storage

import (
	"context"
	"database/sql/driver"
)

// beginSeed starts the transaction a seed writes in, and returns the
// function that gives its connection back (call it after the transaction
// ends). On SQLite the connection keeps its statement journals in memory
// for the transaction (temp_store=MEMORY, set before BEGIN, which is when
// SQLite decides where the journal goes) and is reset to the default
// before it returns to the pool.
//
// Why: a seed is one long transaction of single-row statements, and every
// statement that fires a trigger or checks a foreign key writes the pages
// it changes to a statement journal, which SQLite keeps in memory only up
// to 64 KiB. Once one statement spills it, the journal is a file for the
// rest of the transaction and every later statement writes its pages there:
// 383,000 pwrite calls (0.8 GB) for 3,000 synthetic listings, and system
// time larger than the seed's user time on this machine (docs/testing.md,
// ci13a). The journals of one statement are a few pages. Other
// transactions keep the default, so a large sort still spills to a file.
func (db *DB) beginSeed(ctx context.Context) (*Tx, func(), error) {
	if !db.eng.statementJournals() {
		tx, err := db.sql.BeginTx(ctx, nil)
		return tx, func() {}, err
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	release := func() {
		// A connection that cannot be reset is not returned to the pool.
		if _, err := conn.ExecContext(context.Background(), `PRAGMA temp_store = DEFAULT`); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA temp_store = MEMORY`); err != nil {
		release()
		return nil, nil, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		release()
		return nil, nil, err
	}
	return &Tx{Tx: tx, eng: db.eng}, release, nil
}
