package calltrace

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

func TestStaysCountsReturns(t *testing.T) {
	entries := []Entry{{"a.go", "A"}, {"a.go", "a2"}, {"b.go", "B"}, {"a.go", "a3"}, {"c.go", "C"}, {"b.go", "b2"}}
	stays := Stays(entries)
	var files []string
	for _, s := range stays {
		files = append(files, s.File)
	}
	if want := []string{"a.go", "b.go", "a.go", "c.go", "b.go"}; !slices.Equal(files, want) {
		t.Fatalf("stays %v, want %v", files, want)
	}
	if !slices.Equal(stays[0].Funcs, []string{"A", "a2"}) || stays[0].Return || !stays[2].Return || !stays[4].Return {
		t.Fatalf("stays %+v", stays)
	}
	if got, want := FiguresOf(stays), (Figures{Stays: 5, Files: 3, Returns: 2}); got != want {
		t.Fatalf("figures %+v, want %+v", got, want)
	}
}

func TestRecordsOnlyTheStartingGoroutine(t *testing.T) {
	Enter("x.go", "before")
	Start()
	Enter("a.go", "A")
	done := make(chan struct{})
	go func() {
		Enter("elsewhere.go", "G")
		close(done)
	}()
	<-done
	Enter("b.go", "B")
	got := Stop()
	Enter("y.go", "after")
	if want := []Entry{{"a.go", "A"}, {"b.go", "B"}}; !slices.Equal(got, want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
}

func TestInstrumentEntersEveryBody(t *testing.T) {
	src := `package p // the package

import "fmt"

type T struct{}

func (t *T) M() { fmt.Println() }

func F() func() {
	return func() {}
}

func Decl()
`
	out, err := Instrument("p/f.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "f.go", out, 0); err != nil {
		t.Fatalf("instrumented source does not parse: %v\n%s", err, out)
	}
	for _, want := range []string{`zzcalltrace.Enter("p/f.go", "T.M");`, `zzcalltrace.Enter("p/f.go", "F");`,
		`zzcalltrace.Enter("p/f.go", "F.func1");`, `import zzcalltrace "` + ImportPath + `"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if n := strings.Count(string(out), "zzcalltrace.Enter("); n != 3 {
		t.Errorf("%d entries written, want 3:\n%s", n, out)
	}
	plain := "package p\n\ntype T struct{}\n"
	if out, _ := Instrument("p/t.go", []byte(plain)); string(out) != plain {
		t.Errorf("a file without bodies changed:\n%s", out)
	}
}
