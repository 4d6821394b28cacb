// Package priority tests priority classes and the Priority admission
// plugin on a real API server: the built-in classes after start, their
// protection, the validation of user classes, and pods getting their
// priority from their class or the global default.
package priority
