// Command ferretdb-launcher runs an embedded FerretDB (MongoDB wire protocol) for local
// development and tests, because real MongoDB cannot be installed on every machine.
// Production uses real MongoDB; this binary is never deployed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "sqlite", "backend handler: sqlite or postgresql")
	sqliteURL := flag.String("sqlite-url", "file:.local/ferretdb/", "SQLite directory URI (sqlite handler)")
	pgURL := flag.String("postgresql-url", "postgres://127.0.0.1:5432/ferretdb", "PostgreSQL URL (postgresql handler)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	watchStdin := flag.Bool("exit-on-stdin-eof", false, "exit when stdin closes (the parent process died)")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: bad -log-level %q\n", *logLevel)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       *handler,
		SQLiteURL:     *sqliteURL,
		PostgreSQLURL: *pgURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: %v\n", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *watchStdin {
		// The parent holds our stdin open; EOF means it is gone, so do not outlive it.
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	if *handler == "sqlite" {
		indexer := &idPathIndexer{dir: sqliteDir(*sqliteURL), log: logger}
		go indexer.run(ctx, time.Second)
	}

	// The parent process waits for this line before connecting.
	fmt.Printf("READY %s\n", f.MongoDBURI())

	if err := <-done; err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: %v\n", err)
		os.Exit(1)
	}
}
