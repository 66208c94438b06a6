package calltrace

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
)

// ImportPath is this package's import path, which Instrument imports.
const ImportPath = "github.com/foldagent/foldagent/internal/calltrace"

// Instrument returns src with a call to Enter at the top of the body of
// every function, method and function literal, naming file (as given)
// and the function (Type.method, or the enclosing function's name and
// .funcN for its Nth literal). The rest of the text is unchanged, so the
// code compiles and behaves as before; a file with no function body is
// returned as it is.
func Instrument(file string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	enter := func(body *ast.BlockStmt, name string) {
		ins = append(ins, insert{fset.Position(body.Lbrace).Offset + 1,
			fmt.Sprintf("zzcalltrace.Enter(%s, %s);", strconv.Quote(file), strconv.Quote(name))})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := funcName(fd)
		enter(fd.Body, name)
		lits := 0
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if fl, ok := n.(*ast.FuncLit); ok {
				lits++
				enter(fl.Body, name+".func"+strconv.Itoa(lits))
			}
			return true
		})
	}
	if len(ins) == 0 {
		return src, nil
	}
	ins = append(ins, insert{fset.Position(f.Name.End()).Offset, "; import zzcalltrace " + strconv.Quote(ImportPath)})
	slices.SortStableFunc(ins, func(a, b insert) int { return a.at - b.at })
	out := make([]byte, 0, len(src)+len(ins)*64)
	last := 0
	for _, in := range ins {
		out = append(out, src[last:in.at]...)
		out = append(out, in.text...)
		last = in.at
	}
	return append(out, src[last:]...), nil
}

// funcName is Type.method for a method, the name for a function.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}
