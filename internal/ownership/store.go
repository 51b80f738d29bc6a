package ownership

import "golang.org/x/tools/go/ssa"

// store follows v stored through an address: into a local variable, whose
// loads hold it too, or into a field, a package-level variable or an
// element, which other functions load.
func (w *walker) store(in *ssa.Store, h *holds, c ctx) {
	switch a := in.Addr.(type) {
	case *ssa.Alloc:
		if h.kind == holdsCarrier {
			// A struct value copied into a variable: the variable's
			// address carries the field as the struct's did.
			//	t1 = local T (complit); ...; t2 = *t1; *t0 = t2
			w.value(a, h, c)
			return
		}
		w.value(a, w.hold(holds{kind: holdsCell, inner: h}), c)
		return
	case *ssa.FieldAddr:
		if obj, fresh := a.X.(*ssa.Alloc); fresh {
			// A struct made here: whatever it is handed to carries the
			// stream, and no other function can load it from elsewhere.
			//	t1 = new stream (complit); t2 = &t1.conn [#1]; *t2 = s
			f := w.u.field(a.X.Type(), a.Field)
			if f != nil {
				w.value(obj, w.hold(holds{kind: holdsCarrier, field: f, inner: h}), c)
			}
			return
		}
		if w.u.streamHolder(a.X.Type()) {
			// A wrapper that embeds a stream is a stream: it is followed
			// from where it enters the package, not through its fields.
			return
		}
	case *ssa.IndexAddr:
		if _, local := a.X.(*ssa.Alloc); local {
			// An element of an array made here, such as the varargs of
			//	t1 = new [1]func(any) error (varargs); *&t1[0] = send
			//	t3 = slice t1[:]; t4 = append(hooks, t3...)
			w.value(a.X, w.hold(holds{kind: holdsElems, inner: h}), c)
			return
		}
	}
	key, ok := w.u.keyOf(in.Addr)
	w.record(in, key, ok, h)
}

// storeElem follows v put in a map or sent on a channel.
func (w *walker) storeElem(in ssa.Instruction, coll ssa.Value, h *holds, c ctx) {
	key, ok := w.u.elemKey(coll)
	w.record(in, key, ok, h)
}

func (w *walker) record(in ssa.Instruction, key Key, ok bool, h *holds) {
	switch h.kind {
	case holdsStream, holdsSend:
		if ok {
			w.stores = append(w.stores, &Store{Instr: in, Key: key, Send: h.kind == holdsSend, Place: w.u.place(key)})
		}
	case holdsCarrier:
		// The struct that carries the stream is stored where other
		// functions load it: its field is then a stored place, and
		// one reached through a collection holds other invocations'
		// streams too.
		if ok && (h.inner.kind == holdsStream || h.inner.kind == holdsSend) {
			k := Key{Obj: h.field}
			w.stores = append(w.stores, &Store{Instr: in, Key: k, Send: h.inner.kind == holdsSend, Cross: key.Elem, Place: w.u.place(k)})
		}
	case holdsElems:
		if ok && (h.inner.kind == holdsStream || h.inner.kind == holdsSend) {
			k := Key{Obj: key.Obj, Elem: true}
			w.stores = append(w.stores, &Store{Instr: in, Key: k, Send: h.inner.kind == holdsSend, Place: w.u.place(k)})
		}
	case holdsClosure:
		w.escape(in, h)
	}
}
