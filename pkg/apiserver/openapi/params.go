package openapi

// param is an operation or path parameter; all are strings, booleans or
// integers passed in the path or the query.
type param struct {
	Name        string
	In          string // "path" or "query"
	Type        string // "string", "boolean" or "integer"
	Description string
	Required    bool
}

func (p param) v2() map[string]any {
	m := map[string]any{"name": p.Name, "in": p.In, "type": p.Type, "uniqueItems": true}
	put(m, "description", p.Description)
	if p.Required {
		m["required"] = true
	}
	return m
}

func (p param) v3() map[string]any {
	m := map[string]any{"name": p.Name, "in": p.In, "schema": map[string]any{"type": p.Type, "uniqueItems": true}}
	put(m, "description", p.Description)
	if p.Required {
		m["required"] = true
	}
	return m
}

func query(name, typ, desc string) param {
	return param{Name: name, In: "query", Type: typ, Description: desc}
}

func pathParam(name, desc string) param {
	return param{Name: name, In: "path", Type: "string", Description: desc, Required: true}
}

var (
	paramPretty = query("pretty", "string",
		"If 'true', the response is indented for reading.")
	paramNamespace = pathParam("namespace",
		"The namespace of the objects: the scope of names and of access rules.")
	paramDryRun = query("dryRun", "string",
		"When present, the request is validated and run without persisting anything. The only valid value is All.")
	paramFieldManager = query("fieldManager", "string",
		"The name of the actor making the change, recorded as a manager of the fields it sets. At most 128 printable characters.")
	paramFieldValidation = query("fieldValidation", "string",
		"What to do with fields of the body that the schema does not know, and with duplicate fields: "+
			"Ignore drops them silently; Warn (the default) drops them and adds a Warning header for each; "+
			"Strict fails the request with a BadRequest naming them.")
	paramGracePeriod = query("gracePeriodSeconds", "integer",
		"Seconds to wait before the object is deleted; a non-negative integer, 0 meaning at once. Unset means the type's default.")
	paramOrphan = query("orphanDependents", "boolean",
		"Deprecated in favour of propagationPolicy: whether dependents are orphaned instead of deleted.")
	paramPropagation = query("propagationPolicy", "string",
		"What happens to dependents: Orphan leaves them, Background deletes them after the object, "+
			"Foreground deletes them before the object.")
)

// listParams are the parameters of list, watch and deletecollection.
var listParams = []param{
	query("allowWatchBookmarks", "boolean",
		"Asks a watch for BOOKMARK events, which carry only a resourceVersion. Servers may ignore it."),
	query("continue", "string",
		"The continue token of the previous page of a chunked list."),
	query("fieldSelector", "string",
		"Selects objects by their fields, such as metadata.name=x. Defaults to everything."),
	query("labelSelector", "string",
		"Selects objects by their labels, such as app=web,tier!=db. Defaults to everything."),
	query("limit", "integer",
		"The most objects to return; when there are more, the list metadata carries a continue token for the rest."),
	query("resourceVersion", "string",
		"Which version of the data to list or start watching from; how it binds depends on resourceVersionMatch. Defaults to the latest."),
	query("resourceVersionMatch", "string",
		"How resourceVersion applies to a list: Exact or NotOlderThan."),
	query("sendInitialEvents", "boolean",
		"With watch=true, starts the watch with ADDED events for the objects that exist."),
	query("timeoutSeconds", "integer",
		"Ends the list or watch call after this many seconds, whatever its state."),
	query("watch", "boolean",
		"Watches for changes to the described objects instead of listing them."),
}

// writeParams are the parameters of create, replace and patch.
var writeParams = []param{paramDryRun, paramFieldManager, paramFieldValidation}

// deleteParams are the parameters of delete and deletecollection.
var deleteParams = []param{paramDryRun, paramGracePeriod, paramOrphan, paramPropagation}

func concat(lists ...[]param) []param {
	var out []param
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
