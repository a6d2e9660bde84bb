package callgraph

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/oracle-ts/oracle/analyzer"
)

// The data of ReachFunctions' walk, shared by the walks of every test file:
// modules, functions, exports and classes are interned to dense ids once,
// and what each one leads to (a module's module-level call targets and
// imports, a function's call targets, what an export resolves to, a class's
// members and bases) is resolved once, on first use, into ids. A walk is
// then bitsets and slices indexed by id; only a test file's stubs (its
// mocks) and its own module-level code are per walk.

const (
	chunkBits = 10
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// table interns keys to dense ids and holds one T per id. Interning takes a
// lock; reading a T by an id already handed out does not (the chunks an id
// points into never move).
type table[K comparable, T any] struct {
	mu     sync.Mutex
	ids    map[K]int32
	n      int32
	chunks atomic.Pointer[[]*[chunkSize]T]
}

// intern is k's id; init sets up the T of a new one (under the lock).
func (t *table[K, T]) intern(k K, init func(*T)) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[k]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[K]int32{}
	}
	id := t.n
	var cs []*[chunkSize]T
	if p := t.chunks.Load(); p != nil {
		cs = *p
	}
	if int(id>>chunkBits) == len(cs) {
		cs = append(cs[:len(cs):len(cs)], new([chunkSize]T))
		t.chunks.Store(&cs)
	}
	init(&cs[id>>chunkBits][id&chunkMask])
	t.ids[k] = id
	t.n++
	return id
}

func (t *table[K, T]) at(id int32) *T {
	return &(*t.chunks.Load())[id>>chunkBits][id&chunkMask]
}

// reachIndex is the walk's shared data (Program.reach).
type reachIndex struct {
	mods       table[string, rmod]      // by module path
	fns        table[string, rfn]       // by function id "file#qual"
	exps       table[rexpKey, rexp]     // by (module, export name)
	classes    table[rclassKey, rclass] // by (file, class declaration)
	classNames table[string, struct{}]  // "file#Name": a class counted once per name
}

// rtarget is a resolved call's target.
type rtarget struct {
	fn    int32 // the function called
	mod   int32 // its module
	exp   int32 // the export of mod the call takes (-1: a local call)
	class int32 // a constructor call: the class of mod it constructs (-1: none)
}

// rimport is one module a module loads at run time.
type rimport struct {
	mod   int32
	names []int32 // the exports it takes (exps ids); none: the module only
}

type rmod struct {
	path string
	once sync.Once
	file *analyzer.File // nil: not analyzed
	top  []rtarget      // module-level code's calls
	imps []rimport
	// held: the functions of module-level code (object-literal methods,
	// arrows passed to calls), run as far as the walk can tell when the
	// module loads; their calls are in top.
	held []int32
	// deferred: the functions of module-level code a top-level variable
	// holds without calling them (analyzer's Function.HeldBy), by its name:
	// they run when that variable is taken, not when the module loads, and
	// their calls are not in top (they are followed from the function).
	deferred map[string][]int32

	starOnce sync.Once
	star     []int32 // take(path, "*"): the exports (exps ids) it takes, in order
}

type rfn struct {
	id      string
	once    sync.Once
	targets []rtarget
}

type rexpKey struct {
	mod  int32
	name string
}

const (
	expNone      = iota // leads nowhere the walk follows
	expNamespace        // a module namespace: take ns ("*" of a module)
	expDecl             // a declaration of module decl: class or fn
)

type rexp struct {
	mod   int32
	name  string
	once  sync.Once
	kind  uint8
	ns    int32  // expNamespace: the exps id of (module, "*")
	decl  int32  // expDecl: the declaring module
	local string // expDecl: the name it has there
	cls   int32  // expDecl: the class taken (-1: a function)
	fn    int32  // expDecl: the function taken
}

type rclassKey struct {
	file string
	c    *analyzer.Class
}

type rclass struct {
	c     *analyzer.Class
	file  string
	seen  int32 // classNames id
	once  sync.Once
	fns   []int32 // members with a function
	bases []rbase
}

type rbase struct {
	mod   int32 // the base's module, -1 when it is not analyzed
	class int32
}

func (ix *reachIndex) modID(path string) int32 {
	return ix.mods.intern(path, func(m *rmod) { m.path = path })
}

func (ix *reachIndex) fnID(id string) int32 {
	return ix.fns.intern(id, func(f *rfn) { f.id = id })
}

