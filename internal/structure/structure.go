// Package structure checks the shape the journey tree keeps (issue 37),
// for its packages' tests: no function over a line bound, no type with
// more methods than a bound, and no helper named for a lock.
package structure

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check reads the non-test Go files in dir and reports, as t's errors,
// each function over maxLines lines, each type with more than maxMethods
// declared methods, and each function whose name ends in "Locked". It
// returns the declared methods counted by receiver type, and fails t when
// it read no function at all.
func Check(t testing.TB, dir string, maxMethods, maxLines int) map[string]int {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]int{}
	funcs := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			funcs++
			if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > maxLines {
				t.Errorf("%s: %s is %d lines (at most %d)", name, fd.Name.Name, lines, maxLines)
			}
			if strings.HasSuffix(fd.Name.Name, "Locked") {
				t.Errorf("%s: %s is named for a lock", name, fd.Name.Name)
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				methods[receiverName(fd.Recv.List[0].Type)]++
			}
		}
	}
	if funcs == 0 {
		t.Fatalf("read no functions in %s", dir)
	}
	for typ, n := range methods {
		if n > maxMethods {
			t.Errorf("%s has %d methods (at most %d)", typ, n, maxMethods)
		}
	}
	return methods
}

func receiverName(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}
