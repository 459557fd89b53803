package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"time"
)

// ErrDamaged: the database file is not a consistent bbolt file.
var ErrDamaged = errors.New("the database file is damaged")

// The file's page layout, as bbolt (format version 2) writes it. bbolt
// trusts its pages: at open it walks every reachable page, in a goroutine
// of its own, to rebuild the free-page list (the store runs with
// NoFreelistSync), and a damaged page there is an assertion or an
// out-of-bounds read that kills the process, which no recover can catch.
// So the walk is done here first, reading the file rather than mapping
// it, and a damaged file is reported as an error before bbolt sees it.
const (
	pageHeaderSize = 16 // id u64, flags u16, count u16, overflow u32
	elemSize       = 16 // branch: pos, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	bucketHeader   = 16 // root pgid u64, sequence u64
	branchPage     = 0x01
	leafPage       = 0x02
	metaPage       = 0x04
	freelistPage   = 0x10
	bucketLeaf     = 0x01
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	noFreelist     = ^uint64(0)
)

var ne = binary.NativeEndian // bbolt writes in the machine's byte order

type meta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	hwm      uint64 // pages at or above it were never allocated
	txid     uint64
}

// parseMeta reads a meta page (b starts at the page header) and checks
// its magic, version and checksum.
func parseMeta(b []byte) (meta, bool) {
	if len(b) < pageHeaderSize+64 {
		return meta{}, false
	}
	m := b[pageHeaderSize:]
	h := fnv.New64a()
	h.Write(m[:56])
	if ne.Uint32(m[0:]) != boltMagic || ne.Uint32(m[4:]) != boltVersion || ne.Uint64(m[56:]) != h.Sum64() {
		return meta{}, false
	}
	return meta{pageSize: ne.Uint32(m[8:]), root: ne.Uint64(m[16:]), freelist: ne.Uint64(m[32:]), hwm: ne.Uint64(m[40:]), txid: ne.Uint64(m[48:])}, true
}

// verifier walks the page tree of one file.
type verifier struct {
	r        io.ReaderAt
	size     int64
	pageSize int64
	hwm      uint64
	seen     map[uint64]bool
}

func (v *verifier) fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, args...))
}

// verifyFile checks that every page bbolt will read when opening the file
// and walking its buckets is where the tree says, of the right type, with
// its elements inside it and its keys in order.
func verifyFile(r io.ReaderAt, size int64) error {
	v := &verifier{r: r, size: size, seen: map[uint64]bool{}}
	if size < 2*1024 {
		return v.fail("the file is only %d bytes long", size)
	}
	buf := make([]byte, 4096)
	// The page size is in the first meta page, or, if that one is torn,
	// in the second one at one of the sizes bbolt allows.
	var m0, m1 meta
	var ok0, ok1 bool
	if n, _ := r.ReadAt(buf, 0); n >= pageHeaderSize+64 {
		m0, ok0 = parseMeta(buf[:n])
	}
	ps := int64(0)
	if ok0 {
		ps = int64(m0.pageSize)
	} else {
		for i := 0; i <= 14 && ps == 0; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if n, _ := r.ReadAt(buf, pos); n >= pageHeaderSize+64 {
				if m, ok := parseMeta(buf[:n]); ok {
					ps = int64(m.pageSize)
				}
			}
		}
	}
	if ps < 512 || ps > 1<<24 || ps&(ps-1) != 0 {
		return v.fail("neither meta page is readable")
	}
	v.pageSize = ps
	if n, _ := r.ReadAt(buf, 0); n >= pageHeaderSize+64 {
		m0, ok0 = parseMeta(buf[:n])
	}
	if n, _ := r.ReadAt(buf, ps); n >= pageHeaderSize+64 {
		m1, ok1 = parseMeta(buf[:n])
	}
	// bbolt uses the meta page of the later transaction that is valid.
	var m meta
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		m = m1
	case ok0:
		m = m0
	default:
		return v.fail("neither meta page is valid")
	}
	if int64(m.pageSize) != ps {
		return v.fail("the meta pages disagree on the page size")
	}
	v.hwm = m.hwm
	if m.hwm < 3 || m.root < 2 || m.root >= m.hwm {
		return v.fail("the meta page points outside the file (root page %d of %d)", m.root, m.hwm)
	}
	if m.freelist != noFreelist {
		if err := v.verifyFreelist(m.freelist); err != nil {
			return err
		}
	}
	_, err := v.walk(m.root, nil, nil, "root")
	return err
}

// page reads page id with its overflow pages, checking its header.
func (v *verifier) page(id uint64, where string) ([]byte, error) {
	if id < 2 || id >= v.hwm {
		return nil, v.fail("%s: page %d is out of bounds (%d pages)", where, id, v.hwm)
	}
	head := make([]byte, pageHeaderSize)
	if id >= uint64(v.size/v.pageSize) {
		return nil, v.fail("%s: page %d lies past the end of the file (truncated?)", where, id)
	}
	off := int64(id) * v.pageSize
	if off+v.pageSize > v.size {
		return nil, v.fail("%s: page %d lies past the end of the file (truncated?)", where, id)
	}
	if _, err := v.r.ReadAt(head, off); err != nil {
		return nil, v.fail("%s: page %d: %v", where, id, err)
	}
	if got := ne.Uint64(head); got != id {
		return nil, v.fail("%s: page %d identifies as page %d", where, id, got)
	}
	overflow := uint64(ne.Uint32(head[12:]))
	if id+overflow >= v.hwm || off+int64(overflow+1)*v.pageSize > v.size {
		return nil, v.fail("%s: page %d runs past the end of the file", where, id)
	}
	for i := uint64(0); i <= overflow; i++ {
		if v.seen[id+i] {
			return nil, v.fail("%s: page %d is used twice", where, id+i)
		}
		v.seen[id+i] = true
	}
	b := make([]byte, int64(overflow+1)*v.pageSize)
	if _, err := v.r.ReadAt(b, off); err != nil {
		return nil, v.fail("%s: page %d: %v", where, id, err)
	}
	return b, nil
}