func (ix *reachIndex) expID(path, name string) int32 {
	mod := ix.modID(path)
	return ix.exps.intern(rexpKey{mod, name}, func(e *rexp) { e.mod, e.name = mod, name })
}

func (ix *reachIndex) classID(file string, c *analyzer.Class) int32 {
	seen := ix.classNames.intern(file+"#"+c.Name, func(*struct{}) {})
	return ix.classes.intern(rclassKey{file, c}, func(r *rclass) { r.c, r.file, r.seen = c, file, seen })
}

// rmod is module id's data, resolved on first use.
func (p *Program) rmod(id int32) *rmod {
	m := p.reach.mods.at(id)
	m.once.Do(func() {
		m.file, _ = p.Module(m.path)
		if m.file == nil {
			return
		}
		m.imps = p.rimports(p.TakenImports(m.file))
		var deferred []*analyzer.Function
		for _, fn := range m.file.Functions {
			if fn.Parent != nil || fn.Kind != analyzer.FuncProperty && fn.Kind != analyzer.FuncExpression {
				continue
			}
			id := p.reach.fnID(m.path + "#" + fn.Qual)
			if fn.HeldBy == "" {
				m.held = append(m.held, id)
				continue
			}
			if m.deferred == nil {
				m.deferred = map[string][]int32{}
			}
			m.deferred[fn.HeldBy] = append(m.deferred[fn.HeldBy], id)
			deferred = append(deferred, fn)
		}
		m.top = p.rtargets(p.callTargets(m.file, m.path+"#<load>", loadCalls(m.file.TopCalls, deferred)))
	})
	return m
}

// loadCalls is top without the calls in the deferred functions' bodies: the
// calls loading the module makes.
func loadCalls(top []analyzer.Call, deferred []*analyzer.Function) []analyzer.Call {
	if len(deferred) == 0 {
		return top
	}
	out := make([]analyzer.Call, 0, len(top))
	for _, c := range top {
		in := false
		for _, fn := range deferred {
			if c.StartByte >= fn.StartByte && c.StartByte < fn.EndByte {
				in = true
				break
			}
		}
		if !in {
			out = append(out, c)
		}
	}
	return out
}

func (p *Program) rtargets(ts []target) []rtarget {
	ix := &p.reach
	out := make([]rtarget, 0, len(ts))
	for _, t := range ts {
		r := rtarget{fn: ix.fnID(t.id), mod: ix.modID(t.module), exp: -1, class: -1}
		if t.export != "" {
			r.exp = ix.expID(t.module, t.export)
		}
		if cls, ok := strings.CutSuffix(t.id[len(t.module)+1:], ".constructor"); ok {
			if mf, _ := p.Module(t.module); mf != nil {
				if c := classByName(mf, cls); c != nil {
					r.class = ix.classID(mf.Path, c)
				}
			}
		}
		out = append(out, r)
	}
	return out
}

func (p *Program) rimports(ims []Import) []rimport {
	out := make([]rimport, 0, len(ims))
	for _, im := range ims {
		r := rimport{mod: p.reach.modID(im.Module)}
		for _, n := range im.Names {
			r.names = append(r.names, p.reach.expID(im.Module, n))
		}
		out = append(out, r)
	}
	return out
}

// rstar is what taking the whole namespace of module m takes.
func (p *Program) rstar(m *rmod) []int32 {
	m.starOnce.Do(func() {
		for _, ex := range m.file.Exports {
			switch {
			case ex.TypeOnly:
			case ex.Kind == analyzer.ExportAll || ex.Kind == analyzer.ExportAllAs:
				if r := p.resolveModule(m.path, ex.Specifier); r.file != "" && r.reason == "" {
					m.star = append(m.star, p.reach.expID(r.file, "*"))
				}
			case ex.Name != "":
				m.star = append(m.star, p.reach.expID(m.path, ex.Name))
			}
		}
	})
	return m.star
}

func (p *Program) rfn(id int32) *rfn {
	f := p.reach.fns.at(id)
	f.once.Do(func() {
		file, qual, _ := strings.Cut(f.id, "#")
		mf, _ := p.Module(file)
		if mf == nil {
			return
		}
		if fn := p.functionOf(mf, qual); fn != nil {
			f.targets = p.rtargets(p.callTargets(mf, f.id, fn.Calls))
		}
	})
	return f
}

