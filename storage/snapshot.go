package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// The search index snapshot (docs/search.md, "Snapshot at start-up"): a
// SQLite database's index written beside it, <database>.search, so that a
// store starts by reading it and applying the search_log entries after it
// instead of building the index from every listing. The file is a
// snapshotHeader, in this machine's byte order, followed by the index
// (search.WriteSnapshot), whose CRC-32C is in the header.

// snapshotMagic starts every snapshot file.
const snapshotMagic = "LDSEARCH"

// snapshotOrder is written in the machine's byte order: read back in
// another order, it is not equal.
const snapshotOrder = 0x01020304

// snapshotHeader is a snapshot file's first bytes.
type snapshotHeader struct {
	Magic   [8]byte
	Version uint32 // search.SnapshotVersion
	Order   uint32 // snapshotOrder
	SiteID  int64
	Seq     int64    // the last search_log seq the index holds
	Token   [32]byte // the database's search_snapshot token when written
	Cats    [32]byte // catsDigest of the categories' names and parents the index holds
	Size    int64    // bytes after the header
	CRC     uint32   // CRC-32C of those bytes
	HeadCRC uint32   // CRC-32C of the header with HeadCRC 0
}

// headCRC is h's HeadCRC.
func (h snapshotHeader) headCRC() uint32 {
	h.HeadCRC = 0
	b, _ := binary.Append(nil, binary.NativeEndian, &h)
	return crc32.Checksum(b, snapshotCRC)
}

var snapshotCRC = crc32.MakeTable(crc32.Castagnoli)

// snapshotPath is where the store's snapshot is kept: beside the SQLite
// file; "" on PostgreSQL, which has no data directory.
func (s *Store) snapshotPath() string {
	if !s.db.eng.fileBacked() {
		return ""
	}
	return s.db.path + ".search"
}

// openIndex gives the store its index: from the snapshot when there is one
// that holds, else by building it from the database. Called with syncMu held.
func (s *Store) openIndex(ctx context.Context) error {
	path := s.snapshotPath()
	if path == "" {
		return s.rebuildIndex(ctx)
	}
	s.removeStaleTemps(path)
	start := time.Now()
	err := s.loadSnapshot(ctx, path)
	switch {
	case err == nil:
		s.db.logger().Info("search index loaded from its snapshot", "path", path, "seq", s.snapSeq, "applied", s.syncSeq-s.snapSeq,
			"listings", s.ix.Load().Len(), "took", time.Since(start).Round(time.Millisecond))
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, fs.ErrNotExist):
		s.db.logger().Debug("no search snapshot; building the index", "path", path)
	default:
		s.db.logger().Warn("search snapshot not used; building the index", "path", path, "reason", err)
	}
	s.snapSeq, s.snapSaved = 0, false
	return s.rebuildIndex(ctx)
}

// staleTemp is how old a snapshot's temporary file must be to be removed at
// start: one left by a crash mid-write. A write takes about a second at 1M
// listings; a younger file may be another process's write in progress.
const staleTemp = time.Hour

// removeStaleTemps removes the temporary files of snapshot writes to path
// that a crash left behind (writeSnapshot's path.*.tmp).
func (s *Store) removeStaleTemps(path string) {
	temps, _ := filepath.Glob(path + ".*.tmp")
	for _, t := range temps {
		if fi, err := os.Stat(t); err == nil && time.Since(fi.ModTime()) > staleTemp {
			if err := os.Remove(t); err == nil {
				s.db.logger().Info("removed a search snapshot's temporary file left by an interrupted write", "path", t)
			}
		}
	}
}

