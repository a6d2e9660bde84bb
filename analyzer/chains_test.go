package analyzer

import "testing"

// TestMemberTypeInference: a method's declared return type and type
// parameters; what decides the type of a member that declares none (the
// value every return returns, a field's initializer, its only constructor
// assignment), and where nothing does.
func TestMemberTypeInference(t *testing.T) {
	src := `class A<T> {
  a = new B();
  b = this.a.child;
  c = this.a.make().run();
  d;
  e;
  f;
  g = 1;
  h: B;
  constructor() {
    this.d = this.a.child;
    this.e = new B();
    this.e = new B();
    this.f = new B();
    [1].map(() => { this.f = new C(); });
  }
  declared<U extends B>(x: U): Wrap<this> { return null!; }
  self() { if (1) return this; return (this); }
  made() { return new B(); }
  local() { const b = new B(); return b; }
  generic() { const t: T = null!; return t; }
  mixed() { if (1) return this; return new B(); }
  bare() { if (1) return; return this; }
  none() { this.self(); }
  cast() { return this as any; }
  async later() { return this; }
  *gen() { return this; }
  nested() { const f = () => { return 1; }; return this; }
  over(x: string): B;
  over(x: number): C;
  over(x: unknown) { return new B(); }
}
class N { local() { const b = new B(); return b; } param(b: B) { return b; } letLocal() { let b = new B(); return b; } }
interface I { m<K>(k: K): Map<K, B>; p: B }`
	want := []string{
		"A.a : new B", // its type arguments (none here) are inferred
		"A.b inferred=this.a.child",
		"A.c inferred=this.a.make().run()",
		"A.d inferred=this.a.child",
		"A.e",
		"A.f",
		"A.g",
		"A.h : B",
		"A.constructor",
		"A.declared returns=Wrap<this> <U>",
		"A.self inferred=this",
		"A.made inferred=(new B)",
		"A.local",   // a const where a type parameter is in scope (its type may name one)
		"A.generic", // likewise
		"A.mixed",
		"A.bare",
		"A.none",
		"A.cast",
		"A.later",
		"A.gen",
		"A.nested inferred=this",
		"A.over returns=B",
		"A.over returns=C",
		"A.over inferred=(new B)",
		"N.local inferred=(new B)",
		"N.param",    // a parameter may be narrowed
		"N.letLocal", // a let may be reassigned
		"I.m returns=Map<K, B> <K>",
		"I.p : B",
	}
	f := parseTS(t, src)
	noErrors(t, f)
	var got []string
	for _, c := range f.Classes {
		for _, m := range c.Members {
			s := c.Name + "." + m.Name
			if m.Type != "" {
				s += " : " + m.Type
			}
			if m.Returns != "" {
				s += " returns=" + m.Returns
			}
			for _, tp := range m.TypeParams {
				s += " <" + tp.Name + ">"
			}
			if m.Inferred != nil {
				s += " inferred=" + projValue(m.Inferred)
			}
			got = append(got, s)
		}
	}
	check(t, "members", got, want)
}

// TestFunctionReturns: a function's declared return type and type
// parameters, and whether it is declared with overload signatures.
func TestFunctionReturns(t *testing.T) {
	f := parseTS(t, `export function f(): A { return null!; }
function g<T extends B>(x: T): T { return x; }
const h = (): B => new B();
function none() { return new B(); }
export function o(x: string): A;
export function o(x: number): B;
export function o(x: unknown) { return null!; }`)
	noErrors(t, f)
	var got []string
	for _, fn := range f.Functions {
		s := fn.Qual
		if fn.Returns != "" {
			s += " returns=" + fn.Returns
		}
		for _, tp := range fn.TypeParams {
			s += " <" + tp.Name + " extends " + tp.Constraint + ">"
		}
		for _, d := range f.Decls {
			if d.Function == fn && d.Overloaded {
				s += " overloaded"
			}
		}
		got = append(got, s)
	}
	check(t, "functions", got, []string{"f returns=A", "g returns=T <T extends B>", "h returns=B", "none", "o overloaded"})
}