func (p *Program) rexp(id int32) *rexp {
	e := p.reach.exps.at(id)
	e.once.Do(func() {
		if e.name == "*" {
			return
		}
		mod := p.reach.mods.at(e.mod).path
		sym := p.exportOf(mod, e.name)
		if sym.reason != "" || sym.external != "" || sym.file == "" {
			return
		}
		if sym.namespace {
			e.kind, e.ns = expNamespace, p.reach.expID(sym.file, "*")
			return
		}
		df, _ := p.Module(sym.file)
		if df == nil {
			return
		}
		e.kind, e.decl, e.cls, e.fn, e.local = expDecl, p.reach.modID(sym.file), -1, -1, sym.name
		if c := classByName(df, sym.name); c != nil {
			e.cls = p.reach.classID(sym.file, c)
			return
		}
		e.fn = p.reach.fnID(sym.file + "#" + sym.name)
	})
	return e
}

func (p *Program) rclass(id int32) *rclass {
	c := p.reach.classes.at(id)
	c.once.Do(func() {
		for _, m := range c.c.Members {
			if m.Function != "" {
				c.fns = append(c.fns, p.reach.fnID(c.file+"#"+m.Function))
			}
		}
		for _, ext := range c.c.Extends {
			if tf, tc, _ := p.resolveType(c.file, ext); tc != nil {
				b := rbase{mod: -1, class: p.reach.classID(tf, tc)}
				if mf, _ := p.Module(tf); mf != nil {
					b.mod = p.reach.modID(tf)
				}
				c.bases = append(c.bases, b)
			}
		}
	})
	return c
}

// bits is a set of ids.
type bits []uint64

func (b bits) has(i int32) bool {
	w := int(i >> 6)
	return w < len(b) && b[w]&(1<<(i&63)) != 0
}

func (b *bits) add(i int32) {
	w := int(i >> 6)
	if w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b)+len(*b)/2)...)
	}
	(*b)[w] |= 1 << (i & 63)
}

// tri is a memo of a yes/no answer per id: 0 unknown, 1 no, 2 yes.
type tri []uint8

func (t *tri) get(i int32, answer func() bool) bool {
	if int(i) >= len(*t) {
		*t = append(*t, make([]uint8, int(i)+1-len(*t)+len(*t)/2)...)
	}
	if (*t)[i] == 0 {
		(*t)[i] = 1
		if answer() {
			(*t)[i] = 2
		}
	}
	return (*t)[i] == 2
}

// reachWalk is one ReachFunctions walk: what it has loaded, taken and
// counted, by id, and its stubs' answers.
type reachWalk struct {
	p        *Program
	stub     Stub
	stubbed  map[string]bool
	loaded   bits // modules
	takenAll bits // modules
	fnSeen   bits
	classes  bits // classNames
	modStub  tri  // stub(module, "")
	expStub  tri  // stub(module, export)
	fns      []int32
}

func (w *reachWalk) isStubbed(mod, exp int32) bool {
	if w.stub == nil {
		return false
	}
	if w.modStub.get(mod, func() bool {
		path := w.p.reach.mods.at(mod).path
		if w.stub(path, "") {
			w.stubbed[path] = true
			return true
		}
		return false
	}) {
		return true
	}
	if exp < 0 {
		return false
	}
	return w.expStub.get(exp, func() bool {
		e := w.p.reach.exps.at(exp)
		return e.name != "" && w.stub(w.p.reach.mods.at(e.mod).path, e.name)
	})
}

func (w *reachWalk) addFn(id int32) {
	if !w.fnSeen.has(id) {
		w.fnSeen.add(id)
		w.fns = append(w.fns, id)
	}
}

// addClass counts every method of class id and of its bases in the
// repository as run (see ReachFunctions).
func (w *reachWalk) addClass(id int32, depth int) {
	c := w.p.reach.classes.at(id)
	if depth > 16 || c.c.Interface || w.classes.has(c.seen) {
		return
	}
	w.classes.add(c.seen)
	w.p.rclass(id)
	for _, fn := range c.fns {
		w.addFn(fn)
	}
	for _, b := range c.bases {
		if b.mod >= 0 {
			w.load(b.mod)
		}
		w.addClass(b.class, depth+1)
	}
}

// edges follows resolved calls.
func (w *reachWalk) edges(ts []rtarget) {
	for _, t := range ts {
		if w.isStubbed(t.mod, t.exp) {
			continue
		}
		analyzed := w.p.rmod(t.mod).file != nil
		if analyzed {
			w.load(t.mod)
		}
		w.addFn(t.fn)
		if t.class >= 0 && analyzed {
			w.addClass(t.class, 0)
		}
	}
}

