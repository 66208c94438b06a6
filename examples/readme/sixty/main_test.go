package main

// The README's sixty-seconds program does what the README says it does.
func Example() {
	main()
	// Output:
	// Dispatched CreateTodo
	// Capability "delete_selected_todo" is not offered in the application's current state.
	// [{1 Milk}]
}
