package summary

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// The Acquires fact has an encoding of its own, and a dependency's fact is
// decoded only when the package asks what it holds.
//
// The facts of methods are copied into the facts of every package that
// depends on theirs, so a vet process reads the Acquires facts of all the
// methods below it, each with up to maxInvoked interface methods: with
// gob's encoding of the struct, reading them was the largest part of
// go vet -vettool's CPU on grpc. The encoding writes each string of a fact
// once (the methods of one fact share package paths and interfaces), and
// a fact read from a dependency keeps its bytes until it is asked; most
// never are, and a fact copied on to the next package is written out as
// it was read.

// GobEncode writes the fact: its strings, each once, then its locks and
// interface methods as indexes into them. The encoding is deterministic.
func (a *Acquires) GobEncode() ([]byte, error) {
	if a.raw != nil {
		return a.raw, nil
	}
	var e factEncoder
	e.uint(len(a.Locks))
	for _, l := range a.Locks {
		e.str(l.Class)
		e.bool(l.Write)
	}
	e.uint(len(a.Invokes))
	for _, v := range a.Invokes {
		e.str(v.Pkg)
		e.str(v.Iface)
		e.str(v.Method)
	}
	return e.bytes(), nil
}

// GobDecode keeps a copy of the encoding (gob reuses its buffer);
// decoded reads it on first use.
func (a *Acquires) GobDecode(data []byte) error {
	a.raw = bytes.Clone(data)
	return nil
}

// decoded returns a with its locks and methods read from the encoding of
// a dependency's fact, if that is where it came from. An encoding that
// does not read is taken as a fact that says nothing: the same binary
// wrote it, so only a damaged cache gets there.
func (a *Acquires) decoded() *Acquires {
	a.once.Do(func() {
		if a.raw == nil {
			return
		}
		if err := a.decode(a.raw); err != nil {
			a.Locks, a.Invokes = nil, nil
		}
	})
	return a
}

func (a *Acquires) decode(data []byte) error {
	d := factDecoder{data: data}
	d.table()
	locks := make([]Acquired, d.count())
	for i := range locks {
		locks[i] = Acquired{Class: d.str(), Write: d.bool()}
	}
	invokes := make([]Invoked, d.count())
	for i := range invokes {
		invokes[i] = Invoked{Pkg: d.str(), Iface: d.str(), Method: d.str()}
	}
	if d.err == nil && len(d.data) > 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return d.err
	}
	if len(locks) > 0 {
		a.Locks = locks
	}
	if len(invokes) > 0 {
		a.Invokes = invokes
	}
	return nil
}

// factEncoder writes a string table followed by a body of uvarints that
// refer to it.
type factEncoder struct {
	index map[string]int
	strs  []string
	body  []byte
}

func (e *factEncoder) uint(n int) { e.body = binary.AppendUvarint(e.body, uint64(n)) }

func (e *factEncoder) bool(b bool) {
	if b {
		e.uint(1)
	} else {
		e.uint(0)
	}
}

func (e *factEncoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		if e.index == nil {
			e.index = make(map[string]int)
		}
		i = len(e.strs)
		e.index[s] = i
		e.strs = append(e.strs, s)
	}
	e.uint(i)
}

func (e *factEncoder) bytes() []byte {
	out := binary.AppendUvarint(nil, uint64(len(e.strs)))
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.body...)
}

// factDecoder reads what factEncoder wrote. The first error sticks, and
// every read after it returns zero values.
type factDecoder struct {
	data []byte
	strs []string
	err  error
}

func (d *factDecoder) uint() int {
	if d.err != nil {
		return 0
	}
	n, k := binary.Uvarint(d.data)
	if k <= 0 || n > 1<<31 {
		d.err = errors.New("bad number")
		return 0
	}
	d.data = d.data[k:]
	return int(n)
}

// count reads the length of a list, each of whose entries takes a byte at
// least of what follows.
func (d *factDecoder) count() int {
	n := d.uint()
	if n > len(d.data) {
		d.err = errors.New("bad count")
		return 0
	}
	return n
}

func (d *factDecoder) bool() bool { return d.uint() != 0 }

func (d *factDecoder) table() {
	d.strs = make([]string, d.count())
	for i := range d.strs {
		n := d.uint()
		if d.err != nil || n > len(d.data) {
			d.err = errors.New("bad string")
			return
		}
		d.strs[i], d.data = string(d.data[:n]), d.data[n:]
	}
}

func (d *factDecoder) str() string {
	i := d.uint()
	if d.err != nil || i >= len(d.strs) {
		if d.err == nil {
			d.err = errors.New("bad string index")
		}
		return ""
	}
	return d.strs[i]
}