// load runs module id's module-level code (id is analyzed).
func (w *reachWalk) load(id int32) {
	if w.loaded.has(id) {
		return
	}
	w.loaded.add(id)
	m := w.p.rmod(id)
	w.edges(m.top)
	for _, fn := range m.held {
		w.addFn(fn)
	}
	w.imports(m.imps)
}

func (w *reachWalk) imports(imps []rimport) {
	for _, im := range imps {
		if w.isStubbed(im.mod, -1) {
			continue
		}
		if len(im.names) == 0 {
			if w.p.rmod(im.mod).file != nil {
				w.load(im.mod)
			}
		}
		for _, n := range im.names {
			w.take(n)
		}
	}
}

// take takes export id: its module loads, and what it names runs.
func (w *reachWalk) take(id int32) {
	e := w.p.rexp(id)
	if w.isStubbed(e.mod, id) {
		return
	}
	m := w.p.rmod(e.mod)
	if m.file == nil {
		return
	}
	w.load(e.mod)
	if e.name == "*" {
		if w.takenAll.has(e.mod) {
			return
		}
		w.takenAll.add(e.mod)
		for _, x := range w.p.rstar(m) {
			w.take(x)
		}
		return
	}
	switch e.kind {
	case expNamespace:
		w.take(e.ns)
	case expDecl:
		w.load(e.decl)
		for _, fn := range w.p.rmod(e.decl).deferred[e.local] {
			w.addFn(fn)
		}
		if e.cls >= 0 {
			w.addClass(e.cls, 0)
			return
		}
		w.addFn(e.fn)
	}
}

// ReachFunctions is what a file runs, as far as names and declarations
// decide: the module-level code of every module it loads, the functions it
// takes by name from them (a whole module when it takes the namespace or
// does not destructure a dynamic import), every member of a class it takes,
// and, transitively, every function those call (resolved call edges). A
// module stub replaces is not entered; an export it replaces is not taken.
// What only from's vi.mock factories call or import is not run by from.
// It returns the function ids reached and the stubbed modules the walk met.
// What the walk resolves is kept by the Program and shared by every file's
// walk (stub is called at most once per module and per export).
func (p *Program) ReachFunctions(from *analyzer.File, stub Stub) (fns map[string]bool, stubbed map[string]bool) {
	w := &reachWalk{p: p, stub: stub, stubbed: map[string]bool{}}
	// The vi.mock factories of the file are its scaffolding: what only a
	// factory's code calls or imports is not run by the file (SPEC: a
	// function called only inside a vi.mock factory is not tested by it).
	var factories [][2]uint
	for _, m := range from.Mocks {
		if m.FactoryEndByte > m.FactoryStartByte {
			factories = append(factories, [2]uint{m.FactoryStartByte, m.FactoryEndByte})
		}
	}
	inFactory := func(start uint) bool {
		for _, r := range factories {
			if start >= r[0] && start < r[1] {
				return true
			}
		}
		return false
	}
	// from itself is loaded first, as it is (not as the program parsed it).
	w.loaded.add(p.reach.modID(from.Path))
	key, calls, imports := from.Path+"#", from.TopCalls, []Import(nil)
	if len(factories) > 0 {
		key, calls, imports = from.Path+"# outside vi.mock factories", nil, p.runtimeImports(from, inFactory, true)
		for _, c := range from.TopCalls {
			if !inFactory(c.StartByte) {
				calls = append(calls, c)
			}
		}
	} else {
		imports = p.TakenImports(from)
	}
	w.edges(p.rtargets(p.callTargets(from, key, calls)))
	w.imports(p.rimports(imports))
	// from's own functions: its helpers run; the functions of its
	// module-level code (an arrow passed to vi.mock is one) are counted but
	// not followed: their calls are from's top-level calls, followed above
	// outside its vi.mock factories.
	var held []int32
	for _, fn := range from.Functions {
		id := p.reach.fnID(from.Path + "#" + fn.Qual)
		if fn.Parent == nil && (fn.Kind == analyzer.FuncProperty || fn.Kind == analyzer.FuncExpression) {
			if !w.fnSeen.has(id) {
				w.fnSeen.add(id)
				held = append(held, id)
			}
			continue
		}
		w.addFn(id)
	}
	for i := 0; i < len(w.fns); i++ {
		w.edges(p.rfn(w.fns[i]).targets)
	}
	fns = make(map[string]bool, len(w.fns)+len(held))
	for _, id := range append(w.fns, held...) {
		fns[p.reach.fns.at(id).id] = true
	}
	return fns, w.stubbed
}
