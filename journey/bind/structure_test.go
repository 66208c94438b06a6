package bind

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// The binding keeps the shape issue 37 asks of the journey tree: no helper
// named for a lock (its state is parts that own their locks, and a Model
// change is applied with none held, follow.go) and no function over 80
// lines.
func TestPackageStructure(t *testing.T) {
	const maxLines = 80
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	funcs := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			funcs++
			if strings.HasSuffix(fd.Name.Name, "Locked") {
				t.Errorf("%s: %s is named for a lock", name, fd.Name.Name)
			}
			if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > maxLines {
				t.Errorf("%s: %s is %d lines (at most %d)", name, fd.Name.Name, lines, maxLines)
			}
		}
	}
	if funcs == 0 {
		t.Fatal("read no functions")
	}
}
