package main

// FerretDB 1.24's SQLite handler finds a document by `_id` through its `_id` index, but its
// update and delete statements address the row as `_ferretdb_sjson->'$._id'`, an expression
// that does not match that index (`_ferretdb_sjson->"_id"`), so SQLite scans the whole table
// for every update or delete by `_id` (EXPLAIN QUERY PLAN: SCAN). This adds, to every
// collection table, an index on exactly the expression those statements use, so an update by
// `_id` costs the same in a table of 100 or 100 000 documents, as it does on MongoDB.

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite"
)

// idPathIndexer polls the SQLite directory and indexes collection tables that lack the index.
type idPathIndexer struct {
	dir string
	log *slog.Logger
}

// sqliteDir turns the handler's `file:DIR/` URI into a directory path.
func sqliteDir(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	if u.Opaque != "" {
		return u.Opaque
	}
	return u.Path
}

func (x *idPathIndexer) run(ctx context.Context, every time.Duration) {
	for {
		x.pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

func (x *idPathIndexer) pass(ctx context.Context) {
	files, _ := filepath.Glob(filepath.Join(x.dir, "*.sqlite"))
	for _, f := range files {
		if err := x.indexFile(ctx, f); err != nil {
			x.log.Debug("id path index", "file", f, "err", err)
		}
	}
}

func (x *idPathIndexer) indexFile(ctx context.Context, file string) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	// Tables without the index (its name is the table's plus a suffix).
	rows, err := db.QueryContext(ctx, `SELECT t.name FROM sqlite_master t WHERE t.type = 'table' AND t.name NOT LIKE '\_ferretdb%' ESCAPE '\'
		AND NOT EXISTS (SELECT 1 FROM sqlite_master i WHERE i.type = 'index' AND i.name = t.name || '__id_path')`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err == nil {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, t := range tables {
		if strings.ContainsAny(t, `"`) {
			continue
		}
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS "%s__id_path" ON "%s" (_ferretdb_sjson->'$._id')`, t, t)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
