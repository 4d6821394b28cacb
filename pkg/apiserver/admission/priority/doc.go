// Package priority is the Priority admission plugin. On pod create it
// resolves spec.priorityClassName (or the global default class) into
// spec.priority and spec.preemptionPolicy, refusing an unknown class or a
// pod that asks for a different priority itself; on update it keeps what
// create set. On priorityclasses it allows only one global default and
// keeps the built-in system classes from being changed or deleted.
package priority