// loadSnapshot reads the snapshot at path, checks that it holds for this
// database and site, installs it and applies the search_log entries after
// it. Any error leaves the store to be built afresh. Called with syncMu held.
func (s *Store) loadSnapshot(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	var h snapshotHeader
	if err := binary.Read(f, binary.NativeEndian, &h); err != nil {
		return fmt.Errorf("reading the header: %w", err)
	}
	switch {
	case string(h.Magic[:]) != snapshotMagic:
		return errors.New("not a search snapshot")
	case h.HeadCRC != h.headCRC():
		return errors.New("checksum mismatch: the header is damaged")
	case h.Order != snapshotOrder:
		return errors.New("written on a machine of another byte order")
	case h.Version != search.SnapshotVersion:
		return fmt.Errorf("format version %d, this build reads %d", h.Version, search.SnapshotVersion)
	case h.SiteID != s.siteID:
		return fmt.Errorf("written for site %d, this store is site %d", h.SiteID, s.siteID)
	case h.Size != fi.Size()-int64(binary.Size(h)):
		return fmt.Errorf("file of %d bytes, its header says %d after the header", fi.Size(), h.Size)
	}
	var token string
	err = s.db.sql.QueryRowContext(ctx, `SELECT token FROM search_snapshot WHERE id = 1`).Scan(&token)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return errors.New("the database has no snapshot token (seeded or migrated since, or new)")
	case err != nil:
		return mapErr(err, "search snapshot", "")
	case token != string(h.Token[:]):
		return errors.New("written for another database, or for this one before a seed, a migration or a restore")
	}
	var lo sql.NullInt64
	var head int64
	if err := s.db.sql.QueryRowContext(ctx, `SELECT MIN(seq), COALESCE(MAX(seq), 0) FROM search_log`).Scan(&lo, &head); err != nil {
		return mapErr(err, "search log", "")
	}
	switch {
	case head < h.Seq:
		return fmt.Errorf("search_log ends at seq %d, before the snapshot's %d", head, h.Seq)
	case head > h.Seq && (!lo.Valid || lo.Int64 > h.Seq+1):
		return fmt.Errorf("search_log was pruned past the snapshot's seq %d (it starts at %d)", h.Seq, lo.Int64)
	case head-h.Seq > rebuildAbove:
		return fmt.Errorf("%d search_log entries after the snapshot: building is as quick", head-h.Seq)
	}
	crc := crc32.New(snapshotCRC)
	ix, err := search.ReadSnapshot(io.TeeReader(f, crc), h.Size, func() error {
		if crc.Sum32() != h.CRC {
			return errors.New("checksum mismatch: the file is damaged")
		}
		return nil
	})
	if err != nil {
		return err
	}
	// A listing's document holds its categories' names, and a rename logs
	// only the listings whose primary category it is (searchcats.go): the
	// snapshot holds only while the categories are as it saw them. Then the
	// store remembers them as its index's, so the next rename is seen.
	cats, err := s.categoryMap(ctx)
	if err != nil {
		return err
	}
	if catsDigest(cats) != h.Cats {
		return errors.New("a category was renamed or moved since it was written")
	}
	s.sums.dropAll()
	s.catSeen = nil
	s.noteCategories(cats)
	done := s.results.change() // resultcache.go
	s.ix.Store(ix)
	done()
	s.syncSeq, s.gaps, s.lastPoll = h.Seq, nil, time.Now()
	s.snapSeq, s.snapSaved = h.Seq, true
	// The changes since, exactly as a running store follows them.
	if err := s.poll(ctx); err != nil {
		return fmt.Errorf("applying search_log after the snapshot: %w", err)
	}
	if err := s.pruneLog(ctx); err != nil {
		return err
	}
	// The category counts a build works out as it reads the listings, from
	// the index instead.
	all, err := s.allCategories(ctx)
	if err != nil {
		return err
	}
	counts := indexCounts(s.ix.Load(), all)
	s.catMu.Lock()
	s.catCache, s.catAt, s.catSeq, s.catCost = categoryNodes(all, counts), time.Now(), s.syncSeq, 0
	s.catMu.Unlock()
	return nil
}

// indexCounts is, per category, the number of live listings of ix in it or
// in a category below it, as countCategories counts them while the index is
// built (up to 15 levels down).
func indexCounts(ix *search.Index, all []catRow) map[int64]int {
	children := map[int64][]int64{}
	for _, c := range all {
		children[c.parentID] = append(children[c.parentID], c.id)
	}
	counts := make(map[int64]int, len(all))
	var below []int64
	for _, c := range all {
		below = append(below[:0], c.id)
		level := below
		for depth := 1; depth < 16 && len(level) > 0; depth++ {
			n := len(below)
			for _, id := range level {
				below = append(below, children[id]...)
			}
			level = below[n:]
		}
		if n := ix.LiveIn(below); n > 0 {
			counts[c.id] = n
		}
	}
	return counts
}

