package journey

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// The package keeps the shape issue 37 gave it: no type with more than
// 40 methods (the session is a coordinator; reads are on View, the ask
// book on AskBook, the state and its rules on fold and its parts), no
// function over 80 lines, and no helper named for the lock (every method
// of fold runs under it by construction). No type embeds another with
// methods, so the declared methods are the whole method set.
func TestPackageStructure(t *testing.T) {
	const maxMethods, maxLines = 40, 80
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]int{}
	files := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > maxLines {
				t.Errorf("%s: %s is %d lines (at most %d)", name, fd.Name.Name, lines, maxLines)
			}
			if strings.HasSuffix(fd.Name.Name, "Locked") {
				t.Errorf("%s: %s is named for the lock", name, fd.Name.Name)
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				methods[receiverName(fd.Recv.List[0].Type)]++
			}
		}
	}
	if files == 0 || methods["Session"] == 0 || methods["View"] == 0 {
		t.Fatalf("read %d files; methods %v", files, methods)
	}
	for typ, n := range methods {
		if n > maxMethods {
			t.Errorf("%s has %d methods (at most %d)", typ, n, maxMethods)
		}
	}
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
