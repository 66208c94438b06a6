package wire_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/foldagent/foldagent/agent/internal/wire"
	"github.com/foldagent/foldagent/examples/shop/shop"
	"github.com/foldagent/foldagent/examples/todo/todo"
)

// The examples' inputs, contexts, resources and Messages derive the same
// schema bytes as jsonschema-go derives for them (see derive_test.go).
func TestExampleSchemasMatchJSONSchemaGo(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[todo.CreateInput](), reflect.TypeFor[todo.ContextView](), reflect.TypeFor[todo.Todo](),
		reflect.TypeFor[todo.List](), reflect.TypeFor[todo.Stats](), reflect.TypeFor[todo.Principal](),
		reflect.TypeFor[todo.CreateTodo](), reflect.TypeFor[todo.CreatedTodo](), reflect.TypeFor[todo.RenameTodo](),
		reflect.TypeFor[todo.SelectTodo](), reflect.TypeFor[todo.ToggleTodo](), reflect.TypeFor[todo.DeleteTodo](),
		reflect.TypeFor[todo.ClearCompleted](),
		reflect.TypeFor[shop.AddInput](), reflect.TypeFor[shop.View](), reflect.TypeFor[shop.Product](),
		reflect.TypeFor[shop.Line](), reflect.TypeFor[shop.Order](), reflect.TypeFor[shop.Model](),
	}
	for _, typ := range types {
		for _, nullable := range []bool{false, true} {
			got, gotErr := wire.DeriveSchema(typ, nullable)
			want, wantErr := wire.ReferenceSchema(typ, nullable)
			if (gotErr != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
				t.Errorf("%s (nullable maps %v):\nderived      %s (%v)\njsonschema-go %s (%v)", typ, nullable, got, gotErr, want, wantErr)
			}
		}
	}
}