// SnapshotInBackground writes the search index's snapshot on a goroutine
// when the index was built from the database (not loaded from a snapshot
// that is still current); serve calls it once serving has begun. Polls of
// search_log wait until it is written (searches use the index meanwhile).
// Close waits for it.
func (s *Store) SnapshotInBackground() {
	path := s.snapshotPath()
	if path == "" {
		return
	}
	s.snapWG.Go(func() {
		s.syncMu.Lock()
		defer s.syncMu.Unlock()
		if s.snapSaved && s.snapSeq == s.syncSeq {
			return
		}
		_ = s.saveSnapshot(context.Background(), path) // saveSnapshot logs a failure
	})
}

// Close stops the summary fill, waits for a snapshot being written and
// writes one if the index moved since the last one written or loaded. The store must not be used
// after; the database stays open.
func (s *Store) Close() error {
	s.bg()
	s.bgStop()
	s.snapWG.Wait()
	path := s.snapshotPath()
	if path == "" {
		return nil
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if s.snapSaved && s.snapSeq == s.syncSeq {
		return nil
	}
	return s.saveSnapshot(context.Background(), path)
}

// saveSnapshot writes the snapshot and logs how it went. Called with syncMu held.
func (s *Store) saveSnapshot(ctx context.Context, path string) error {
	start := time.Now()
	n, err := s.writeSnapshot(ctx, path)
	if err != nil {
		s.db.logger().Warn("search snapshot not written", "path", path, "err", err)
		return err
	}
	s.db.logger().Info("search snapshot written", "path", path, "seq", s.syncSeq, "bytes", n, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// writeSnapshot writes the index at syncSeq to path atomically (a
// temporary file in the same directory, synced, renamed over it) and
// returns its size. A new token goes into the database first: a crash
// before the rename leaves the old file, which no longer matches. Called
// with syncMu held, so that the index does not change meanwhile.
func (s *Store) writeSnapshot(ctx context.Context, path string) (_ int64, err error) {
	raw := domain.RandomBytes(16)
	h := snapshotHeader{Version: search.SnapshotVersion, Order: snapshotOrder, SiteID: s.siteID, Seq: s.syncSeq, Cats: catsSeenDigest(s.catSeen)}
	copy(h.Magic[:], snapshotMagic)
	hex.Encode(h.Token[:], raw)
	if _, err := s.db.sql.ExecContext(ctx, `INSERT INTO search_snapshot (id, token) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET token = excluded.token`, string(h.Token[:])); err != nil {
		return 0, mapErr(err, "search snapshot", "")
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil { // as the database (CreateTemp makes 0600)
		return 0, err
	}
	if err := binary.Write(f, binary.NativeEndian, &h); err != nil { // again below, complete
		return 0, err
	}
	crc := crc32.New(snapshotCRC)
	cw := &countWriter{w: io.MultiWriter(f, crc)}
	if err := s.ix.Load().WriteSnapshot(cw); err != nil {
		return 0, err
	}
	h.Size, h.CRC = cw.n, crc.Sum32()
	h.HeadCRC = h.headCRC()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	if err := binary.Write(f, binary.NativeEndian, &h); err != nil {
		return 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return 0, err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil { // the rename itself
		_ = d.Sync()
		d.Close()
	}
	s.snapSeq, s.snapSaved = h.Seq, true
	return h.Size + int64(binary.Size(h)), nil
}

// catsDigest is the SHA-256 of what the index depends on of each category
// (catKey), in id order.
func catsDigest(cats map[int64]catRow) [32]byte {
	seen := make(map[int64]string, len(cats))
	for id, c := range cats {
		seen[id] = catKey(c)
	}
	return catsSeenDigest(seen)
}

// catsSeenDigest is catsDigest of the keys catSeen holds.
func catsSeenDigest(seen map[int64]string) [32]byte {
	h := sha256.New()
	for _, id := range slices.Sorted(maps.Keys(seen)) {
		fmt.Fprintf(h, "%d\x00%s\x00", id, seen[id])
	}
	return [32]byte(h.Sum(nil))
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// forgetSnapshot removes the database's snapshot token, so that no snapshot
// written before is loaded: for writes that may change listings without
// search_log (seeding, migrations).
func (db *DB) forgetSnapshot(ctx context.Context) error {
	if !db.eng.fileBacked() {
		return nil
	}
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM search_snapshot`); err != nil {
		return fmt.Errorf("storage: forget the search snapshot: %w", err)
	}
	return nil
}