func (v *verifier) verifyFreelist(id uint64) error {
	b, err := v.page(id, "free-page list")
	if err != nil {
		return err
	}
	if ne.Uint16(b[8:]) != freelistPage {
		return v.fail("free-page list: page %d is not one", id)
	}
	n, first := uint64(ne.Uint16(b[10:])), uint64(0)
	if n == 0xFFFF {
		n, first = ne.Uint64(b[pageHeaderSize:]), 1
	}
	if n > uint64(len(b))/8 || (first+n)*8 > uint64(len(b)-pageHeaderSize) {
		return v.fail("free-page list: %d entries do not fit in page %d", n, id)
	}
	return nil
}

// walk checks the subtree of page id, whose keys must lie in [lo, hi)
// (nil: unbounded), and returns its last key.
func (v *verifier) walk(id uint64, lo, hi []byte, where string) ([]byte, error) {
	b, err := v.page(id, where)
	if err != nil {
		return nil, err
	}
	return v.walkPage(b, id, lo, hi, where)
}

// walkPage checks one page (a stored page or an inline bucket's page).
func (v *verifier) walkPage(b []byte, id uint64, lo, hi []byte, where string) ([]byte, error) {
	flags, count := ne.Uint16(b[8:]), int(ne.Uint16(b[10:]))
	if flags != branchPage && flags != leafPage {
		return nil, v.fail("%s: page %d has type %#x, not a branch or leaf", where, id, flags)
	}
	if pageHeaderSize+count*elemSize > len(b) {
		return nil, v.fail("%s: page %d claims %d elements", where, id, count)
	}
	if flags == branchPage && count == 0 {
		return nil, v.fail("%s: branch page %d is empty", where, id)
	}
	prev := lo
	for i := range count {
		e := pageHeaderSize + i*elemSize
		var pos, ksize, vsize uint64
		if flags == branchPage {
			pos, ksize = uint64(ne.Uint32(b[e:])), uint64(ne.Uint32(b[e+4:]))
		} else {
			pos, ksize, vsize = uint64(ne.Uint32(b[e+4:])), uint64(ne.Uint32(b[e+8:])), uint64(ne.Uint32(b[e+12:]))
		}
		start := uint64(e) + pos
		if start+ksize+vsize > uint64(len(b)) {
			return nil, v.fail("%s: page %d: element %d lies outside the page", where, id, i)
		}
		k := b[start : start+ksize]
		if prev != nil && (bytes.Compare(k, prev) < 0 || i > 0 && bytes.Equal(k, prev)) || hi != nil && bytes.Compare(k, hi) >= 0 {
			return nil, v.fail("%s: page %d: keys out of order at element %d", where, id, i)
		}
		if flags == branchPage {
			next := hi
			if i+1 < count {
				ne2 := pageHeaderSize + (i+1)*elemSize
				p2, k2 := uint64(ne2)+uint64(ne.Uint32(b[ne2:])), uint64(ne.Uint32(b[ne2+4:]))
				if p2+k2 > uint64(len(b)) {
					return nil, v.fail("%s: page %d: element %d lies outside the page", where, id, i+1)
				}
				next = b[p2 : p2+k2]
			}
			last, err := v.walk(ne.Uint64(b[e+8:]), k, next, where)
			if err != nil {
				return nil, err
			}
			prev = last
			continue
		}
		prev = k
		if ne.Uint32(b[e:])&bucketLeaf != 0 {
			if err := v.bucket(b[start+ksize:start+ksize+vsize], where+"/"+printable(k)); err != nil {
				return nil, err
			}
		}
	}
	return prev, nil
}

// bucket checks a bucket stored as a value: its root page, or the page
// inlined after its header.
func (v *verifier) bucket(val []byte, where string) error {
	if len(val) < bucketHeader {
		return v.fail("%s: bucket header is %d bytes", where, len(val))
	}
	root := ne.Uint64(val)
	if root != 0 {
		_, err := v.walk(root, nil, nil, where)
		return err
	}
	inline := val[bucketHeader:]
	if len(inline) < pageHeaderSize {
		return v.fail("%s: inline bucket is %d bytes", where, len(inline))
	}
	if ne.Uint16(inline[8:]) != leafPage {
		return v.fail("%s: inline bucket is not a leaf", where)
	}
	_, err := v.walkPage(inline, 0, nil, nil, where)
	return err
}

// printable names a key in a message: index keys join their parts
// with zero bytes, shown as "/"; anything else unprintable goes in hex.
func printable(k []byte) string {
	for _, c := range k {
		if c != 0 && (c < 0x20 || c > 0x7e) {
			return fmt.Sprintf("%x", k)
		}
	}
	return string(bytes.ReplaceAll(k, []byte{0}, []byte{'/'}))
}

// VerifyFile checks the page structure of a database file without
// opening it with bbolt. It takes a shared lock on the file, waiting up
// to timeout, so it fails with ErrLocked while a process serves it.
func VerifyFile(path string, timeout time.Duration) error {
	if err := verifyPath(path, timeout); err != nil {
		return fmt.Errorf("storage: %s: %w", path, err)
	}
	return nil
}

func verifyPath(path string, timeout time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lockShared(f, timeout); err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return verifyFile(f, st.Size())
}
